import { UndoOutlined } from '@ant-design/icons';
import { Button, Card, Tag } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { FILTER_RESET_MS, TEXTS } from './constants';
import { labelWidth, ONE_LINE } from './searchFields';

/** One choice of a filter group; its label and value are read from label/name and value/code. */
export interface FilterEntry {
  label?: string;
  value?: string | number;
  name?: string;
  code?: string;
  [key: string]: unknown;
}

/** §3 filter definition: a group of choices for one field. */
export interface FilterGroup {
  name: string;
  code: string;
  /** `checkbox` / `multiple` / `多选`: several choices at once; otherwise one */
  type?: string;
  dataList: FilterEntry[];
}

export interface FilterDefinition {
  displayCode: string;
  displayList: FilterGroup[];
}

/** §3 search tag: a chosen filter value. `bianma` is the value (code), `val` its label. */
export interface SearchTag {
  code: string;
  name: string;
  bianma: string;
  val: string;
}

export interface FilterCardProps {
  definition: FilterDefinition | null | undefined;
  /** the current search tags (controlled) */
  tags: readonly SearchTag[];
  onChange: (tags: SearchTag[]) => void;
  /** after 重置 has cleared every tag */
  onReset?: () => void;
  title?: string;
  testId?: string;
}

const TAGS_LABEL = '已选条件';
const MULTI = new Set(['checkbox', 'multiple', 'multi', '多选']);
export const entryLabel = (e: FilterEntry) => String(e.label ?? e.name ?? e.value ?? e.code ?? '');
export const entryValue = (e: FilterEntry) => String(e.value ?? e.code ?? e.label ?? e.name ?? '');

/** The tags after a chip of a group was clicked: toggled; a single-choice group keeps one. */
export function toggleTag(tags: readonly SearchTag[], group: FilterGroup, entry: FilterEntry): SearchTag[] {
  const bianma = entryValue(entry);
  const chosen = tags.some((t) => t.code === group.code && t.bianma === bianma);
  if (chosen) return tags.filter((t) => !(t.code === group.code && t.bianma === bianma));
  const tag: SearchTag = { code: group.code, name: group.name, bianma, val: entryLabel(entry) };
  const kept = MULTI.has(group.type ?? '') ? tags : tags.filter((t) => t.code !== group.code);
  return [...kept, tag];
}

/**
 * The filter card: a row of clickable chips per group of the node's filter definition, the chosen values as
 * closable tags, and 重置 (clears them, with a 500 ms animation).
 */
export function FilterCard({
  definition,
  tags,
  onChange,
  onReset,
  title = '筛选',
  testId = 'filter-card',
}: FilterCardProps) {
  const [resetting, setResetting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const reset = () => {
    if (resetting) return;
    setResetting(true);
    timer.current = setTimeout(() => {
      timer.current = null;
      setResetting(false);
    }, FILTER_RESET_MS);
    onChange([]);
    onReset?.();
  };

  const groups = definition?.displayList ?? [];
  // group names on one line, in a column as wide as the longest (with its colon); longer ones end in … (title: all)
  const width = labelWidth([...groups.map((g) => `${g.name}：`), `${TAGS_LABEL}：`], { max: 160 });
  const label = { ...ONE_LINE, flex: 'none', width, color: '#606266' } as const;
  return (
    <Card size="small" title={title} data-testid={testId} style={{ marginBottom: 12 }}>
      {groups.map((group) => {
        const chosenInGroup = tags.filter((t) => t.code === group.code);
        return (
          <div
            key={group.code}
            data-testid={`filter-group-${group.code}`}
            style={{ display: 'flex', alignItems: 'baseline', gap: 8, marginBottom: 8 }}
          >
            <span style={label} title={group.name} data-testid={`filter-label-${group.code}`}>
              {group.name}：
            </span>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
              <Tag.CheckableTag
                checked={chosenInGroup.length === 0}
                onChange={() => chosenInGroup.length && onChange(tags.filter((t) => t.code !== group.code))}
                data-testid={`filter-all-${group.code}`}
              >
                全部
              </Tag.CheckableTag>
              {group.dataList.map((entry) => {
                const value = entryValue(entry);
                return (
                  <Tag.CheckableTag
                    key={value}
                    checked={chosenInGroup.some((t) => t.bianma === value)}
                    onChange={() => onChange(toggleTag(tags, group, entry))}
                    data-testid={`filter-chip-${group.code}-${value}`}
                  >
                    {entryLabel(entry)}
                  </Tag.CheckableTag>
                );
              })}
            </div>
          </div>
        );
      })}
      <div
        style={{ display: 'flex', alignItems: 'center', gap: 8, borderTop: '1px dashed #ebeef5', paddingTop: 8 }}
        data-testid="filter-tags"
        data-resetting={resetting ? 'true' : undefined}
      >
        <span style={label}>{TAGS_LABEL}：</span>
        <div style={{ flex: 1, display: 'flex', flexWrap: 'wrap', gap: 6 }}>
          {tags.map((t) => (
            <Tag
              key={`${t.code}:${t.bianma}`}
              color="blue"
              closable
              onClose={(e) => {
                e.preventDefault();
                onChange(tags.filter((x) => !(x.code === t.code && x.bianma === t.bianma)));
              }}
              data-testid={`search-tag-${t.code}-${t.bianma}`}
            >
              {t.name}：{t.val}
            </Tag>
          ))}
        </div>
        <Button
          size="small"
          onClick={reset}
          data-testid="filter-reset"
          icon={<UndoOutlined spin={resetting} data-testid="filter-reset-icon" />}
        >
          {TEXTS.reset}
        </Button>
      </div>
    </Card>
  );
}
