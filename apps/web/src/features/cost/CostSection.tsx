import { UploadOutlined } from '@ant-design/icons';
import {
  COST_CHECK_LABELS,
  COST_DETECT_MSG,
  COST_DETECTION_STATUS_LABELS,
  COST_RISK_LABELS,
  type CostBidderResult,
  type CostDetection,
  type CostRisk,
  type CostStatus,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Descriptions,
  Empty,
  Modal,
  Popconfirm,
  Progress,
  Space,
  Spin,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  COST_KEY,
  costAchievementQuery,
  costPublicityQuery,
  costScoreQuery,
  costStatusQuery,
  publishCostResults,
  startCostDetection,
  uploadCostFile,
} from '../../api/cost';
import { reportApiError } from '../../api/request';
import { LoadFailure } from '../../components/admin';
import { formatFileSize } from '../../components/upload/format';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useLiveEvent } from '../../lib/live';
import { costPublicityHref, costTreeHref } from '../../lib/paths';
import { PublicitySummary } from './CostPublicity';
import { RISK_COLORS } from './risk';

const active = (d: CostDetection | null) => d?.status === 'queued' || d?.status === 'running';

/** A bidder's cost file: upload or replace (the administrator's; a file that does not parse is refused with its line). */
function UploadButton({
  sectionId,
  enterpriseId,
  replace,
}: {
  sectionId: string;
  enterpriseId: string;
  replace: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const qc = useQueryClient();
  const { message, modal } = App.useApp();
  return (
    <>
      <input
        ref={input}
        type="file"
        accept=".xml,.xlsx,text/xml,application/xml,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        hidden
        data-testid={`cost-file-${enterpriseId}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          setBusy(true);
          uploadCostFile(sectionId, enterpriseId, file)
            .then((s) => {
              qc.setQueryData(costStatusQuery(sectionId).queryKey, s);
              void qc.invalidateQueries({ queryKey: COST_KEY });
              void message.success('上传成功');
            })
            .catch((err: Error) => {
              modal.error({ title: '造价文件未能上传', content: err.message });
            })
            .finally(() => setBusy(false));
        }}
      />
      <Button
        type="link"
        size="small"
        icon={<UploadOutlined />}
        loading={busy}
        onClick={() => input.current?.click()}
        data-testid={`cost-upload-${enterpriseId}`}
      >
        {replace ? '替换' : '上传'}
      </Button>
    </>
  );
}

function DetectionState({ d }: { d: CostDetection }) {
  const percent = Math.round((d.progress / Math.max(1, d.total)) * 100);
  return (
    <div data-testid="cost-detection">
      <Space size="middle" wrap>
        <Tag color={d.status === 'done' ? 'success' : d.status === 'failed' ? 'error' : 'processing'}>
          {COST_DETECTION_STATUS_LABELS[d.status]}
        </Tag>
        <span>
          {d.startedByName} 于 {formatDateTime(d.createdAt)} 发起
          {d.finishedAt ? `，${formatDateTime(d.finishedAt)} 结束` : ''}
        </span>
        {d.stale && d.status === 'done' ? <Tag color="warning">造价文件已变更，结果可能已过时</Tag> : null}
      </Space>
      {active(d) ? (
        <div style={{ marginTop: 8 }}>
          <Progress percent={percent} status="active" data-testid="cost-progress" />
          <Typography.Text type="secondary">
            检测约需 5 分钟：已读取 {Math.min(d.progress, d.total - 1)} / {d.total - 1}{' '}
            份造价文件。可离开本页，稍后回来查看。
          </Typography.Text>
        </div>
      ) : null}
      {d.status === 'failed' ? <Alert type="error" showIcon message={d.error} style={{ marginTop: 8 }} /> : null}
    </div>
  );
}

function Findings({ r, sectionId }: { r: CostBidderResult; sectionId: string }) {
  if (!r.findings.length) return <span style={{ color: 'rgba(0,0,0,0.45)' }}>未发现问题</span>;
  return (
    <ul className="cost-findings" data-testid={`cost-findings-${r.enterpriseId}`}>
      {r.findings.map((f) => (
        <li key={`${f.check}-${f.text}`}>
          <Tag color={RISK_COLORS[f.risk]}>{COST_CHECK_LABELS[f.check]}</Tag>
          {f.text}
          {f.nodeIds.length ? (
            <Link to={costTreeHref(r.fileId, sectionId)} style={{ marginLeft: 8 }}>
              在造价树中查看
            </Link>
          ) : null}
          {f.evidence.length ? (
            <details>
              <summary>证据（{f.evidence.length}）</summary>
              <ul>
                {f.evidence.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            </details>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The pairs' similarity as a heat map: the darker the cell, the more priced lines two bidders share. */
function HeatMap({ sectionId }: { sectionId: string }) {
  const q = useQuery(costScoreQuery(sectionId, true));
  if (!q.data) return q.isPending ? <Spin /> : null;
  const { files, score } = q.data;
  return (
    <table className="cost-heatmap" data-testid="cost-heatmap">
      <thead>
        <tr>
          <th />
          {files.map((f) => (
            <th key={f.id} title={f.enterpriseName}>
              {f.enterpriseName}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {files.map((f, i) => (
          <tr key={f.id}>
            <th title={f.enterpriseName}>{f.enterpriseName}</th>
            {score[i]!.map((v, j) => (
              <td
                key={files[j]!.id}
                data-testid={i === j ? undefined : `cost-score-${i}-${j}`}
                style={{
                  background: i === j ? '#fafafa' : `rgba(245, 34, 45, ${(v / 100) * 0.85})`,
                  color: i !== j && v >= 50 ? '#fff' : undefined,
                }}
                title={i === j ? '' : `${f.enterpriseName} 与 ${files[j]!.enterpriseName}：雷同度 ${v}%`}
              >
                {i === j ? '—' : `${v}%`}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Results({ sectionId }: { sectionId: string }) {
  const q = useQuery(costAchievementQuery(sectionId, true));
  if (q.isPending) return <Spin />;
  if (!q.data) return null;
  const { results } = q.data;
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        检测结果
        {results.medianBid !== null ? (
          <Typography.Text type="secondary" style={{ fontSize: 13, marginLeft: 12, fontWeight: 'normal' }}>
            投标总价中位数 ¥{formatMoney(results.medianBid)}
          </Typography.Text>
        ) : null}
      </Typography.Title>
      <Table<CostBidderResult>
        size="small"
        rowKey="fileId"
        pagination={false}
        dataSource={results.bidders}
        data-testid="cost-results"
        columns={[
          { title: '投标人', dataIndex: 'enterpriseName', width: 200 },
          {
            title: '风险',
            dataIndex: 'risk',
            width: 80,
            render: (v: CostRisk, r) => (
              <Tag color={RISK_COLORS[v]} data-testid={`cost-risk-${r.enterpriseId}`}>
                {COST_RISK_LABELS[v]}
              </Tag>
            ),
          },
          { title: '发现与证据', key: 'findings', render: (_, r) => <Findings r={r} sectionId={sectionId} /> },
        ]}
      />
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        清单报价雷同度
      </Typography.Title>
      <HeatMap sectionId={sectionId} />
    </>
  );
}

/**
 * 公示: the latest finished detection's permitted summary — previewed, then published to the section's bidders (they
 * are told by message), or withdrawn. Results older than the files cannot be published.
 */
function PublicityBar({ sectionId, d, canManage }: { sectionId: string; d: CostDetection; canManage: boolean }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [preview, setPreview] = useState(false);
  const [busy, setBusy] = useState(false);
  const q = useQuery(costPublicityQuery(sectionId, preview));
  const act = (publish: boolean) => {
    setBusy(true);
    return publishCostResults(sectionId, publish)
      .then(() => {
        void message.success(publish ? COST_DETECT_MSG.published : COST_DETECT_MSG.withdrawn);
        setPreview(false);
        void qc.invalidateQueries({ queryKey: COST_KEY });
      })
      .catch(reportApiError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="cost-publicity-bar" data-testid="cost-publicity-bar">
      {d.publishedAt ? (
        <Space wrap>
          <Tag color="blue" data-testid="cost-published">
            已公示
          </Tag>
          <span>{formatDateTime(d.publishedAt)} 起向该标段投标人公示</span>
          <Link to={costPublicityHref(sectionId)}>查看公示</Link>
          {canManage ? (
            <Popconfirm
              title="撤回公示？"
              description="撤回后投标人将不能再查看检测结果摘要。"
              okText="撤回"
              cancelText="取消"
              okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
              onConfirm={() => act(false)}
            >
              <Button size="small" danger loading={busy} data-testid="cost-withdraw">
                撤回公示
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ) : canManage ? (
        <Space wrap>
          <Button size="small" onClick={() => setPreview(true)} data-testid="cost-publish">
            公示检测结果
          </Button>
          <Typography.Text type="secondary">公示前可预览；公示后以消息通知该标段各投标人</Typography.Text>
        </Space>
      ) : null}
      <Modal
        open={preview}
        title="公示检测结果摘要"
        width={960}
        okText="确认公示"
        cancelText="取消"
        onCancel={() => setPreview(false)}
        onOk={() => act(true)}
        confirmLoading={busy}
        okButtonProps={{ disabled: d.stale || !q.data, 'data-testid': 'cost-publish-ok' } as ButtonProps}
        destroyOnHidden
      >
        {d.stale ? (
          <Alert type="warning" showIcon title={COST_DETECT_MSG.staleResults} style={{ marginBottom: 12 }} />
        ) : null}
        {q.data ? (
          <PublicitySummary p={q.data} />
        ) : q.isError ? (
          <Alert type="error" title={q.error.message} />
        ) : (
          <Spin />
        )}
      </Modal>
    </div>
  );
}

/** One section in 文件分析: its bidders' cost files, the detection and its findings. */
export function CostSection({ sectionId }: { sectionId: string }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [running, setRunning] = useState(false);
  const q = useQuery(costStatusQuery(sectionId, running));
  const s: CostStatus | undefined = q.data;
  const d = s?.detection ?? null;
  const was = useRef<string | null>(null);
  useEffect(() => {
    setRunning(active(d));
    // a detection just finished while the page was open
    if (was.current && active({ status: was.current } as CostDetection) && d?.status === 'done') {
      void message.success(COST_DETECT_MSG.done);
      void qc.invalidateQueries({ queryKey: COST_KEY });
    }
    was.current = d?.status ?? null;
  }, [d, message, qc]);
  useLiveEvent('cost', (data) => {
    if ((data as { sectionId?: string }).sectionId === sectionId) void qc.invalidateQueries({ queryKey: COST_KEY });
  });
  if (q.isError && !s) return <LoadFailure error={q.error} what="造价文件" />;
  if (!s) return <Spin />;
  const byEnterprise = new Map(s.files.map((f) => [f.enterpriseId, f]));
  return (
    <div data-testid="cost-section">
      <Descriptions size="small" column={2} bordered>
        <Descriptions.Item label="项目">{s.section.projectName}</Descriptions.Item>
        <Descriptions.Item label="标段">
          {s.section.code} {s.section.name}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        投标人造价文件
      </Typography.Title>
      <Table
        size="small"
        rowKey="enterpriseId"
        pagination={false}
        dataSource={s.bidders}
        locale={{ emptyText: <Empty description="该标段暂无投标人" /> }}
        data-testid="cost-files"
        columns={[
          { title: '投标人', dataIndex: 'name', width: 200 },
          {
            title: '造价文件',
            key: 'file',
            render: (_, b) => {
              const f = byEnterprise.get(b.enterpriseId);
              return f ? (
                <span data-testid={`cost-has-file-${b.enterpriseId}`}>
                  {f.fileName}
                  <Typography.Text type="secondary" style={{ marginLeft: 6 }}>
                    {formatFileSize(f.size)}，{f.lineCount} 条清单
                  </Typography.Text>
                </span>
              ) : (
                <Typography.Text type="secondary">未上传</Typography.Text>
              );
            },
          },
          {
            title: '投标总价（元）',
            key: 'price',
            width: 150,
            align: 'right',
            render: (_, b) => {
              const p = byEnterprise.get(b.enterpriseId)?.bidPrice;
              return p === null || p === undefined ? '—' : formatMoney(p);
            },
          },
          {
            title: '上传',
            key: 'at',
            width: 150,
            render: (_, b) => {
              const f = byEnterprise.get(b.enterpriseId);
              return f ? `${formatDateTime(f.uploadedAt)} ${f.uploadedByName}` : '—';
            },
          },
          {
            title: '操作',
            key: 'ops',
            width: 150,
            render: (_, b) => {
              const f = byEnterprise.get(b.enterpriseId);
              return (
                <Space size={0}>
                  {f ? <Link to={costTreeHref(f.id, sectionId)}>造价树</Link> : null}
                  {s.canManage && !active(d) ? (
                    <UploadButton sectionId={sectionId} enterpriseId={b.enterpriseId} replace={Boolean(f)} />
                  ) : null}
                </Space>
              );
            },
          },
        ]}
      />
      <div style={{ margin: '16px 0 8px', display: 'flex', alignItems: 'center', gap: 12 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          造价文件检测
        </Typography.Title>
        {s.canManage ? (
          <Popconfirm
            title="开始检测？"
            description="检测约需 5 分钟，期间可离开本页；完成后在此查看结果。"
            okText="开始检测"
            cancelText="取消"
            okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
            disabled={s.files.length < 2 || active(d)}
            onConfirm={() =>
              startCostDetection(sectionId)
                .then((next) => {
                  qc.setQueryData(costStatusQuery(sectionId).queryKey, next);
                  setRunning(true);
                  void message.success(COST_DETECT_MSG.started);
                })
                .catch(reportApiError)
            }
          >
            <Button type="primary" size="small" disabled={s.files.length < 2 || active(d)} data-testid="cost-start">
              {d ? '重新检测' : '开始检测'}
            </Button>
          </Popconfirm>
        ) : null}
        {s.files.length < 2 ? <Typography.Text type="secondary">{COST_DETECT_MSG.tooFew}</Typography.Text> : null}
      </div>
      {d ? <DetectionState d={d} /> : <Typography.Text type="secondary">该标段尚未检测</Typography.Text>}
      {d?.status === 'done' ? <PublicityBar sectionId={sectionId} d={d} canManage={s.canManage} /> : null}
      {d?.status === 'done' ? <Results sectionId={sectionId} /> : null}
    </div>
  );
}
