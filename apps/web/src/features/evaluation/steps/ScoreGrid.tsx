import { FormOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import {
  EVAL_MSG,
  type EvalBid,
  type EvalPanel,
  type EvalRoom,
  type EvalSave,
  type QualificationItem,
  round2,
} from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, type ButtonProps, Input, InputNumber, Radio, Space, Table, Tag, Typography } from 'antd';
import { type ReactNode, useRef, useState } from 'react';
import { evalRoomKey, evalSave, evalSubmit, type FlaggedCell, flaggedCellsOf, setRoom } from '../../../api/evaluation';
import { isApiError, reportApiError } from '../../../api/request';
import { formatSeconds, panelLabel } from '../parts';

/**
 * One member's grid of a panel: the bids × the panel's items. Qualification (ZS) is 合格 / 不合格 per cell, with a
 * reason required for 不合格; technical and business (JS / SW) are scores from 0 to the item's highest, in steps of 0.5
 * with two decimals. Every cell may carry a reason (the small icon opens it). 保存 sends this panel's cells only;
 * 提交 checks the grid is complete, asks, saves and submits — a score too far from the committee's median comes back
 * as the server's message with its cells, which are highlighted for their written reason. Submitted, it is read-only.
 */

type Item = QualificationItem & { max?: number };

interface Cell {
  score: number | null;
  pass: boolean | null;
  reason: string;
}

const keyOf = (bidId: string, itemId: string) => `${bidId}|${itemId}`;
const EMPTY: Cell = { score: null, pass: null, reason: '' };

export function itemsOf(room: EvalRoom, panel: EvalPanel): Item[] {
  const c = room.criteria;
  if (!c) return [];
  if (panel === 'ZS') return c.qualification;
  return panel === 'JS' ? c.technical : c.business;
}

const sortedBids = (room: EvalRoom) => [...room.bids].sort((a, b) => a.readOrder - b.readOrder);

function initialCells(room: EvalRoom, items: Item[]): Record<string, Cell> {
  const ids = new Set(items.map((i) => i.id));
  const out: Record<string, Cell> = {};
  for (const s of room.myScores) {
    if (!ids.has(s.itemId)) continue;
    out[keyOf(s.bidId, s.itemId)] = { score: s.score, pass: s.pass, reason: s.reason ?? '' };
  }
  return out;
}

const filled = (panel: EvalPanel, c: Cell | undefined) =>
  Boolean(c) && (panel === 'ZS' ? c?.pass !== null && c?.pass !== undefined : typeof c?.score === 'number');

/** The total of a bid's scores in the grid. */
const totalOf = (cells: Record<string, Cell>, bidId: string, items: Item[]) =>
  round2(items.reduce((a, it) => a + (cells[keyOf(bidId, it.id)]?.score ?? 0), 0));

/** A cell's shown value (read-only). */
function ValueText({ panel, cell }: { panel: EvalPanel; cell: Cell | undefined }) {
  if (!cell || !filled(panel, cell)) return <Typography.Text type="secondary">未评</Typography.Text>;
  if (panel === 'ZS') return cell.pass ? <Tag color="success">合格</Tag> : <Tag color="error">不合格</Tag>;
  return <span className="eval-num">{cell.score?.toFixed(2)}</span>;
}

export function ScoreGrid({
  room,
  panel,
  readOnly,
  submittedAt,
}: {
  room: EvalRoom;
  panel: EvalPanel;
  readOnly: boolean;
  submittedAt?: string | null;
}) {
  const items = itemsOf(room, panel);
  const bids = sortedBids(room);
  const sectionId = room.section.id;
  const qc = useQueryClient();
  const { message, modal } = App.useApp();
  const [cells, setCells] = useState<Record<string, Cell>>(() => initialCells(room, items));
  /** the cells the server holds a value of (so that one cleared here is sent, as null) */
  const saved = useRef<Set<string> | null>(null);
  saved.current ??= new Set(Object.keys(cells));
  const [openReasons, setOpenReasons] = useState<Set<string>>(() => new Set());
  const [problems, setProblems] = useState<{ title: string; lines: string[]; keys: Set<string> } | null>(null);
  const [flagged, setFlagged] = useState<Map<string, FlaggedCell>>(() => new Map());
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);

  const update = (k: string, patch: Partial<Cell>) =>
    setCells((prev) => ({ ...prev, [k]: { ...(prev[k] ?? EMPTY), ...patch } }));
  const nameOfBid = (bidId: string) => bids.find((b) => b.bidId === bidId)?.enterpriseName ?? bidId;

  /** This panel's cells that hold something, and those saved before (so a cleared one is cleared on the server). */
  const payload = (): EvalSave['scores'] => {
    const out: EvalSave['scores'] = [];
    for (const b of bids) {
      for (const it of items) {
        const k = keyOf(b.bidId, it.id);
        const c = cells[k];
        const reason = c?.reason.trim() ?? '';
        if (!saved.current?.has(k) && !filled(panel, c) && !reason) continue;
        out.push(
          panel === 'ZS'
            ? { bidId: b.bidId, itemId: it.id, pass: c?.pass ?? null, reason }
            : { bidId: b.bidId, itemId: it.id, score: c?.score ?? null, reason },
        );
      }
    }
    return out;
  };

  const save = async (quiet: boolean) => {
    const scores = payload();
    if (scores.length === 0) {
      if (!quiet) void message.warning('没有要保存的评分');
      return true;
    }
    try {
      setRoom(qc, await evalSave({ sectionId, panel, scores }));
      for (const s of scores) saved.current?.add(keyOf(s.bidId, s.itemId));
      if (!quiet) void message.success('评分已保存');
      return true;
    } catch {
      void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) });
      return false;
    }
  };

  const onSave = async () => {
    setBusy('save');
    setProblems(null);
    try {
      await save(false);
    } finally {
      setBusy(null);
    }
  };

  /** What keeps the grid from being submitted, found here before asking the server. */
  const check = (): { title: string; lines: string[]; keys: Set<string> } | null => {
    const missing = new Set<string>();
    const lines: string[] = [];
    for (const b of bids) {
      for (const it of items) {
        const k = keyOf(b.bidId, it.id);
        const c = cells[k];
        if (!filled(panel, c)) missing.add(k);
        else if (panel === 'ZS' && c?.pass === false && !c.reason.trim()) {
          missing.add(k);
          lines.push(EVAL_MSG.failNeedsReason(b.enterpriseName, it.name));
        }
      }
    }
    if (missing.size === 0) return null;
    const blank = [...missing].filter((k) => !filled(panel, cells[k])).length;
    return {
      title: blank ? EVAL_MSG.incomplete(blank) : (lines[0] ?? ''),
      lines: blank ? lines : lines.slice(1),
      keys: missing,
    };
  };

  const submit = async () => {
    setBusy('submit');
    try {
      if (!(await save(true))) return;
      const room2 = await evalSubmit(sectionId, panel);
      setRoom(qc, room2);
      void message.success(`${panelLabel(panel)}评审结果已提交`);
    } catch (err) {
      const cellsOf = flaggedCellsOf(err);
      if (isApiError(err) && (cellsOf.length > 0 || err.message.startsWith(EVAL_MSG.deviation))) {
        setFlagged(new Map(cellsOf.map((c) => [keyOf(c.bidId, c.itemId), c])));
        setOpenReasons((prev) => new Set([...prev, ...cellsOf.map((c) => keyOf(c.bidId, c.itemId))]));
        // the server's message, verbatim; the cells listed below it unless the message names them already
        const named = err.message.length > EVAL_MSG.deviation.length;
        setProblems({
          title: err.message,
          lines: named
            ? []
            : cellsOf.map((c) => {
                const item = c.itemName ?? items.find((i) => i.id === c.itemId)?.name ?? c.itemId;
                const extra =
                  typeof c.score === 'number' && typeof c.median === 'number'
                    ? `：您评 ${c.score} 分，中位数 ${c.median} 分`
                    : '';
                return `${c.enterpriseName ?? nameOfBid(c.bidId)}「${item}」${extra}`;
              }),
          keys: new Set(),
        });
      } else if (isApiError(err)) {
        reportApiError(err);
      }
      void qc.invalidateQueries({ queryKey: evalRoomKey(sectionId) });
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = () => {
    const found = check();
    setProblems(found);
    if (found) return;
    modal.confirm({
      title: `提交${panelLabel(panel)}评审结果`,
      content: '提交后不能修改，如需修改须由评标委员会组长退回。确定提交？',
      okText: '提交',
      cancelText: '取消',
      okButtonProps: { 'data-testid': 'confirm-ok' } as ButtonProps,
      onOk: () => submit(),
    });
  };

  const cellView = (bid: EvalBid, it: Item): ReactNode => {
    const k = keyOf(bid.bidId, it.id);
    const c = cells[k];
    const flag = flagged.get(k);
    const failing = panel === 'ZS' && c?.pass === false;
    const showReason = openReasons.has(k) || Boolean(c?.reason) || Boolean(flag) || failing;
    const label = `${bid.enterpriseName} ${it.name}`;
    if (readOnly) {
      return (
        <div data-testid={`eval-cell-${bid.bidId}-${it.id}`}>
          <ValueText panel={panel} cell={c} />
          {c?.reason && <div className="eval-cell-reason">理由：{c.reason}</div>}
        </div>
      );
    }
    return (
      <div data-testid={`eval-cell-${bid.bidId}-${it.id}`}>
        <Space size={2} align="center">
          {panel === 'ZS' ? (
            <Radio.Group
              size="small"
              optionType="button"
              value={c?.pass ?? null}
              onChange={(e) => update(k, { pass: e.target.value as boolean })}
              options={[
                { value: true, label: '合格' },
                { value: false, label: '不合格' },
              ]}
              aria-label={label}
            />
          ) : (
            <InputNumber<number>
              size="small"
              min={0}
              max={it.max ?? 100}
              step={0.5}
              precision={2}
              style={{ width: 84 }}
              value={c?.score ?? null}
              onChange={(v) => update(k, { score: typeof v === 'number' ? v : null })}
              aria-label={label}
              data-testid={`eval-score-${bid.bidId}-${it.id}`}
            />
          )}
          <Button
            type="text"
            size="small"
            icon={<FormOutlined />}
            aria-label={`${label} 理由`}
            title="填写理由"
            className={c?.reason ? 'eval-reason-on' : undefined}
            onClick={() =>
              setOpenReasons((prev) => {
                const next = new Set(prev);
                if (next.has(k)) next.delete(k);
                else next.add(k);
                return next;
              })
            }
            data-testid={`eval-reason-toggle-${bid.bidId}-${it.id}`}
          />
        </Space>
        {showReason && (
          <Input.TextArea
            size="small"
            autoSize={{ minRows: 1, maxRows: 4 }}
            maxLength={500}
            status={(failing || flag) && !c?.reason.trim() ? 'error' : undefined}
            placeholder={failing ? '不合格理由（必填）' : flag ? '偏离理由（必填）' : '理由（选填）'}
            value={c?.reason ?? ''}
            onChange={(e) => update(k, { reason: e.target.value })}
            aria-label={`${label} 理由`}
            className="eval-cell-reason-input"
            data-testid={`eval-reason-${bid.bidId}-${it.id}`}
          />
        )}
      </div>
    );
  };

  const cellClass = (bid: EvalBid, it: Item) => {
    const k = keyOf(bid.bidId, it.id);
    if (flagged.has(k)) return 'eval-cell-flagged';
    if (problems?.keys.has(k)) return 'eval-cell-missing';
    return '';
  };

  const scored = panel !== 'ZS';
  return (
    <Space orientation="vertical" size={8} style={{ width: '100%' }} data-testid={`eval-grid-${panel}`}>
      {readOnly && submittedAt && (
        <Alert
          type="success"
          showIcon
          title={`已提交（${formatSeconds(submittedAt)}），评审结果已锁定；如需修改须由组长退回`}
          data-testid={`eval-submitted-${panel}`}
        />
      )}
      {problems && (
        <Alert
          type="error"
          showIcon
          title={problems.title}
          description={problems.lines.length ? problems.lines.map((l) => <div key={l}>{l}</div>) : undefined}
          data-testid={`eval-grid-error-${panel}`}
        />
      )}
      <Table<EvalBid>
        rowKey="bidId"
        size="small"
        bordered
        pagination={false}
        dataSource={bids}
        scroll={{ x: 220 + items.length * 170 + (scored ? 90 : 0) }}
        className="eval-grid"
        locale={{ emptyText: '没有可评审的投标文件' }}
        onRow={(b) => ({ 'data-testid': `eval-grid-row-${panel}-${b.bidId}` }) as object}
        columns={[
          { title: '投标人', dataIndex: 'enterpriseName', width: 200, fixed: 'left' },
          ...items.map((it) => ({
            title: (
              <span title={it.name}>
                {it.name}
                {scored && <span className="eval-item-max">（{it.max} 分）</span>}
              </span>
            ),
            key: it.id,
            width: 170,
            onCell: (b: EvalBid) => ({ className: cellClass(b, it) }),
            render: (_: unknown, b: EvalBid) => cellView(b, it),
          })),
          ...(scored
            ? [
                {
                  title: '合计',
                  key: 'total',
                  width: 90,
                  align: 'right' as const,
                  fixed: 'right' as const,
                  render: (_: unknown, b: EvalBid) => (
                    <span className="eval-num" data-testid={`eval-total-${panel}-${b.bidId}`}>
                      {totalOf(cells, b.bidId, items).toFixed(2)}
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
      {!readOnly && (
        <Space>
          <Button
            icon={<SaveOutlined />}
            loading={busy === 'save'}
            disabled={busy !== null}
            onClick={() => void onSave()}
            data-testid={`eval-save-${panel}`}
          >
            保存
          </Button>
          <Button
            type="primary"
            icon={<SendOutlined />}
            loading={busy === 'submit'}
            disabled={busy !== null}
            onClick={onSubmit}
            data-testid={`eval-submit-${panel}`}
          >
            提交
          </Button>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            保存只保存本组评分；提交后不能修改。
          </Typography.Text>
        </Space>
      )}
    </Space>
  );
}
