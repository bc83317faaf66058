import {
  type FieldDef,
  type FieldValues,
  isCascaderType,
  isEmpty,
  isMultiValueType,
  isOptionType,
  isSwitchOn,
  isSwitchType,
  MULTI_JOIN,
  splitValue,
} from '@ks/contracts';
import { Space, Typography } from 'antd';
import { safeHref, sanitizeHtml } from '../../lib/sanitize';
import { findOption, type OptionContext, pathLabels, type UiOption, useFieldOptions } from './options';
import { dateText } from './values';

/** What an empty value reads in the detail view. */
export const EMPTY_TEXT = '-';

const FILE_EXT = /\.(pdf|docx?|xlsx?|pptx?|zip|rar|7z|jpe?g|jpe|png|gif|webp|bmp|txt|csv|ofd|mp4)$/i;

interface FileLink {
  name: string;
  url: string;
}

/** Attachments in a value: objects with a url ({fileName|name|annexName, url}), or file URLs as text. */
export function fileLinks(value: unknown): FileLink[] | null {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,;]/) : [value];
  const links: FileLink[] = [];
  for (const item of items) {
    if (item && typeof item === 'object' && typeof (item as { url?: unknown }).url === 'string') {
      const o = item as { url: string; fileName?: unknown; name?: unknown; annexName?: unknown };
      const url = safeHref(o.url);
      if (!url) return null;
      const name = [o.fileName, o.name, o.annexName].find((x) => typeof x === 'string' && x) as string | undefined;
      links.push({ url, name: name ?? decodeURIComponent(url.split('/').pop() ?? url) });
    } else if (typeof item === 'string' && item.trim()) {
      const url = safeHref(item.trim());
      if (!url || !FILE_EXT.test(url.split('?')[0] ?? '')) return null;
      links.push({ url, name: decodeURIComponent(url.split('?')[0]?.split('/').pop() ?? url) });
    }
  }
  return links.length ? links : null;
}

/** The text of a value of an option field: labels, `;` between values, `/` along a cascader path. */
export function optionText(field: FieldDef, value: unknown, options: readonly UiOption[]): string {
  const { type } = field;
  const label = (v: string) => findOption(options, v)?.label ?? v;
  if (type === 'cascaders') {
    return splitValue('cascaders', value)
      .map((p) => pathLabels(options, p).join('/'))
      .join(MULTI_JOIN);
  }
  if (isCascaderType(type)) return pathLabels(options, splitValue(type, value)).join('/');
  if (isMultiValueType(type)) return splitValue(type, value).map(label).join(MULTI_JOIN);
  return label(String(value).trim());
}

/** The text of any other value. */
export function plainText(field: FieldDef, value: unknown): string {
  const { type } = field;
  if (isSwitchType(type)) return type === 'switch-2' || isSwitchOn(value) ? '是' : '否';
  if (type === 'daterange') return splitValue('daterange', value).join(' 至 ');
  if (type === 'date' || type === 'datetime') return dateText(type, value) ?? EMPTY_TEXT;
  if (Array.isArray(value)) {
    return value
      .map((v) => {
        if (!v || typeof v !== 'object') return String(v);
        const o = v as { fileName?: unknown; name?: unknown };
        return String(o.fileName ?? o.name ?? JSON.stringify(v));
      })
      .join(MULTI_JOIN);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function OptionValue({
  field,
  value,
  ctx,
  values,
}: {
  field: FieldDef;
  value: unknown;
  ctx: OptionContext;
  values: FieldValues;
}) {
  const state = useFieldOptions(field, ctx, values);
  return <span data-testid={`value-${field.code}`}>{optionText(field, value, state.options)}</span>;
}

/** A field's value as read-only text (detail view, read-text fields). */
export function ReadOnlyValue({ field, values, ctx }: { field: FieldDef; values: FieldValues; ctx: OptionContext }) {
  const value = values[field.code];
  const testId = `value-${field.code}`;
  if (isEmpty(value) && !isSwitchType(field.type)) {
    return (
      <Typography.Text type="secondary" data-testid={testId}>
        {EMPTY_TEXT}
      </Typography.Text>
    );
  }
  if (field.type === 'editor') {
    return (
      <div
        className="ks-rich-text"
        data-testid={testId}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify right here
        dangerouslySetInnerHTML={{ __html: sanitizeHtml(String(value)) }}
      />
    );
  }
  if (isOptionType(field.type) && field.type !== 'select-edit') {
    return <OptionValue field={field} value={value} ctx={ctx} values={values} />;
  }
  const files = fileLinks(value);
  if (files) {
    return (
      <Space wrap data-testid={testId}>
        {files.map((f) => (
          <a key={f.url} href={f.url} target="_blank" rel="noopener noreferrer">
            {f.name}
          </a>
        ))}
      </Space>
    );
  }
  return (
    <span data-testid={testId} style={field.type === 'textarea' ? { whiteSpace: 'pre-wrap' } : undefined}>
      {plainText(field, value)}
    </span>
  );
}
