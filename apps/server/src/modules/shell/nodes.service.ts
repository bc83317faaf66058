import {
  type CardStyle,
  type Chart,
  MENU_ICONS,
  NODE_PROPERTIES,
  type NodeFunction,
  type NodePreview,
  STANDARD_BUTTONS,
  type TableColumn,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { notFound, validationFailed } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { deleteGrantsOfOtherFunctions } from './grants.repo';
import * as repo from './nodes.repo';
import { GL, systemByCoding, systemOfNode } from './structure.service';
import { toMenuItem } from './tree';

/** A node's configuration: its functions (buttons), list columns, card style and charts, and its preview. */

export type NodeRow = repo.NodeRow;

export async function nodeById(db: Db, id: string): Promise<NodeRow> {
  const n = await repo.findNodeById(db, id);
  if (!n) throw notFound('菜单不存在');
  return n;
}

export async function nodeByCoding(db: Db, gnCoding: string): Promise<NodeRow> {
  const n = await repo.findNodeByCoding(db, gnCoding);
  if (!n) throw notFound('节点不存在');
  return n;
}

/** A function row as the pages and the grant matrix show it. */
export const toNodeFunction = (f: repo.FunctionRow): NodeFunction => ({
  code: f.code,
  name: f.name,
  color: f.color,
  show: f.show,
  kind: f.kind === 'form' ? 'form' : 'table',
});

export async function functionsOf(db: Db, nodeId: string): Promise<NodeFunction[]> {
  return (await repo.functionsOfNodes(db, [nodeId])).map(toNodeFunction);
}

export async function saveFunctions(
  db: Db,
  actor: Actor,
  gnCoding: string,
  functions: NodeFunction[],
): Promise<NodeFunction[]> {
  const codes = functions.map((f) => f.code);
  if (new Set(codes).size !== codes.length) throw validationFailed({ functions: ['按钮编码不能重复'] });
  const n = await nodeByCoding(db, gnCoding);
  await db.transaction(async (tx) => {
    await repo.replaceFunctions(tx, n.id, functions);
    // grants of removed functions go with them
    await deleteGrantsOfOtherFunctions(tx, n.id, codes);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding,
      recordId: n.id,
      logbook: `保存按钮：${functions.map((f) => `${f.name}(${f.code})`).join('、') || '无'}`,
    });
  });
  return functionsOf(db, n.id);
}

/** The nodes of a system that have functions, with how many. */
export async function functionNodes(db: Db, systemCoding: string) {
  const s = await systemByCoding(db, systemCoding);
  return repo.nodesWithFunctions(db, s.id);
}

export const standardButtons = (): NodeFunction[] =>
  STANDARD_BUTTONS.map((b) => ({ code: b.code, name: b.name, color: b.color, show: true, kind: b.kind }));
export const menuIcons = (): string[] => [...MENU_ICONS];
export const nodePropertyOptions = () => NODE_PROPERTIES.map((p) => ({ label: p.label, value: p.value }));

export function columnsOf(n: NodeRow): TableColumn[] {
  return Array.isArray(n.columns) ? (n.columns as TableColumn[]) : [];
}
export function cardStyleOf(n: NodeRow): CardStyle | null {
  return (n.cardStyle as CardStyle | null) ?? null;
}
export function chartsOf(n: NodeRow): Chart[] {
  return Array.isArray(n.charts) ? (n.charts as Chart[]) : [];
}

export async function preview(db: Db, gnCoding: string): Promise<NodePreview> {
  const n = await nodeByCoding(db, gnCoding);
  const s = await systemOfNode(db, n);
  return {
    node: toMenuItem(n, s.gnCoding),
    systemName: s.systemName,
    functions: await functionsOf(db, n.id),
    columns: columnsOf(n),
    cardStyle: cardStyleOf(n),
    charts: chartsOf(n),
  };
}

/** Saves a node's list columns, card style or charts; `what` names the change in the log. */
export async function saveNodeJson(
  db: Db,
  actor: Actor,
  gnCoding: string,
  patch: { columns?: TableColumn[]; cardStyle?: CardStyle; charts?: Chart[] },
  what: string,
): Promise<NodeRow> {
  const n = await nodeByCoding(db, gnCoding);
  return db.transaction(async (tx) => {
    const u = await repo.updateNode(tx, n.id, patch);
    await writeOpLog(tx, actor, { glName: GL, gnCoding, recordId: n.id, logbook: `${what}：${n.title}` });
    return u;
  });
}
