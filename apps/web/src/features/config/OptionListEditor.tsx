import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
  SnippetsOutlined,
  SubnodeOutlined,
} from '@ant-design/icons';
import type { FieldOption } from '@ks/contracts';
import { Button, type ButtonProps, Checkbox, Empty, Input, Modal, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { countOptions, moveItem } from './fieldRows';

/**
 * A field's inline option list (options.list, §3 Option): text and value per option, 禁用, order, children for tree
 * types (cascaders, tree selects), and 批量添加 from pasted lines. Options keep any other keys they carry; text and
 * value are read and written through labelKey / valueKey.
 */

export interface OptionListEditorProps {
  value?: FieldOption[];
  onChange?: (next: FieldOption[]) => void;
  labelKey?: string;
  valueKey?: string;
  /** options may have children (cascader, tree select) */
  tree?: boolean;
  /** problems of the list, keyed by path under the list (`3.label`, `0.children.1.value`) */
  problems?: Record<string, string>;
}

const MAX_DEPTH = 5;

/** `文字` or `文字=值` (also `文字,值` / tab), one option a line; blank lines skipped. */
export function parseOptionLines(text: string, labelKey = 'label', valueKey = 'value'): FieldOption[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const m = /^(.*?)\s*(?:=|,|，|\t)\s*(.*)$/.exec(l);
      const label = (m ? m[1] : l)!.trim();
      const value = (m ? m[2] : l)!.trim() || label;
      return { [labelKey]: label, [valueKey]: value };
    });
}

function OptionRows({
  list,
  onChange,
  labelKey,
  valueKey,
  tree,
  depth,
  path,
  problems,
}: {
  list: FieldOption[];
  onChange: (next: FieldOption[]) => void;
  labelKey: string;
  valueKey: string;
  tree: boolean;
  depth: number;
  path: string;
  problems: Record<string, string>;
}) {
  const set = (i: number, patch: Partial<FieldOption>) =>
    onChange(list.map((o, j) => (j === i ? ({ ...o, ...patch } as FieldOption) : o)));
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return (
    <>
      {list.map((o, i) => {
        const at = `${path}${i}`;
        const problem = problems[`${at}.label`] ?? problems[`${at}.value`];
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: options have no id; the row is its position
          <div key={i} data-testid="option-row" data-depth={depth}>
            <Space size={4} style={{ display: 'flex', marginBottom: 4, paddingLeft: depth * 20 }} align="start">
              <Input
                size="small"
                placeholder="显示文字"
                value={text(o[labelKey] ?? (labelKey === 'label' ? undefined : o.label))}
                onChange={(e) => set(i, { [labelKey]: e.target.value })}
                status={problems[`${at}.label`] ? 'error' : undefined}
                maxLength={500}
                style={{ width: 180 }}
                aria-label="选项文字"
                data-testid="option-label"
              />
              <Input
                size="small"
                placeholder="值（默认同文字）"
                value={text(o[valueKey] ?? (valueKey === 'value' ? undefined : o.value))}
                onChange={(e) => set(i, { [valueKey]: e.target.value })}
                status={problems[`${at}.value`] ? 'error' : undefined}
                maxLength={500}
                style={{ width: 150 }}
                aria-label="选项值"
                data-testid="option-value"
              />
              <Checkbox
                checked={o.isDisabled === true}
                onChange={(e) => {
                  const { isDisabled: _d, ...rest } = o;
                  onChange(
                    list.map((x, j) => (j === i ? (e.target.checked ? { ...rest, isDisabled: true } : rest) : x)),
                  );
                }}
                data-testid="option-disabled"
              >
                禁用
              </Checkbox>
              <Button
                size="small"
                type="text"
                icon={<ArrowUpOutlined />}
                aria-label="上移选项"
                disabled={i === 0}
                onClick={() => onChange(moveItem(list, i, i - 1))}
              />
              <Button
                size="small"
                type="text"
                icon={<ArrowDownOutlined />}
                aria-label="下移选项"
                disabled={i === list.length - 1}
                onClick={() => onChange(moveItem(list, i, i + 1))}
              />
              {tree && depth < MAX_DEPTH - 1 ? (
                <Tooltip title="添加下级选项">
                  <Button
                    size="small"
                    type="text"
                    icon={<SubnodeOutlined />}
                    aria-label="添加下级选项"
                    onClick={() => set(i, { children: [...(o.children ?? []), { [labelKey]: '', [valueKey]: '' }] })}
                    data-testid="option-add-child"
                  />
                </Tooltip>
              ) : null}
              <Button
                size="small"
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label="删除选项"
                onClick={() => onChange(list.filter((_, j) => j !== i))}
                data-testid="option-remove"
              />
            </Space>
            {problem ? (
              <Typography.Text type="danger" style={{ display: 'block', paddingLeft: depth * 20, fontSize: 12 }}>
                {problem}
              </Typography.Text>
            ) : null}
            {o.children?.length ? (
              <OptionRows
                list={o.children}
                onChange={(children) => {
                  const { children: _c, ...rest } = o;
                  onChange(list.map((x, j) => (j === i ? (children.length ? { ...rest, children } : rest) : x)));
                }}
                labelKey={labelKey}
                valueKey={valueKey}
                tree={tree}
                depth={depth + 1}
                path={`${at}.children.`}
                problems={problems}
              />
            ) : null}
          </div>
        );
      })}
    </>
  );
}

export function OptionListEditor({
  value,
  onChange,
  labelKey = 'label',
  valueKey = 'value',
  tree = false,
  problems = {},
}: OptionListEditorProps) {
  const list = value ?? [];
  const [pasting, setPasting] = useState(false);
  const [pasted, setPasted] = useState('');
  const change = (next: FieldOption[]) => onChange?.(next);
  return (
    <div data-testid="option-list">
      {list.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无选项" style={{ margin: '8px 0' }} />
      ) : (
        <OptionRows
          list={list}
          onChange={change}
          labelKey={labelKey}
          valueKey={valueKey}
          tree={tree}
          depth={0}
          path=""
          problems={problems}
        />
      )}
      <Space size={8} style={{ marginTop: 4 }}>
        <Button
          size="small"
          type="dashed"
          icon={<PlusOutlined />}
          onClick={() => change([...list, { [labelKey]: '', [valueKey]: '' }])}
          data-testid="option-add"
        >
          添加选项
        </Button>
        <Button size="small" icon={<SnippetsOutlined />} onClick={() => setPasting(true)} data-testid="option-paste">
          批量添加
        </Button>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          共 {countOptions(list)} 项
        </Typography.Text>
      </Space>
      <Modal
        open={pasting}
        title="批量添加选项"
        okText="添加"
        cancelText="取消"
        onCancel={() => setPasting(false)}
        onOk={() => {
          change([...list, ...parseOptionLines(pasted, labelKey, valueKey)]);
          setPasted('');
          setPasting(false);
        }}
        okButtonProps={{ disabled: !pasted.trim(), 'data-testid': 'option-paste-ok' } as ButtonProps}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          每行一个选项：<code>文字</code> 或 <code>文字=值</code>（也可用逗号或制表符分隔）。
        </Typography.Paragraph>
        <Input.TextArea
          rows={8}
          value={pasted}
          onChange={(e) => setPasted(e.target.value)}
          placeholder={'本科=bk\n硕士研究生=ss'}
          aria-label="批量选项"
          data-testid="option-paste-text"
        />
      </Modal>
    </div>
  );
}
