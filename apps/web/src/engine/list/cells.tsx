import { CheckCircleFilled, ClockCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { Operation, TableColumn } from '@ks/contracts';
import { Popover, Steps, Switch, Tag } from 'antd';
import type { ReactNode, RefObject } from 'react';
import { CHANGE_STATUS } from './constants';
import { LinkButton } from './LinkButton';
import { OperationButtons } from './OperationButtons';

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

function AuditFlowCell({ steps }: { steps: AuditStep[] }) {
  if (!steps.length) return DASH;
  const last = steps[steps.length - 1];
  const tone = toneOf(last.result ?? '');
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
      trigger={['hover', 'click']}
      title="审核流程"
      content={
        <div style={{ maxWidth: 360 }} data-testid="audit-flow-steps">
          <Steps orientation="vertical" size="small" current={steps.length - 1} items={items} />
        </div>
      }
    >
      <Tag
        color={tone === 'pass' ? 'success' : tone === 'reject' ? 'error' : 'processing'}
        style={{ cursor: 'pointer' }}
        data-testid="audit-flow"
      >
        {last.name ? `${last.name} ` : ''}
        {last.result ?? ''}
      </Tag>
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
        return text ? (
          <Tag color={row.statusColor || undefined} data-testid="status-tag">
            {text}
          </Tag>
        ) : (
          DASH
        );
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
        cellText(value) ? (
          <LinkButton
            testId={`preview-${code}`}
            style={{ padding: 0 }}
            onClick={() => handlers.current?.onPreview?.(row, code)}
          >
            查看
          </LinkButton>
        ) : (
          DASH
        );
    case 'download':
      return (value, row) =>
        cellText(value) ? (
          <LinkButton
            testId={`download-${code}`}
            style={{ padding: 0 }}
            onClick={() => handlers.current?.onDownload?.(row, code)}
          >
            下载
          </LinkButton>
        ) : (
          DASH
        );
    case 'link':
      return (value, row) => {
        const text = cellText(value);
        return text ? (
          <LinkButton
            testId={`link-${code}`}
            style={{ padding: 0, whiteSpace: 'normal' }}
            onClick={() => handlers.current?.onLink?.(row, code)}
          >
            {text}
          </LinkButton>
        ) : (
          DASH
        );
      };
    case 'auditFlow':
      return (value) => <AuditFlowCell steps={Array.isArray(value) ? (value as AuditStep[]) : []} />;
    case 'changeStatus':
      return (value) => {
        const s = CHANGE_STATUS[String(value ?? '')];
        return s ? (
          <Tag color={s.color} data-testid="change-status">
            {s.text}
          </Tag>
        ) : (
          DASH
        );
      };
    case 'dui':
      return (value) =>
        isTruthy(value) ? (
          <span data-testid="dui-yes" role="img" aria-label="是" style={{ color: '#67C23A', fontWeight: 600 }}>
            ✓
          </span>
        ) : (
          <span data-testid="dui-no" role="img" aria-label="否" style={{ color: '#F56C6C', fontWeight: 600 }}>
            ✗
          </span>
        );
    case 'switch':
      return (value) => (
        <Switch size="small" checked={isSwitchOn(value)} disabled aria-label={column.name} data-testid="cell-switch" />
      );
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
          return text ? (
            <Tag color={row.statusColor || undefined} data-testid="status-tag">
              {text}
            </Tag>
          ) : (
            DASH
          );
        };
      }
      return (value) => cellText(value);
  }
}
