import type { MenuItem } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Select, Space, TreeSelect, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { configSystemsQuery, nodeListQuery, nodePreviewQuery } from '../../api/config';
import { PageFrame } from '../../components/admin';

/** Every configuration page (the product overview links them all). */
export const CONFIG_PAGES = [
  { path: '/system/allSystem', title: '系统管理', description: '业务系统的名称、简称、启停与展示分组' },
  { path: '/system/menuSetUp', title: '菜单设置', description: '菜单树、节点属性与按钮，拖拽调整顺序与层级' },
  { path: '/system/setUpForm', title: '字段设置', description: '节点的字段、选项与筛选条件，表单实时预览' },
  { path: '/system/setUpList', title: '列表列设置', description: '节点列表的列、类型、对齐与宽度' },
  { path: '/system/setTypeCard', title: '卡片样式', description: '卡片列表的标题、内容项与宽度' },
  { path: '/system/styleTemplate', title: '样式模板', description: '保存并复用列表列与卡片样式' },
  { path: '/system/echartsSetting', title: '图表设置', description: '节点的统计图表：类型、维度与度量' },
  { path: '/system/auditLevel', title: '审核级别', description: '节点的审核级别、审核方式与审核人' },
  { path: '/system/auditWay', title: '审核方式', description: '各审核级别的单人、会签或或签方式' },
  { path: '/system/jumpNoticeCfg', title: '消息跳转配置', description: '待办、驳回、公告、消息的跳转节点' },
] as const;

/** The pages that configure one node (linked from 菜单设置 per node, and from each other). */
export const NODE_PAGE_LINKS = [
  { key: 'setUpForm', path: '/system/setUpForm', title: '字段设置' },
  { key: 'setUpList', path: '/system/setUpList', title: '列表列设置' },
  { key: 'setTypeCard', path: '/system/setTypeCard', title: '卡片样式' },
  { key: 'echartsSetting', path: '/system/echartsSetting', title: '图表设置' },
  { key: 'auditLevel', path: '/system/auditLevel', title: '审核级别' },
  { key: 'auditWay', path: '/system/auditWay', title: '审核方式' },
] as const;

/** A node page's address for a node (and its system, when known). */
export function nodePageHref(path: string, gnCoding: string, systemCoding?: string | null): string {
  const q = new URLSearchParams();
  if (systemCoding) q.set('systemCoding', systemCoding);
  q.set('gnCoding', gnCoding);
  return `${path}?${q.toString()}`;
}

export const CONFIG_SECTION = { title: '系统配置', to: '/configPage/productConfig' } as const;

/** Breadcrumb 首页 / 系统配置 / {title} above the page's cards; `wide` pages (editor beside preview) use the whole width. */
export function ConfigLayout({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <PageFrame section={CONFIG_SECTION} title={title} wide={wide}>
      {children}
    </PageFrame>
  );
}

// ── system and node selection ───────────────────────────────────────────────

export interface TreeOption {
  value: string;
  title: string;
  selectable?: boolean;
  children?: TreeOption[];
}

/** TreeSelect data of a menu tree, valued by gnCoding; `leavesOnly` makes only items without children selectable. */
export function nodeTreeOptions(tree: MenuItem[], leavesOnly = false): TreeOption[] {
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

/** A Select of all business systems (valued by their code). */
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
      options={(systems.data ?? []).map((s) => ({ value: s.gnCoding, label: `${s.systemName}（${s.gnCoding}）` }))}
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

/** System Select + TreeSelect of that system's nodes (node-list, hidden items included). */
export function NodeSelector({
  systemCoding,
  gnCoding,
  onChange,
  leavesOnly = false,
  testId = 'node-selector',
  disabled = false,
}: NodeTarget & {
  onChange: (next: NodeTarget) => void;
  leavesOnly?: boolean;
  testId?: string;
  disabled?: boolean;
}) {
  const nodes = useQuery({ ...nodeListQuery(systemCoding ?? ''), enabled: !!systemCoding });
  return (
    <Space wrap data-testid={testId}>
      <SystemSelect
        value={systemCoding}
        testId={`${testId}-system`}
        onChange={(next) => onChange({ systemCoding: next, gnCoding: null })}
      />
      <TreeSelect<string>
        allowClear
        showSearch={{ treeNodeFilterProp: 'title' }}
        treeDefaultExpandAll
        placeholder={systemCoding ? '请选择节点' : '请先选择系统'}
        disabled={disabled || !systemCoding}
        loading={nodes.isFetching}
        style={{ width: 320 }}
        value={gnCoding ?? undefined}
        onChange={(v) => onChange({ systemCoding, gnCoding: v ?? null })}
        treeData={nodeTreeOptions(nodes.data ?? [], leavesOnly)}
        data-testid={`${testId}-node`}
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

/**
 * The node a node page configures: `gnCoding` (and `systemCoding`) from the query string; the node's preview gives
 * its system when the query names none. Choosing another node rewrites the query string.
 */
export function useNodeTarget() {
  const [params, setParams] = useSearchParams();
  const gnCoding = params.get('gnCoding') || null;
  const querySystem = params.get('systemCoding') || null;
  const preview = useQuery({ ...nodePreviewQuery(gnCoding ?? ''), enabled: !!gnCoding });
  const systemCoding = querySystem ?? preview.data?.node.systemCoding ?? null;
  const setTarget = (next: NodeTarget) => {
    const p = new URLSearchParams();
    if (next.systemCoding) p.set('systemCoding', next.systemCoding);
    if (next.gnCoding) p.set('gnCoding', next.gnCoding);
    setParams(p);
  };
  return { gnCoding, systemCoding, preview, setTarget };
}

/** The bar on top of a node page: the selector, the node's name and system, links to its other settings. */
export function NodeTargetBar({ target, current }: { target: ReturnType<typeof useNodeTarget>; current: string }) {
  const { gnCoding, systemCoding, preview, setTarget } = target;
  const node = preview.data?.node;
  return (
    <div
      style={{ display: 'flex', flexWrap: 'wrap', gap: 16, alignItems: 'center', marginBottom: 16 }}
      data-testid="node-target-bar"
    >
      <NodeSelector systemCoding={systemCoding} gnCoding={gnCoding} onChange={setTarget} />
      {node ? (
        <Space wrap size={12}>
          <Typography.Text data-testid="node-target-name">
            当前节点：<b>{node.title}</b>（{node.gnCoding}）· {preview.data?.systemName}
          </Typography.Text>
          {NODE_PAGE_LINKS.filter((l) => l.path !== current).map((l) => (
            <Link key={l.path} to={nodePageHref(l.path, node.gnCoding, node.systemCoding)}>
              {l.title}
            </Link>
          ))}
          <Link to={`/system/menuSetUp?systemCoding=${encodeURIComponent(node.systemCoding)}`}>菜单设置</Link>
        </Space>
      ) : null}
    </div>
  );
}

/** antd ColorPicker's value → #RRGGBB. */
export function colorValue(v: unknown): string {
  if (typeof v === 'string') return v;
  const c = v as { toHexString?: () => string } | null;
  return c?.toHexString ? c.toHexString().toUpperCase() : '#409EFF';
}
