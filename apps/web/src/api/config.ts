import type {
  CardStyle,
  Chart,
  ConfigSystem,
  MenuItem,
  NodeFunction,
  NodePreview,
  NoticeJump,
  StyleTemplate,
  TableColumn,
} from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { type Params, request } from './request';

/**
 * Developer configuration of the shell (spec §7 Configuration): systems, menus, node functions, columns, card
 * styles, charts, style templates, display groups and notice jumps. Reads are query options; writes are plain
 * functions. Writes whose forms show field errors are `silent`: the caller shows them and reports the rest.
 */

type PathName = keyof typeof paths;

function call<T>(name: PathName, options: { params?: Params; data?: unknown; silent?: boolean } = {}): Promise<T> {
  return request<T>({ url: paths[name].path, method: paths[name].method, ...options });
}

export interface OptionItem {
  label: string;
  value: string;
}

export interface DataSourceOption extends OptionItem {
  kind: 'engine' | 'domain';
}

export interface DisplayGroup {
  id: string;
  systemCoding: string;
  name: string;
  icon: string | null;
  sort: number;
}

export interface CacheRefreshResult {
  nodes: number;
  clearedAt: string;
}

/** The editable fields of a menu item (PUT edit / POST child-menu). */
export interface MenuFields {
  title: string;
  icon: string | null;
  itShows: '是' | '否';
  nodeProperties: string;
  style: string;
  nodeSetFlag: boolean;
  disabled: boolean;
  groupName: string | null;
  dataSource: string;
  /** the score the sidebar shows beside the node (screen 20); null: none */
  score: number | null;
}

export interface ChildMenuBody extends MenuFields {
  systemCoding: string;
  parentId: string | null;
  gnCoding: string;
}

export interface EditMenuBody extends MenuFields {
  id: string;
  gnCoding?: string;
}

export interface MoveBody {
  id: string;
  parentId: string | null;
  index: number;
}

export interface SystemRenameBody {
  systemCoding: string;
  systemName: string;
  title: string;
  enabled?: boolean;
}

export interface NoticeJumpBody {
  id?: string;
  name: string;
  msgType: NoticeJump['msgType'];
  systemCoding: string;
  gnCoding: string;
  enabled: boolean;
}

export const CONFIG_KEY = ['config'] as const;
const forever = Number.POSITIVE_INFINITY;

// ── reads ───────────────────────────────────────────────────────────────────

export const configSystemsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'systems'],
  queryFn: () => call<ConfigSystem[]>('configSystemList'),
});

export const nodeListKey = (systemCoding: string) => [...CONFIG_KEY, 'nodeList', systemCoding] as const;
export const nodeListQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: nodeListKey(systemCoding),
    queryFn: () => call<MenuItem[]>('nodeList', { params: { systemCoding } }),
  });

export const nodePreviewQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: [...CONFIG_KEY, 'preview', gnCoding],
    queryFn: () => call<NodePreview>('nodePreviews', { params: { gnCoding } }),
  });

export const nodeLogosQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'nodeLogos'],
  queryFn: () => call<string[]>('nodeLogos'),
  staleTime: forever,
});

export const groupIconsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'groupIcons'],
  queryFn: () => call<string[]>('groupIcons'),
  staleTime: forever,
});

export const nodePropertiesQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'nodeProperties'],
  queryFn: () => call<OptionItem[]>('nodePullDown'),
  staleTime: forever,
});

export const dataSourcesQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'dataSources'],
  queryFn: () => call<DataSourceOption[]>('nodeDbList'),
  staleTime: forever,
});

export const standardButtonsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'standardButtons'],
  queryFn: () => call<NodeFunction[]>('buttonPullDown'),
  staleTime: forever,
});

export const displayGroupsKey = (systemCoding: string) => [...CONFIG_KEY, 'displayGroups', systemCoding] as const;
export const displayGroupsQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: displayGroupsKey(systemCoding),
    queryFn: () => call<DisplayGroup[]>('displayGroups', { params: { systemCoding } }),
  });

export const functionListKey = (gnCoding: string) => [...CONFIG_KEY, 'functions', gnCoding] as const;
export const functionListQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: functionListKey(gnCoding),
    queryFn: () => call<NodeFunction[]>('functionList', { data: { gnCoding } }),
  });

export const tableColumnsKey = (gnCoding: string) => [...CONFIG_KEY, 'columns', gnCoding] as const;
export const tableColumnsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: tableColumnsKey(gnCoding),
    queryFn: () => call<TableColumn[]>('tableColumns', { data: { gnCoding } }),
  });

export const cardStyleKey = (gnCoding: string) => [...CONFIG_KEY, 'cardStyle', gnCoding] as const;
export const cardStyleQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: cardStyleKey(gnCoding),
    queryFn: () => call<CardStyle | null>('cardSetting', { data: { gnCoding } }),
  });

export const chartsKey = (gnCoding: string) => [...CONFIG_KEY, 'charts', gnCoding] as const;
export const chartsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: chartsKey(gnCoding),
    queryFn: () => call<Chart[]>('nodeCharts', { params: { gnCoding } }),
  });

export const styleTemplatesKey = [...CONFIG_KEY, 'styleTemplates'] as const;
export const styleTemplatesQuery = queryOptions({
  queryKey: styleTemplatesKey,
  queryFn: () => call<StyleTemplate[]>('styleTemplates'),
});

export const noticeJumpsKey = [...CONFIG_KEY, 'noticeJumps'] as const;
export const noticeJumpsQuery = queryOptions({
  queryKey: noticeJumpsKey,
  queryFn: () => call<NoticeJump[]>('noticeJumps'),
});

// ── systems and display groups ──────────────────────────────────────────────

export const renameSystem = (body: SystemRenameBody, silent = true) =>
  call<ConfigSystem>('systemRename', { data: body, silent });

/** Deletes a system; the server refuses one that still has menus (its message is shown by the request client). */
export const deleteSystem = (systemCoding: string) => call<null>('structureDel', { params: { systemCoding } });

export const createDisplayGroup = (body: { systemCoding: string; name: string; icon: string | null; sort: number }) =>
  call<DisplayGroup>('displayGroupCreate', { data: body, silent: true });

export const updateDisplayGroup = (body: { id: string; name: string; icon: string | null; sort: number }) =>
  call<DisplayGroup>('displayGroupUpdate', { data: body, silent: true });

export const deleteDisplayGroup = (id: string) => call<null>('displayGroupDelete', { params: { id } });

// ── menus ───────────────────────────────────────────────────────────────────

export const addChildMenu = (body: ChildMenuBody) => call<MenuItem>('structureChildMenu', { data: body, silent: true });
export const editMenu = (body: EditMenuBody) => call<MenuItem>('structureEdit', { data: body, silent: true });
export const deleteMenu = (id: string) => call<null>('structureDel', { params: { id } });
/** Answers the system's whole new tree. */
export const moveMenu = (body: MoveBody) => call<MenuItem[]>('structureMove', { data: body });
export const refreshCache = () => call<CacheRefreshResult>('cacheRefresh');

export const saveNodeFunctions = (gnCoding: string, functions: NodeFunction[]) =>
  call<NodeFunction[]>('saveNodeFunctions', { data: { gnCoding, functions }, silent: true });

// ── node presentation ───────────────────────────────────────────────────────

export const saveColumns = (gnCoding: string, columns: TableColumn[]) =>
  call<TableColumn[]>('saveColumns', { data: { gnCoding, columns }, silent: true });

export const saveCardStyle = (gnCoding: string, cardStyle: CardStyle) =>
  call<CardStyle>('saveCardStyle', { data: { gnCoding, cardStyle }, silent: true });

export const saveCharts = (gnCoding: string, charts: Chart[]) =>
  call<Chart[]>('saveCharts', { data: { gnCoding, charts }, silent: true });

export const createStyleTemplate = (body: { name: string; kind: 'table' | 'card'; fromGnCoding: string }) =>
  call<StyleTemplate>('styleTemplateCreate', { data: body, silent: true });

export const deleteStyleTemplate = (id: string) => call<null>('styleTemplateDelete', { params: { id } });

export const applyStyleTemplate = (body: { id: string; gnCoding: string }) =>
  call<NodePreview>('styleTemplateApply', { data: body });

// ── notice jumps ────────────────────────────────────────────────────────────

export const saveNoticeJump = (body: NoticeJumpBody) =>
  call<NoticeJump>('saveNoticeJump', { data: body, silent: true });
export const deleteNoticeJump = (id: string) => call<null>('deleteNoticeJump', { params: { id } });
