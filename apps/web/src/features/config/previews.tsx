import type { CardStyle, TableColumn } from '@ks/contracts';
import { Empty, Tag } from 'antd';

/** Previews shared by the card-style page and the style templates: sample values, clearly marked. */

export const SAMPLE_LABEL = '示例数据';

/** A sample value for a field: its label (or code) and the card's number. */
export function sampleValue(key: string, label: string | undefined, n: number): string {
  return `${label || key}示例${n}`;
}

const FONT: Record<string, { fontWeight?: number; fontStyle?: 'italic' }> = {
  bold: { fontWeight: 600 },
  italic: { fontStyle: 'italic' },
  normal: {},
};

/**
 * Cards as a card list shows them with this style, filled with sample values named after the fields (their names
 * from `names`, by code; the code only when the node has no such field).
 */
export function CardPreview({
  style,
  count = 3,
  testId = 'card-preview',
  names,
}: {
  style: Partial<CardStyle> | null | undefined;
  count?: number;
  testId?: string;
  /** field code → field name */
  names?: ReadonlyMap<string, string>;
}) {
  if (!style?.titleKey) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="请先选择标题字段" />;
  }
  const width = style.width ?? '33.3%';
  const contents = (style.contents ?? []).filter((c) => c?.contentKey);
  return (
    <div data-testid={testId}>
      <Tag color="gold" style={{ marginBottom: 8 }}>
        {SAMPLE_LABEL}
      </Tag>
      <div style={{ display: 'flex', flexWrap: 'wrap', margin: -6 }}>
        {Array.from({ length: count }, (_, i) => i + 1).map((n) => (
          <div key={n} style={{ width, padding: 6, boxSizing: 'border-box' }} data-testid="card-preview-item">
            <div
              style={{
                border: '1px solid #e4e8f0',
                borderRadius: 6,
                padding: '12px 14px',
                background: '#fff',
                boxShadow: '0 1px 3px rgba(0, 30, 90, 0.06)',
                minHeight: 80,
              }}
            >
              <div
                style={{ fontSize: 15, fontWeight: 600, color: '#1f2a44', marginBottom: 8 }}
                data-testid="card-preview-title"
              >
                {sampleValue(style.titleKey ?? '', names?.get(style.titleKey ?? ''), n)}
              </div>
              {contents.map((c, i) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: contents may repeat a key while being edited
                  key={`${c.contentKey}-${i}`}
                  style={{
                    fontSize: c.fontSize ?? 14,
                    color: c.color ?? '#303133',
                    lineHeight: 1.7,
                    ...FONT[c.style ?? 'normal'],
                  }}
                  data-testid="card-preview-line"
                >
                  {c.label ? `${c.label}：` : ''}
                  {sampleValue(c.contentKey, c.label || names?.get(c.contentKey), n)}
                </div>
              ))}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}

/** The header of a list with these columns (shown columns only). */
export function ColumnsStrip({ columns }: { columns: TableColumn[] | null | undefined }) {
  const shown = (columns ?? []).filter((c) => c.show);
  if (!shown.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }} data-testid="columns-strip">
      {shown.map((c) => (
        <Tag key={c.code} color={c.isStatus ? 'blue' : undefined} title={`${c.code} · ${c.type} · ${c.listAlignment}`}>
          {c.name}
          {c.width ? ` · ${c.width}px` : ''}
        </Tag>
      ))}
    </div>
  );
}
