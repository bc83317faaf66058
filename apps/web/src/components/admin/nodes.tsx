import type { MenuItem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Select, Space, TreeSelect } from 'antd';
import { useState } from 'react';
import { configSystemsQuery, nodeListQuery } from '../../api/config';

/** Choosing a business system and one of its nodes: the configuration, permission and administration pages share it. */

export interface TreeOption {
  value: string;
  title: string;
  selectable?: boolean;
  children?: TreeOption[];
}

/**
 * TreeSelect data of a menu tree, valued by gnCoding, hidden and disabled items marked; `leavesOnly` makes only items
 * without children selectable.
 */
export function nodeTreeOptions(tree: readonly MenuItem[], leavesOnly = false): TreeOption[] {
  return tree.map((it) => {
    const children = it.children ?? [];
    const flags = [it.itShows === '否' ? '隐藏' : null, it.disabled ? '已禁用' : null].filter(Boolean);
    return {
      value: it.gnCoding,
      title: `${it.title}（${it.gnCoding}）${flags.length ? ` [${flags.join('、')}]` : ''}`,
      selectable: leavesOnly ? children.length === 0 : true,
      children: children.length ? nodeTreeOptions(children, leavesOnly) : undefined,
    };
  });
}

/** A Select of every business system, valued by its code; a disabled one is marked. */
export function SystemSelect({
  value,
  onChange,
  testId = 'system-select',
  width = 240,
}: {
  value: string | null | undefined;
  onChange: (systemCoding: string | null) => void;
  testId?: string;
  width?: number;
}) {
  const systems = useQuery(configSystemsQuery);
  return (
    <Select<string>
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder="请选择系统"
      style={{ width }}
      loading={systems.isPending}
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? null)}
      options={(systems.data ?? []).map((s) => ({
        value: s.gnCoding,
        label: `${s.systemName}（${s.gnCoding}）${s.enabled ? '' : ' [已停用]'}`,
      }))}
      data-testid={testId}
      aria-label="系统"
      notFoundContent="暂无数据"
    />
  );
}

export interface NodeTarget {
  systemCoding: string | null;
  gnCoding: string | null;
}

/**
 * System Select + TreeSelect of that system's nodes (node-list: the whole tree, hidden items included). Choosing
 * another system clears the node. The test ids are `testId` (the pair), `${testId}-system` and `${testId}-node`
 * unless `testIds` names them.
 */
export function NodeSelector({
  systemCoding,
  gnCoding,
  onChange,
  leavesOnly = false,
  testId = 'node-selector',
  testIds,
  disabled = false,
}: NodeTarget & {
  onChange: (next: NodeTarget) => void;
  leavesOnly?: boolean;
  testId?: string;
  testIds?: { system: string; node: string };
  disabled?: boolean;
}) {
  const nodes = useQuery({ ...nodeListQuery(systemCoding ?? ''), enabled: !!systemCoding });
  return (
    <Space wrap data-testid={testId}>
      <SystemSelect
        value={systemCoding}
        testId={testIds?.system ?? `${testId}-system`}
        onChange={(next) => onChange({ systemCoding: next, gnCoding: null })}
      />
      <TreeSelect<string>
        allowClear
        showSearch={{ treeNodeFilterProp: 'title' }}
        treeDefaultExpandAll
        placeholder={systemCoding ? '请选择节点' : '请先选择系统'}
        // a node named without its system (arriving from a link) stays visible until the system is known
        disabled={disabled || (!systemCoding && !gnCoding)}
        loading={nodes.isFetching}
        style={{ width: 320 }}
        value={gnCoding ?? undefined}
        onChange={(v) => onChange({ systemCoding, gnCoding: v ?? null })}
        treeData={nodeTreeOptions(nodes.data ?? [], leavesOnly)}
        data-testid={testIds?.node ?? `${testId}-node`}
        aria-label="节点"
        notFoundContent="暂无数据"
      />
    </Space>
  );
}

/** NodeSelector as a form control valued by the node's gnCoding (the system is a step of the choice). */
export function NodePicker({
  value,
  onChange,
  testId = 'node-picker',
  leavesOnly = false,
}: {
  value?: string | null;
  onChange?: (gnCoding: string | null) => void;
  testId?: string;
  leavesOnly?: boolean;
}) {
  const [systemCoding, setSystemCoding] = useState<string | null>(null);
  return (
    <NodeSelector
      systemCoding={systemCoding}
      gnCoding={value ?? null}
      leavesOnly={leavesOnly}
      testId={testId}
      onChange={(next) => {
        setSystemCoding(next.systemCoding);
        onChange?.(next.gnCoding);
      }}
    />
  );
}
