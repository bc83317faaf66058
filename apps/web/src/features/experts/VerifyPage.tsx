import {
  type DrawnMember,
  type ExtractionVerify,
  type PoolSnapshot,
  seedCommitment,
  snapshotHash,
  verifyDraw,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Input, Result, Space, Spin, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { extractionVerifyQuery } from '../../api/experts';
import { Hash } from './ExtractionDrawer';
import { EXTRACTION_VERIFY_PATH } from './paths';

interface Row extends DrawnMember {
  name: string | null;
  specialty: string;
  answer: string;
  recomputedId: string | null;
}

/** The browser's own re-run: the same contracts code as the server, on the data the server published. */
function useBrowserCheck(data: ExtractionVerify | undefined) {
  return useMemo(() => {
    if (!data?.seed || !data.snapshot || !data.conditions || !data.seedHash || !data.poolHash) return null;
    const started = performance.now();
    const outcome = verifyDraw({
      seedHex: data.seed,
      seedHash: data.seedHash,
      snapshot: data.snapshot as PoolSnapshot,
      poolHash: data.poolHash,
      conditions: data.conditions,
      members: data.members,
    });
    return {
      ...outcome,
      ms: performance.now() - started,
      seedHashNow: seedCommitment(data.seed),
      poolHashNow: snapshotHash(data.snapshot as PoolSnapshot),
    };
  }, [data]);
}

const Check = ({ ok, yes, no, testId }: { ok: boolean; yes: string; no: string; testId: string }) => (
  <Tag color={ok ? 'success' : 'error'} data-testid={testId}>
    {ok ? `✓ ${yes}` : `✗ ${no}`}
  </Tag>
);

function Verification({ id }: { id: string }) {
  const q = useQuery({ ...extractionVerifyQuery(id), retry: false });
  const check = useBrowserCheck(q.data);
  if (q.isLoading) return <Spin />;
  if (q.error || !q.data) return <Result status="404" title="抽取记录不存在" subTitle="请核对抽取记录编号（ID）" />;
  const d = q.data;
  const rows: Row[] = d.members.map((m) => ({
    ...m,
    recomputedId: check?.recomputed.find((r) => r.line === m.line && r.seq === m.seq)?.expertId ?? null,
  }));
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Descriptions size="small" bordered column={2}>
        <Descriptions.Item label="抽取编号">{d.code}</Descriptions.Item>
        <Descriptions.Item label="状态">{d.statusLabel}</Descriptions.Item>
        <Descriptions.Item label="项目 / 标段" span={2}>
          {d.projectName} {d.sectionName}
        </Descriptions.Item>
        <Descriptions.Item label="种子承诺 SHA-256" span={2}>
          <Hash value={d.seedHash} testId="verify-seed-hash" />
          {d.committedAt ? <Typography.Text type="secondary">（{d.committedAt} 抽取前公布）</Typography.Text> : null}
        </Descriptions.Item>
        <Descriptions.Item label="专家库快照哈希" span={2}>
          <Hash value={d.poolHash} />
          {d.snapshot ? <Typography.Text type="secondary">（{d.snapshot.experts.length} 人）</Typography.Text> : null}
        </Descriptions.Item>
        <Descriptions.Item label="公开的种子" span={2}>
          {d.seed ? (
            <Hash value={d.seed} testId="verify-seed" />
          ) : (
            <Typography.Text type="secondary">未公开</Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
      {!d.seed ? (
        <Alert type="info" showIcon title={d.hiddenReason ?? '种子尚未公开'} data-testid="verify-hidden" />
      ) : check ? (
        <>
          <Alert
            type={check.problems.length ? 'error' : 'success'}
            showIcon
            data-testid="verify-result"
            title={
              check.problems.length
                ? `验证未通过：${check.problems.join('；')}`
                : `验证通过：本浏览器按公开的种子和快照重新抽取，得到与记录完全一致的名单（${d.members.length} 人次，用时 ${check.ms.toFixed(1)} 毫秒）`
            }
            description={
              <Space wrap>
                <Check ok={check.seedMatches} yes="种子与承诺一致" no="种子与承诺不符" testId="verify-seed-ok" />
                <Check ok={check.poolMatches} yes="快照哈希一致" no="快照哈希不符" testId="verify-pool-ok" />
                <Check ok={check.listMatches} yes="名单一致" no="名单不一致" testId="verify-list-ok" />
                {d.outcome ? (
                  <Typography.Text type="secondary">
                    服务器复核：{d.outcome.problems.length ? d.outcome.problems.join('；') : '一致'}
                  </Typography.Text>
                ) : null}
              </Space>
            }
          />
          <Table<Row>
            size="small"
            rowKey={(r) => `${r.line}-${r.seq}`}
            pagination={false}
            dataSource={rows}
            data-testid="verify-table"
            columns={[
              { title: '序', key: 'seq', width: 60, render: (_, r) => `${r.line + 1}-${r.seq + 1}` },
              { title: '专业', dataIndex: 'specialty', width: 140 },
              { title: '姓名', dataIndex: 'name', width: 90, render: (v: string | null) => v ?? '保密' },
              { title: '答复', dataIndex: 'answer', width: 90 },
              {
                title: '记录的专家编号',
                dataIndex: 'expertId',
                render: (v: string) => (
                  <Typography.Text code style={{ fontSize: 12 }}>
                    {v}
                  </Typography.Text>
                ),
              },
              {
                title: '重新抽取',
                key: 'again',
                width: 110,
                render: (_, r) =>
                  r.recomputedId === r.expertId ? <Tag color="success">一致</Tag> : <Tag color="error">不一致</Tag>,
              },
            ]}
          />
          <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
            算法：每个专业按专家编号排序筛选出符合条件的专家（在库、地区、回避单位、回避专家、近期抽中），以
            HMAC-SHA-256(种子, "ks-expert-draw/v1/line/专业序号/block/计数") 为随机数流做部分 Fisher–Yates
            洗牌，依次取前若干名；专家拒绝时取同一专业洗牌序列的下一名。
          </Typography.Paragraph>
        </>
      ) : null}
    </Space>
  );
}

/**
 * 抽取验证 `/expertExtraction/verify?id=` (public): the committed hash, the revealed seed and the pool snapshot, and
 * the draw re-run in this browser with the same code as the server — the list must come out identical.
 */
export default function VerifyPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const id = params.get('id') ?? '';
  const [input, setInput] = useState(id);
  return (
    <div style={{ maxWidth: 1100, margin: '24px auto', padding: '0 16px' }}>
      <Card
        title="专家抽取验证"
        extra={
          <Space.Compact style={{ width: 460 }}>
            <Input
              placeholder="抽取记录 ID"
              value={input}
              onChange={(e) => setInput(e.target.value.trim())}
              data-testid="verify-id"
            />
            <Button
              type="primary"
              onClick={() => navigate(`${EXTRACTION_VERIFY_PATH}?id=${encodeURIComponent(input)}`)}
            >
              验证
            </Button>
          </Space.Compact>
        }
      >
        {/^[0-9a-f-]{36}$/i.test(id) ? (
          <Verification id={id} />
        ) : (
          <Result status="info" title="请输入抽取记录 ID" subTitle="抽取记录详情页「验证抽取」链接中带有该 ID" />
        )}
      </Card>
    </div>
  );
}
