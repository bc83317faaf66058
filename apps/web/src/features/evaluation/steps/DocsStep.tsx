import { EyeOutlined } from '@ant-design/icons';
import { EVAL_MSG, type EvalBid, type EvalRoom } from '@ks/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Space, Table } from 'antd';
import { saveBlob } from '../../../api/engine';
import { fetchEvalDocument } from '../../../api/evaluation';
import { formatMoney } from '../../../lib/format';
import { ClarifyCard } from '../clarify';

/**
 * Shows a decrypted bid file: in a new tab where the browser can show it (PDF, images, text) and allows the tab,
 * otherwise as a download.
 */
async function openDocument(sectionId: string, bid: EvalBid): Promise<void> {
  const result = await fetchEvalDocument(sectionId, bid.bidId);
  const viewable = /^(application\/pdf|image\/|text\/plain)/.test(result.blob.type);
  if (viewable && typeof URL.createObjectURL === 'function') {
    const url = URL.createObjectURL(result.blob);
    // without 'noopener' (which makes open() answer null) to learn whether a blocker refused the tab; cut the link after
    const tab = window.open(url, '_blank');
    if (tab) {
      tab.opener = null;
      // the tab keeps the document; the address is freed once it had time to load
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return;
    }
    URL.revokeObjectURL(url);
  }
  saveBlob(result, bid.fileName);
}

/** What keeps the bids from a member, or null when nothing does. */
function whyHidden(room: EvalRoom): string | null {
  const me = room.me;
  if (!me) return room.bids.length ? null : '评标开始后可查看投标文件';
  if (me.recused) return EVAL_MSG.recused;
  if (!me.declaredAt) return `${EVAL_MSG.mustDeclare}，并签到后查看投标文件`;
  if (!me.panels.some((p) => me.signins[p])) return '请先签到所在评审组，签到后可查看投标文件';
  return null;
}

/**
 * 投标文件: the bids under evaluation (to a member only after the declaration and sign-in), each file read-only; below
 * them the committee's requests for clarification (评标澄清).
 */
export function DocsStep({ room }: { room: EvalRoom }) {
  const view = useMutation({ mutationFn: (bid: EvalBid) => openDocument(room.section.id, bid) });
  const hidden = whyHidden(room);
  return (
    <>
      <Card size="small" title="投标文件" data-testid="eval-step-docs">
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {hidden && room.bids.length === 0 && (
            <Alert type="info" showIcon title={hidden} data-testid="eval-bids-hidden" />
          )}
          <Table<EvalBid>
            rowKey="bidId"
            size="small"
            bordered
            pagination={false}
            dataSource={[...room.bids].sort((a, b) => a.readOrder - b.readOrder)}
            scroll={{ x: 1100 }}
            data-testid="eval-bids"
            locale={{ emptyText: '没有可查看的投标文件' }}
            onRow={(b) => ({ 'data-testid': `eval-bid-row-${b.bidId}` }) as object}
            columns={[
              { title: '唱标顺序', dataIndex: 'readOrder', width: 80, align: 'center' },
              { title: '投标人', dataIndex: 'enterpriseName', width: 220 },
              {
                title: '投标报价（元）',
                dataIndex: 'price',
                width: 150,
                align: 'right',
                render: (v: number) => <span className="eval-num">{formatMoney(v)}</span>,
              },
              {
                title: '工期（日历天）',
                dataIndex: 'durationDays',
                width: 110,
                align: 'right',
                render: (v: number | null) => v ?? '—',
              },
              { title: '质量标准', dataIndex: 'quality', width: 100, render: (v: string | null) => v ?? '—' },
              { title: '项目经理', dataIndex: 'manager', width: 100, render: (v: string | null) => v ?? '—' },
              { title: '投标文件', dataIndex: 'fileName', ellipsis: true },
              {
                title: '操作',
                key: 'ops',
                width: 80,
                fixed: 'right',
                render: (_, b) => (
                  <Button
                    type="link"
                    size="small"
                    icon={<EyeOutlined />}
                    loading={view.isPending && view.variables?.bidId === b.bidId}
                    onClick={() => view.mutate(b)}
                    data-testid={`eval-doc-${b.bidId}`}
                  >
                    查看
                  </Button>
                ),
              },
            ]}
          />
        </Space>
      </Card>
      {room.bids.length > 0 && <ClarifyCard room={room} />}
    </>
  );
}
