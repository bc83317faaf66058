import { useQuery } from '@tanstack/react-query';
import { Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { nodePreviewQuery } from '../../api/config';
import { NodeSelector, type NodeTarget, PageFrame } from '../../components/admin';
import { CONFIG_SECTION, menuSetUpHref, nodePageHref } from '../../lib/paths';

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

// ── the node a node page configures ─────────────────────────────────────────

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
          <Link to={menuSetUpHref(node.systemCoding)}>菜单设置</Link>
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
