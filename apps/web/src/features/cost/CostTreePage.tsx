import { COST_CHECK_LABELS, type CostFinding, type CostTreeRow } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Space, Spin, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { costAchievementQuery, costParseDataQuery } from '../../api/cost';
import { LoadFailure, PageFrame } from '../../components/admin';
import { formatDateTime, formatMoney } from '../../lib/format';
import { COST_INDEX_PATH } from '../../lib/paths';
import { RISK_COLORS } from './risk';
import './cost.css';

const money = (v: number) => formatMoney(v);
const FEES: [keyof CostTreeRow, string][] = [
  ['zzj', '总造价'],
  ['fbfxf', '分部分项工程费'],
  ['csxmf', '措施项目费'],
  ['aqwmsgf', '安全文明施工费'],
  ['qtxmf', '其他项目费'],
  ['gf', '规费'],
  ['sj', '税金'],
  ['zzsxxse', '增值税销项税额'],
];

/** Every node id with children (for 全部展开), and each node's ancestors (to reveal a flagged row). */
function walk(rows: CostTreeRow[]) {
  const parents: string[] = [];
  const up = new Map<string, string[]>();
  const visit = (list: CostTreeRow[], path: string[]) => {
    for (const r of list) {
      up.set(r.id, path);
      if (r.children?.length) {
        parents.push(r.id);
        visit(r.children, [...path, r.id]);
      }
    }
  };
  visit(rows, []);
  return { parents, up };
}

function Tree() {
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const sectionId = params.get('sectionId') ?? '';
  const q = useQuery(costParseDataQuery(id));
  const findings = useQuery(costAchievementQuery(sectionId, sectionId.length > 0));
  const data = q.data;
  const { parents, up } = useMemo(() => walk(data?.tree ?? []), [data]);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [focus, setFocus] = useState<string[]>([]);
  const mine: CostFinding[] = useMemo(() => {
    const b = findings.data?.results.bidders.find((x) => x.fileId === id);
    return b ? b.findings.filter((f) => f.nodeIds.length) : [];
  }, [findings.data, id]);
  if (q.isError) return <LoadFailure error={q.error} what="造价文件" />;
  if (!data) return <Spin />;
  const keys = expanded ?? parents;
  const flagged = new Set([...mine.flatMap((f) => f.nodeIds), ...focus]);
  const columns: TableColumnsType<CostTreeRow> = [
    { title: '序号', dataIndex: 'code', width: 170, fixed: 'left' },
    { title: '工程名称', dataIndex: 'name', width: 220, ellipsis: true },
    { title: '专业', dataIndex: 'zy', width: 110 },
    ...FEES.map(([k, title]) => ({
      title,
      dataIndex: k,
      width: 140,
      align: 'right' as const,
      render: (v: number) => money(v),
    })),
  ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      <Card
        size="small"
        title={`${data.file.enterpriseName} · ${data.file.fileName}`}
        extra={<Link to={`${COST_INDEX_PATH}?sectionId=${data.sectionId}`}>返回检测详情</Link>}
      >
        <Descriptions size="small" column={3}>
          <Descriptions.Item label="编制软件">
            {data.meta.software || '—'} {data.meta.softwareVersion}
          </Descriptions.Item>
          <Descriptions.Item label="软件序列号">{data.meta.serial || '—'}</Descriptions.Item>
          <Descriptions.Item label="机器码">{data.meta.machineCode || '—'}</Descriptions.Item>
          <Descriptions.Item label="创建时间">{data.meta.createdAt || '—'}</Descriptions.Item>
          <Descriptions.Item label="清单条数">{data.file.lineCount}</Descriptions.Item>
          <Descriptions.Item label="上传">
            {formatDateTime(data.file.uploadedAt)} {data.file.uploadedByName}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {mine.length ? (
        <Card size="small" title="检测发现" data-testid="cost-tree-findings">
          {mine.map((f) => (
            <div key={`${f.check}-${f.text}`} style={{ marginBottom: 4 }}>
              <Tag color={RISK_COLORS[f.risk]}>{COST_CHECK_LABELS[f.check]}</Tag>
              <Typography.Link
                onClick={() => {
                  setFocus(f.nodeIds);
                  setExpanded([...new Set([...keys, ...f.nodeIds.flatMap((n) => up.get(n) ?? [])])]);
                }}
              >
                {f.text}
              </Typography.Link>
            </div>
          ))}
        </Card>
      ) : null}
      <Card
        size="small"
        title="造价树"
        extra={
          <Space>
            <Button size="small" onClick={() => setExpanded(parents)} data-testid="cost-tree-expand">
              全部展开
            </Button>
            <Button size="small" onClick={() => setExpanded([])} data-testid="cost-tree-collapse">
              全部收起
            </Button>
          </Space>
        }
      >
        <Table<CostTreeRow>
          size="small"
          rowKey="id"
          virtual
          pagination={false}
          dataSource={data.tree}
          columns={columns}
          scroll={{ x: 1620, y: 600 }}
          expandable={{
            expandedRowKeys: keys,
            onExpandedRowsChange: (k) => setExpanded(k as string[]),
          }}
          rowClassName={(r) => (flagged.has(r.id) ? 'cost-tree-row-flagged' : '')}
          data-testid="cost-tree"
        />
      </Card>
    </Space>
  );
}

/** 造价树 `/fileAnalysis/deatil?id=` (issue 18, screen 6; the spec's spelling): one cost file's tree — 建设项目 → 单项工程 → 单位工程 with its fees — expandable and collapsible, virtualised; with `sectionId`, the detection's findings on this file, each revealing the rows it concerns. */
export default function CostTreePage() {
  return (
    <PageFrame section={{ title: '招标投标' }} title="造价树" wide>
      <Tree />
    </PageFrame>
  );
}
