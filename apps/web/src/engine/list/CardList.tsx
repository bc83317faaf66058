import { PaperClipOutlined } from '@ant-design/icons';
import type { CardStyle, Operation } from '@ks/contracts';
import { Button, Popover, Spin, Tag, Tooltip } from 'antd';
import { type CSSProperties, type Key, memo, type ReactNode, useEffect, useRef, useState } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { cellText } from './cells';
import { annexLimit, CARD_DEBOUNCE_MS, NO_ANNEX_TIP_MS, TEXTS } from './constants';
import { useDebouncedCallback, useLatest } from './hooks';
import { OperationButtons } from './OperationButtons';

/** An attachment of a card. */
export interface CardFile {
  fileName?: string;
  annexName?: string;
  name?: string;
  url?: string;
  [key: string]: unknown;
}

/** §3 card list item: the record's values by field code, with the server's extras. */
export type CardRecord = Record<string, unknown> & {
  statusColor?: string;
  /** the audit status text shown on the card */
  jjrj_audit_jjrj?: string;
  fileList?: CardFile[];
  operations?: Operation[];
};

export interface CardListProps<Item extends CardRecord = CardRecord> {
  records: readonly Item[];
  /** the node's card style: title field, content lines, card width (100% / 50% / 33.3%) */
  cardStyle: Partial<CardStyle> | null | undefined;
  rowKey?: string | ((item: Item) => Key);
  /** a page is being loaded: the footer reads 加载中... */
  loading?: boolean;
  /** every page is loaded: the footer reads 没有更多了~ */
  finished?: boolean;
  /** the end of the list came into view (debounced 500 ms; not while loading or finished) */
  onLoadMore?: () => void;
  onOperation?: (code: string, item: Item) => void;
  /** 附件预览 of a card with attachments, or a click on one file */
  onPreview?: (item: Item, file?: CardFile) => void;
  onCardClick?: (item: Item) => void;
  /** the key of the status text; default jjrj_audit_jjrj */
  statusKey?: string;
  emptyText?: ReactNode;
  /** the scrolling ancestor, when the list does not scroll with the page */
  scrollRoot?: Element | null;
  testId?: string;
}

export const fileLabel = (f: CardFile) => String(f.annexName ?? f.fileName ?? f.name ?? f.url ?? '附件');

const FONT: Record<string, CSSProperties> = {
  bold: { fontWeight: 600 },
  italic: { fontStyle: 'italic' },
  normal: {},
};

/** 附件预览: previews the card's attachments, or explains for a moment that there are none. */
function PreviewButton({ hasFiles, onPreview }: { hasFiles: boolean; onPreview: () => void }) {
  const [tip, setTip] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <Tooltip title={TEXTS.noAnnex} open={tip} onOpenChange={(open) => !open && setTip(false)}>
      <Button
        type="link"
        size="small"
        style={{ padding: '0 4px' }}
        data-testid="card-preview"
        onClick={(e) => {
          e.stopPropagation();
          if (hasFiles) {
            onPreview();
            return;
          }
          setTip(true);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => setTip(false), NO_ANNEX_TIP_MS);
        }}
      >
        附件预览
      </Button>
    </Tooltip>
  );
}

interface CardProps<Item extends CardRecord> {
  item: Item;
  style: Partial<CardStyle>;
  statusKey: string;
  onOperation?: (code: string, item: Item) => void;
  onPreview?: (item: Item, file?: CardFile) => void;
  onCardClick?: (item: Item) => void;
}

function CardInner<Item extends CardRecord>({
  item,
  style,
  statusKey,
  onOperation,
  onPreview,
  onCardClick,
}: CardProps<Item>) {
  const files = Array.isArray(item.fileList) ? item.fileList : [];
  const limit = annexLimit(style.width);
  const shownFiles = files.length > limit ? files.slice(0, limit) : files;
  const status = cellText(item[statusKey]);
  const fileLink = (f: CardFile, i: number) => (
    <Button
      key={`${fileLabel(f)}-${i}`}
      type="link"
      size="small"
      icon={<PaperClipOutlined />}
      style={{ padding: 0, height: 'auto', maxWidth: '100%' }}
      data-testid="card-file"
      onClick={(e) => {
        e.stopPropagation();
        onPreview?.(item, f);
      }}
    >
      <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{fileLabel(f)}</span>
    </Button>
  );
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the card's buttons are the keyboard route; a click is a shortcut
    // biome-ignore lint/a11y/noStaticElementInteractions: see above
    <div
      data-testid="card-item"
      onClick={onCardClick ? () => onCardClick(item) : undefined}
      style={{
        height: '100%',
        border: '1px solid #e4e8f0',
        borderTop: `3px solid ${item.statusColor || '#409EFF'}`,
        borderRadius: 6,
        padding: '12px 14px',
        background: '#fff',
        boxShadow: '0 1px 3px rgba(0, 30, 90, 0.06)',
        cursor: onCardClick ? 'pointer' : undefined,
        display: 'flex',
        flexDirection: 'column',
        gap: 6,
      }}
    >
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8 }}>
        <div style={{ flex: 1, fontSize: 15, fontWeight: 600, color: '#1f2a44' }} data-testid="card-title">
          {cellText(style.titleKey ? item[style.titleKey] : '')}
        </div>
        {status ? (
          <Tag color={item.statusColor || undefined} style={{ marginInlineEnd: 0 }} data-testid="card-status">
            {status}
          </Tag>
        ) : null}
      </div>
      {(style.contents ?? []).map((c, i) =>
        c?.contentKey ? (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: a field may appear twice
            key={`${c.contentKey}-${i}`}
            data-testid="card-line"
            style={{
              fontSize: c.fontSize ?? 14,
              color: c.color ?? '#303133',
              lineHeight: 1.7,
              ...FONT[c.style ?? 'normal'],
            }}
          >
            {c.label ? `${c.label}：` : ''}
            {cellText(item[c.contentKey])}
          </div>
        ) : null,
      )}
      <div data-testid="card-files" style={{ display: 'flex', flexWrap: 'wrap', gap: '0 12px', alignItems: 'center' }}>
        {shownFiles.map(fileLink)}
        {files.length > limit ? (
          <Popover
            trigger="click"
            title="全部附件"
            content={
              <div style={{ display: 'flex', flexDirection: 'column', maxWidth: 320 }} data-testid="card-all-files">
                {files.map(fileLink)}
              </div>
            }
          >
            <Button
              type="link"
              size="small"
              style={{ padding: 0 }}
              data-testid="card-more-annex"
              onClick={(e) => e.stopPropagation()}
            >
              {TEXTS.moreAnnex}
            </Button>
          </Popover>
        ) : null}
      </div>
      <div style={{ marginTop: 'auto', display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: 4 }}>
        <PreviewButton hasFiles={files.length > 0} onPreview={() => onPreview?.(item)} />
        <OperationButtons operations={item.operations} row={item} onOperation={onOperation} />
      </div>
    </div>
  );
}

const Card = memo(CardInner) as typeof CardInner;

/**
 * The card list of a node (screen 19): one card per record in the node's card style, its status, attachments (more
 * than the width allows go under 更多附件, §9) and operation buttons (locked 1 s after a click). Scrolling to the end
 * asks for the next page (IntersectionObserver, debounced 500 ms); the footer reads 加载中... or 没有更多了~.
 */
function CardListInner<Item extends CardRecord = CardRecord>({
  records,
  cardStyle,
  rowKey = 'id',
  loading = false,
  finished = false,
  onLoadMore,
  onOperation,
  onPreview,
  onCardClick,
  statusKey = 'jjrj_audit_jjrj',
  emptyText,
  scrollRoot = null,
  testId = 'card-list',
}: CardListProps<Item>) {
  const style = cardStyle ?? {};
  const width = style.width ?? '33.3%';
  const sentinel = useRef<HTMLDivElement>(null);
  const state = useLatest({ loading, finished, onLoadMore });

  const loadMore = useDebouncedCallback(() => {
    const s = state.current;
    if (!s.loading && !s.finished) s.onLoadMore?.();
  }, CARD_DEBOUNCE_MS);

  useEffect(() => {
    const el = sentinel.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        const s = state.current;
        if (entries.some((e) => e.isIntersecting) && !s.loading && !s.finished) loadMore();
      },
      { root: scrollRoot, rootMargin: '0px 0px 120px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [scrollRoot, loadMore, state]);

  const keyOf = (item: Item, i: number): Key =>
    typeof rowKey === 'function' ? rowKey(item) : ((item[rowKey] as Key | undefined) ?? i);

  return (
    <div data-testid={testId}>
      {records.length === 0 && !loading ? (
        <Empty message={emptyText ?? TEXTS.empty} testId={`${testId}-empty`} />
      ) : (
        <div style={{ display: 'flex', flexWrap: 'wrap', margin: -6 }}>
          {records.map((item, i) => (
            <div
              key={keyOf(item, i)}
              style={{ width, padding: 6, boxSizing: 'border-box' }}
              data-testid="card-cell"
              data-width={width}
            >
              <Card
                item={item}
                style={style}
                statusKey={statusKey}
                onOperation={onOperation}
                onPreview={onPreview}
                onCardClick={onCardClick}
              />
            </div>
          ))}
        </div>
      )}
      <div ref={sentinel} data-testid={`${testId}-sentinel`} style={{ height: 1 }} />
      <div
        data-testid={`${testId}-footer`}
        style={{ textAlign: 'center', color: '#909399', fontSize: 13, padding: '12px 0' }}
      >
        {loading ? (
          <span>
            <Spin size="small" style={{ marginInlineEnd: 8 }} />
            {TEXTS.loading}
          </span>
        ) : finished && records.length > 0 ? (
          TEXTS.noMore
        ) : null}
      </div>
    </div>
  );
}

export const CardList = memo(CardListInner) as typeof CardListInner;
