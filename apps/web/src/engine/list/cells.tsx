import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { Operation, TableColumn } from '@ks/contracts';
import { Popover, Steps } from 'antd';
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from 'react';
import { CHANGE_STATUS } from './constants';
import { OperationButtons } from './OperationButtons';
import './cells.css';

/** A list row: the record's values by column code, with the server's row extras (§3 Row). */
export type TableRow = Record<string, unknown> & {
  statusColor?: string;
  auditColor?: string;
  operations?: Operation[];
};

/** One step of a row's audit history (the auditFlow column). */
export interface AuditStep {
  level?: number | string;
  name?: string;
  result?: string;
  suggestion?: string | null;
  time?: string;
  userName?: string;
}

export interface CellHandlers<Row> {
  onPreview?: (row: Row, code: string) => void;
  onDownload?: (row: Row, code: string) => void;
  onLink?: (row: Row, code: string) => void;
  onOperation?: (code: string, row: Row) => void;
}

/** The text of a value: '' for null and undefined, lists joined with ;. */
export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(cellText).filter(Boolean).join(';');
  if (typeof value === 'object') return '';
  return String(value);
}

const FALSY_TEXT = new Set(['', '0', 'false', '否', 'n', 'N']);
/** ✓ / ✗ of a dui column: JavaScript truthiness, with '0', 'false', '否', 'N' and blank text counting as false. */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'string') return !FALSY_TEXT.has(value.trim());
  return Boolean(value);
}

/** A switch column's value: 1 (or true) is on, anything else off (§5: switches use 1 and 0). */
export function isSwitchOn(value: unknown): boolean {
  return value === true || String(value) === '1';
}

type Tone = 'pass' | 'reject' | 'pending';
/** The tone of a status or audit result text. */
export function toneOf(text: string): Tone {
  if (/驳回|不通过|拒绝|失败|退回|reject|fail/i.test(text)) return 'reject';
  if (/通过|完成|成功|同意|pass|success|done/i.test(text)) return 'pass';
  return 'pending';
}

const DASH = <span style={{ color: '#c0c4cc' }}>-</span>;

/**
 * A link-style action inside a cell (查看, 下载, a record link): an inline element with the button role, so its text
 * flows and wraps with the cell's (a native button is an atomic box laid out on its own, costly by the thousand).
 * Enter and Space press it; clicks do not reach the row. A plain function (no component per cell).
 */
export function cellLink({ children, onClick, testId }: { children: ReactNode; onClick: () => void; testId?: string }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: inline text that wraps with the cell, announced and used as a button
    <span
      role="button"
      tabIndex={0}
      className="ks-cell-link"
      data-testid={testId}
      onClick={(e) => {
        e.stopPropagation();
        onClick();
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        e.stopPropagation();
        onClick();
      }}
    >
      {children}
    </span>
  );
}

/** antd's Tag presets: the status colours and the palette names; any other value is a CSS colour. */
const TAG_PRESETS = new Set([
  'default',
  'success',
  'processing',
  'error',
  'warning',
  'magenta',
  'red',
  'volcano',
  'orange',
  'gold',
  'lime',
  'green',
  'cyan',
  'blue',
  'geekblue',
  'purple',
]);

/** The class and style of a tag of a colour: an antd preset by its name, else the CSS colour itself. */
export function tagLook(color: string | undefined | null): { className: string; style?: CSSProperties } {
  if (!color || color === 'default') return { className: 'ks-tag' };
  if (TAG_PRESETS.has(color)) return { className: `ks-tag ks-tag-${color}` };
  return { className: 'ks-tag ks-tag-custom', style: { '--ks-tag-color': color } as CSSProperties };
}

/** A tag like antd's (filled, the same colours) as a plain span, made by a function: cheap enough for every cell. */
export function lightTag({ color, children, testId }: { color?: string | null; children: ReactNode; testId?: string }) {
  const { className, style } = tagLook(color);
  return (
    <span className={className} style={style} data-testid={testId}>
      {children}
    </span>
  );
}

function AuditFlowCell({ steps }: { steps: AuditStep[] }) {
  // the popover (an antd one per cell) is mounted at the first hover, click or key press, not with the page
  const [open, setOpen] = useState<boolean | null>(null);
  const byKey = useRef(false);
  const tagRef = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (open && byKey.current) {
      byKey.current = false;
      tagRef.current?.focus();
    }
  }, [open]);
  if (!steps.length) return DASH;
  const last = steps[steps.length - 1];
  const tone = toneOf(last.result ?? '');
  const look = tagLook(tone === 'pass' ? 'success' : tone === 'reject' ? 'error' : 'processing');
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && open) setOpen(false);
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    byKey.current = open === null;
    setOpen(!open);
  };
  const tag = (
    // biome-ignore lint/a11y/useSemanticElements: a tag that opens the steps, inline in the cell like antd's Tag
    <span
      ref={tagRef}
      className={`${look.className} ks-tag-clickable`}
      role="button"
      tabIndex={0}
      aria-expanded={Boolean(open)}
      data-testid="audit-flow"
      onMouseEnter={open === null ? () => setOpen(true) : undefined}
      onClick={open === null ? () => setOpen(true) : undefined}
      onKeyDown={onKeyDown}
    >
      {last.name ? `${last.name} ` : ''}
      {last.result ?? ''}
    </span>
  );
  if (open === null) return tag;
  const items = steps.map((s) => {
    const t = toneOf(s.result ?? '');
    return {
      title: `${s.name ?? (s.level !== undefined ? `第${s.level}级` : '')} ${s.result ?? ''}`.trim(),
      status: t === 'pass' ? ('finish' as const) : t === 'reject' ? ('error' as const) : ('process' as const),
      content: (
        <div style={{ fontSize: 12, color: '#606266' }}>
          {[s.userName, s.time].filter(Boolean).join(' ')}
          {s.suggestion ? <div>审核建议：{s.suggestion}</div> : null}
        </div>
      ),
    };
  });
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger={['hover', 'click']}
      title="审核流程"
      content={
        <div style={{ maxWidth: 360 }} data-testid="audit-flow-steps">
          <Steps orientation="vertical" size="small" current={steps.length - 1} items={items} />
        </div>
      }
    >
      {tag}
    </Popover>
  );
}

function StatusIconCell({ text, color }: { text: string; color?: string }) {
  const tone = toneOf(text);
  const Icon = tone === 'pass' ? CheckCircleFilled : tone === 'reject' ? CloseCircleFilled : ClockCircleFilled;
  const fallback = tone === 'pass' ? '#67C23A' : tone === 'reject' ? '#F56C6C' : '#E6A23C';
  return (
    <span data-testid="status-icon" style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}>
      <Icon style={{ color: color || fallback }} />
      {text}
    </span>
  );
}

type Renderer<Row> = (value: unknown, row: Row, index: number) => ReactNode;

/**
 * The cell renderer of a column type (§3). Handlers come through a ref so renderers stay the same while a page
 * re-renders with new callbacks: a table's columns are built once per column list.
 */
export function cellRenderer<Row extends TableRow>(
  column: Pick<TableColumn, 'code' | 'type' | 'isStatus' | 'name'>,
  handlers: RefObject<CellHandlers<Row>>,
): Renderer<Row> {
  const { code } = column;
  switch (column.type) {
    case 'status':
      return (value, row) => {
        const text = cellText(value);
        return text ? lightTag({ color: row.statusColor, testId: 'status-tag', children: text }) : DASH;
      };
    case 'statusIcon':
      return (value, row) => {
        const text = cellText(value);
        return text ? <StatusIconCell text={text} color={row.statusColor} /> : DASH;
      };
    case 'state':
      return (value, row) => (
        <span data-testid="state-text" style={{ color: row.auditColor || undefined }}>
          {cellText(value)}
        </span>
      );
    case 'preview':
      return (value, row) =>
        cellText(value)
          ? cellLink({
              testId: `preview-${code}`,
              onClick: () => handlers.current?.onPreview?.(row, code),
              children: '查看',
            })
          : DASH;
    case 'download':
      return (value, row) =>
        cellText(value)
          ? cellLink({
              testId: `download-${code}`,
              onClick: () => handlers.current?.onDownload?.(row, code),
              children: '下载',
            })
          : DASH;
    case 'link':
      return (value, row) => {
        const text = cellText(value);
        return text
          ? cellLink({ testId: `link-${code}`, onClick: () => handlers.current?.onLink?.(row, code), children: text })
          : DASH;
      };
    case 'auditFlow':
      return (value) => <AuditFlowCell steps={Array.isArray(value) ? (value as AuditStep[]) : []} />;
    case 'changeStatus':
      return (value) => {
        const s = CHANGE_STATUS[String(value ?? '')];
        return s ? lightTag({ color: s.color, testId: 'change-status', children: s.text }) : DASH;
      };
    case 'dui':
      return (value) =>
        isTruthy(value) ? (
          <span data-testid="dui-yes" role="img" aria-label="是" className="ks-dui ks-dui-yes">
            ✓
          </span>
        ) : (
          <span data-testid="dui-no" role="img" aria-label="否" className="ks-dui ks-dui-no">
            ✗
          </span>
        );
    case 'switch':
      return (value) => {
        const on = isSwitchOn(value);
        // read-only, like antd's small disabled Switch
        return (
          <button
            type="button"
            role="switch"
            aria-checked={on}
            aria-label={column.name}
            disabled
            className={on ? 'ks-switch ks-switch-on' : 'ks-switch'}
            data-testid="cell-switch"
          >
            <span className="ks-switch-handle" />
          </button>
        );
      };
    case 'operations': {
      const onOperation = (c: string, r: Row) => handlers.current?.onOperation?.(c, r);
      return (value, row) => (
        <OperationButtons
          operations={Array.isArray(value) ? (value as Operation[]) : row.operations}
          row={row}
          onOperation={onOperation}
        />
      );
    }
    default:
      if (column.isStatus) {
        return (value, row) => {
          const text = cellText(value);
          return text ? lightTag({ color: row.statusColor, testId: 'status-tag', children: text }) : DASH;
        };
      }
      return (value) => cellText(value);
  }
}
