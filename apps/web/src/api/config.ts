import type { ApiBody, ApiData, CardStyle, Chart, NodeFunction, TableColumn } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * Developer configuration of the shell (spec §7 Configuration): systems, menus, node functions, columns, card
 * styles, charts, style templates, display groups and notice jumps. Reads are query options; writes are plain
 * functions. Writes whose forms show field errors are `silent`: the caller shows them and reports the rest.
 * Shapes are the contract's (packages/contracts/src/shell.ts), through the typed `call`.
 */

export type OptionItem = ApiData<'nodePullDown'>[number];
export type DataSourceOption = ApiData<'nodeDbList'>[number];
export type DisplayGroup = ApiData<'displayGroups'>[number];
export type CacheRefreshResult = ApiData<'cacheRefresh'>;

export type ChildMenuBody = ApiBody<'structureChildMenu'>;
export type EditMenuBody = ApiBody<'structureEdit'>;
/** The editable fields of a menu item (PUT edit / POST child-menu), all given. */
export type MenuFields = Required<Omit<EditMenuBody, 'id' | 'gnCoding'>>;
export type MoveBody = ApiBody<'structureMove'>;
export type SystemRenameBody = ApiBody<'systemRename'>;
export type NoticeJumpBody = ApiBody<'saveNoticeJump'>;

export const CONFIG_KEY = ['config'] as const;
const forever = Number.POSITIVE_INFINITY;

// ── reads ───────────────────────────────────────────────────────────────────

export const configSystemsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'systems'],
  queryFn: () => call('configSystemList'),
});

export const nodeListKey = (systemCoding: string) => [...CONFIG_KEY, 'nodeList', systemCoding] as const;
export const nodeListQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: nodeListKey(systemCoding),
    queryFn: () => call('nodeList', { params: { systemCoding } }),
  });

export const nodePreviewQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: [...CONFIG_KEY, 'preview', gnCoding],
    queryFn: () => call('nodePreviews', { params: { gnCoding } }),
  });

export const nodeLogosQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'nodeLogos'],
  queryFn: () => call('nodeLogos'),
  staleTime: forever,
});

export const groupIconsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'groupIcons'],
  queryFn: () => call('groupIcons'),
  staleTime: forever,
});

export const nodePropertiesQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'nodeProperties'],
  queryFn: () => call('nodePullDown'),
  staleTime: forever,
});

export const dataSourcesQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'dataSources'],
  queryFn: () => call('nodeDbList'),
  staleTime: forever,
});

export const standardButtonsQuery = queryOptions({
  queryKey: [...CONFIG_KEY, 'standardButtons'],
  queryFn: () => call('buttonPullDown'),
  staleTime: forever,
});

export const displayGroupsKey = (systemCoding: string) => [...CONFIG_KEY, 'displayGroups', systemCoding] as const;
export const displayGroupsQuery = (systemCoding: string) =>
  queryOptions({
    queryKey: displayGroupsKey(systemCoding),
    queryFn: () => call('displayGroups', { params: { systemCoding } }),
  });

export const functionListKey = (gnCoding: string) => [...CONFIG_KEY, 'functions', gnCoding] as const;
export const functionListQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: functionListKey(gnCoding),
    queryFn: () => call('functionList', { data: { gnCoding } }),
  });

export const tableColumnsKey = (gnCoding: string) => [...CONFIG_KEY, 'columns', gnCoding] as const;
export const tableColumnsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: tableColumnsKey(gnCoding),
    queryFn: () => call('tableColumns', { data: { gnCoding } }),
  });

export const cardStyleKey = (gnCoding: string) => [...CONFIG_KEY, 'cardStyle', gnCoding] as const;
export const cardStyleQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: cardStyleKey(gnCoding),
    queryFn: () => call('cardSetting', { data: { gnCoding } }),
  });

export const chartsKey = (gnCoding: string) => [...CONFIG_KEY, 'charts', gnCoding] as const;
export const chartsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: chartsKey(gnCoding),
    queryFn: () => call('nodeCharts', { params: { gnCoding } }),
  });

/** The numbers of a node's saved charts, from the records the caller may see. */
export const chartDataKey = (gnCoding: string) => [...CONFIG_KEY, 'chartData', gnCoding] as const;
export const chartDataQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: chartDataKey(gnCoding),
    // quiet: a node without fields (or one the caller cannot list) simply shows no charts above its list page's answer
    queryFn: () => call('nodeChartData', { data: { gnCoding }, silent: true }),
    retry: false,
  });
/** The numbers of charts not saved yet (the chart settings page's previews). */
export const chartPreviewQuery = (gnCoding: string, chart: Chart) =>
  queryOptions({
    queryKey: [...CONFIG_KEY, 'chartPreview', gnCoding, chart] as const,
    queryFn: () => call('nodeChartData', { data: { gnCoding, charts: [chart] }, silent: true }),
    staleTime: 30_000,
  });

export const styleTemplatesKey = [...CONFIG_KEY, 'styleTemplates'] as const;
export const styleTemplatesQuery = queryOptions({
  queryKey: styleTemplatesKey,
  queryFn: () => call('styleTemplates'),
});

export const noticeJumpsKey = [...CONFIG_KEY, 'noticeJumps'] as const;
export const noticeJumpsQuery = queryOptions({
  queryKey: noticeJumpsKey,
  queryFn: () => call('noticeJumps'),
});

// ── systems and display groups ──────────────────────────────────────────────

export const renameSystem = (body: SystemRenameBody, silent = true) => call('systemRename', { data: body, silent });

/** Deletes a system; the server refuses one that still has menus (its message is shown by the request client). */
export const deleteSystem = (systemCoding: string) => call('structureDel', { params: { systemCoding } });

export const createDisplayGroup = (body: { systemCoding: string; name: string; icon: string | null; sort: number }) =>
  call('displayGroupCreate', { data: body, silent: true });

export const updateDisplayGroup = (body: { id: string; name: string; icon: string | null; sort: number }) =>
  call('displayGroupUpdate', { data: body, silent: true });

export const deleteDisplayGroup = (id: string) => call('displayGroupDelete', { params: { id } });

// ── menus ───────────────────────────────────────────────────────────────────

export const addChildMenu = (body: ChildMenuBody) => call('structureChildMenu', { data: body, silent: true });
export const editMenu = (body: EditMenuBody) => call('structureEdit', { data: body, silent: true });
export const deleteMenu = (id: string) => call('structureDel', { params: { id } });
/** Answers the system's whole new tree. */
export const moveMenu = (body: MoveBody) => call('structureMove', { data: body });
export const refreshCache = () => call('cacheRefresh');

export const saveNodeFunctions = (gnCoding: string, functions: NodeFunction[]) =>
  call('saveNodeFunctions', { data: { gnCoding, functions }, silent: true });

// ── node presentation ───────────────────────────────────────────────────────

export const saveColumns = (gnCoding: string, columns: TableColumn[]) =>
  call('saveColumns', { data: { gnCoding, columns }, silent: true });

export const saveCardStyle = (gnCoding: string, cardStyle: CardStyle) =>
  call('saveCardStyle', { data: { gnCoding, cardStyle }, silent: true });

export const saveCharts = (gnCoding: string, charts: Chart[]) =>
  call('saveCharts', { data: { gnCoding, charts }, silent: true });

export const createStyleTemplate = (body: { name: string; kind: 'table' | 'card'; fromGnCoding: string }) =>
  call('styleTemplateCreate', { data: body, silent: true });

export const deleteStyleTemplate = (id: string) => call('styleTemplateDelete', { params: { id } });

export const applyStyleTemplate = (body: { id: string; gnCoding: string }) =>
  call('styleTemplateApply', { data: body });

// ── notice jumps ────────────────────────────────────────────────────────────

export const saveNoticeJump = (body: NoticeJumpBody) => call('saveNoticeJump', { data: body, silent: true });
export const deleteNoticeJump = (id: string) => call('deleteNoticeJump', { params: { id } });
