import { createReadStream } from 'node:fs';
import {
  MATERIAL_LIMITS,
  MATERIAL_MSG,
  type MaterialHistory,
  type MaterialPeriod,
  type MaterialPricePage,
  type MaterialRowError,
  type MaterialStatus,
  materialPeriodLabel,
} from '@ks/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { materialPeriods } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import type { AuthContext } from '../auth/auth.service';
import * as repo from './material.repo';
import { checkRow, MaterialFileError, type MaterialRow, readMaterialRows } from './material.xlsx';

/**
 * 材料信息价 (issue 19). Administrators import a period of a city from xlsx as a draft — every row checked, all bad
 * rows reported, nothing written unless all are good (one transaction) — then publish, withdraw or delete it; each
 * change is an operation-log row. Developers read drafts too and change nothing. The public reads published periods.
 */
export interface MaterialDeps {
  db: Db;
  now: () => Date;
}
export interface MaterialCaller {
  loginRoleType: string;
  actor: Actor;
}
export const materialCallerOf = (auth: AuthContext): MaterialCaller => ({
  loginRoleType: auth.user.loginRoleType,
  actor: auth.actor,
});

const GL_NAME = '材料信息价';

export function requireReader(c: MaterialCaller) {
  if (c.loginRoleType !== 'M' && c.loginRoleType !== 'D') throw forbidden(MATERIAL_MSG.adminOnly);
}
export function requireManager(c: MaterialCaller) {
  if (c.loginRoleType === 'D') throw forbidden(MATERIAL_MSG.readOnly);
  if (c.loginRoleType !== 'M') throw forbidden(MATERIAL_MSG.adminOnly);
}

// --- import -------------------------------------------------------------------------------------------------------

/**
 * Reads a spooled workbook and imports it as a draft period of `city`: a 400 carrying every bad row (the first
 * MATERIAL_LIMITS.maxErrors listed, all counted) when any row is bad, and nothing written.
 */
export async function importPeriod(
  deps: MaterialDeps,
  c: MaterialCaller,
  input: { period: string; city: string; fileName: string; path: string },
): Promise<MaterialPeriod> {
  requireManager(c);
  const rows: MaterialRow[] = [];
  const errors: MaterialRowError[] = [];
  let errorCount = 0;
  const seen = new Map<string, number>();
  const fail = (e: MaterialRowError) => {
    errorCount++;
    if (errors.length < MATERIAL_LIMITS.maxErrors) errors.push(e);
  };
  try {
    await readMaterialRows(createReadStream(input.path, { highWaterMark: 256 * 1024 }), (rowNo, cells, unreadable) => {
      const r = checkRow(input.city, rowNo, cells, unreadable);
      if ('reason' in r) return fail({ row: rowNo, column: r.column, reason: r.reason });
      const key = `${r.row.county}\u0001${r.row.code}\u0001${r.row.spec}`;
      const twin = seen.get(key);
      if (twin !== undefined) return fail({ row: rowNo, column: '材料编码', reason: MATERIAL_MSG.duplicate(twin) });
      seen.set(key, rowNo);
      // once a row is bad nothing is imported: the good rows are no longer kept
      if (!errorCount) rows.push(r.row);
    });
  } catch (e) {
    if (e instanceof MaterialFileError) {
      throw badRequest(e.message, { errors: [{ row: 0, column: '', reason: e.message }], errorCount: 1 });
    }
    throw e;
  }
  if (errorCount) throw badRequest(MATERIAL_MSG.badRows(errorCount), { errors, errorCount });
  if (!rows.length) {
    throw badRequest(MATERIAL_MSG.noRows, {
      errors: [{ row: 0, column: '', reason: MATERIAL_MSG.noRows }],
      errorCount: 1,
    });
  }
  const fileName = input.fileName.replace(/^.*[\\/]/, '').slice(0, 255) || '材料信息价.xlsx';
  const id = await deps.db.transaction(async (tx) => {
    const [p] = await tx
      .insert(materialPeriods)
      .values({
        period: input.period,
        city: input.city,
        status: 'draft',
        rowCount: rows.length,
        fileName,
        importedById: c.actor.userId!,
        importedAt: deps.now(),
        updatedAt: deps.now(),
      })
      .returning({ id: materialPeriods.id });
    await repo.insertRows(tx, p!.id, rows);
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: p!.id,
      logbook: `导入${input.city}${materialPeriodLabel(input.period)}材料信息价（草稿）：${rows.length} 行，文件 ${fileName}`,
    });
    return p!.id;
  });
  return (await repo.periodById(deps.db, id))!;
}

// --- publish, withdraw, delete ------------------------------------------------------------------------------------

async function periodOr404(deps: MaterialDeps, id: string) {
  const p = await repo.periodById(deps.db, id);
  if (!p) throw notFound(MATERIAL_MSG.periodMissing);
  return p;
}

export async function publish(deps: MaterialDeps, c: MaterialCaller, id: string): Promise<MaterialPeriod> {
  requireManager(c);
  const p = await periodOr404(deps, id);
  if (p.status === 'published') throw conflict(MATERIAL_MSG.notDraft);
  try {
    await deps.db.transaction(async (tx) => {
      const done = await tx
        .update(materialPeriods)
        .set({ status: 'published', publishedAt: deps.now(), updatedAt: deps.now() })
        .where(and(eq(materialPeriods.id, id), inArray(materialPeriods.status, ['draft', 'withdrawn'])))
        .returning({ id: materialPeriods.id });
      if (!done.length) throw conflict(MATERIAL_MSG.notDraft);
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: id,
        logbook: `发布${p.city}${p.label}材料信息价（${p.rowCount} 行）`,
      });
    });
  } catch (e) {
    if (isUniqueViolation(e, 'material_periods_published_uq'))
      throw conflict(MATERIAL_MSG.publishedExists(p.label, p.city));
    throw e;
  }
  return (await repo.periodById(deps.db, id))!;
}

export async function withdraw(deps: MaterialDeps, c: MaterialCaller, id: string): Promise<MaterialPeriod> {
  requireManager(c);
  const p = await periodOr404(deps, id);
  await deps.db.transaction(async (tx) => {
    const done = await tx
      .update(materialPeriods)
      .set({ status: 'withdrawn', updatedAt: deps.now() })
      .where(and(eq(materialPeriods.id, id), eq(materialPeriods.status, 'published')))
      .returning({ id: materialPeriods.id });
    if (!done.length) throw conflict(MATERIAL_MSG.notPublished);
    await writeOpLog(tx, c.actor, { glName: GL_NAME, recordId: id, logbook: `撤回${p.city}${p.label}材料信息价` });
  });
  return (await repo.periodById(deps.db, id))!;
}

export async function remove(deps: MaterialDeps, c: MaterialCaller, id: string): Promise<null> {
  requireManager(c);
  const p = await periodOr404(deps, id);
  await deps.db.transaction(async (tx) => {
    const done = await tx
      .delete(materialPeriods)
      .where(and(eq(materialPeriods.id, id), inArray(materialPeriods.status, ['draft', 'withdrawn'])))
      .returning({ id: materialPeriods.id });
    if (!done.length) throw conflict(MATERIAL_MSG.deleteOnlyDraft);
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: id,
      logbook: `删除${p.city}${p.label}材料信息价（${MATERIAL_STATUS_TEXT[p.status]}，${p.rowCount} 行）`,
    });
  });
  return null;
}
const MATERIAL_STATUS_TEXT: Record<MaterialStatus, string> = {
  draft: '草稿',
  published: '已发布',
  withdrawn: '已撤回',
};

// --- reading ------------------------------------------------------------------------------------------------------

export const adminPeriods = (deps: MaterialDeps, c: MaterialCaller, f: Parameters<typeof repo.adminPeriods>[1]) => {
  requireReader(c);
  return repo.adminPeriods(deps.db, f);
};

type PageInput = repo.PriceFilters & {
  pageNum: number;
  pageSize: number;
  sort?: 'code' | 'name' | 'priceIn' | 'priceEx';
  order?: 'asc' | 'desc';
};

export async function adminRows(
  deps: MaterialDeps,
  c: MaterialCaller,
  f: PageInput & { periodId: string },
): Promise<MaterialPricePage> {
  requireReader(c);
  const p = await periodOr404(deps, f.periodId);
  return { ...(await repo.pricePage(deps.db, [p.id], f)), period: p };
}

/** "price" calls: the named published period of the city, or its newest (null: none is published). */
export const priceScope = (deps: MaterialDeps, s: { city: string; period?: string }) =>
  repo.publishedPeriodOf(deps.db, s.city, s.period);

export async function priceInfo(
  deps: MaterialDeps,
  f: PageInput & { city: string; period?: string },
): Promise<MaterialPricePage> {
  const p = await priceScope(deps, f);
  if (!p) return { records: [], total: 0, capped: false, period: null };
  return { ...(await repo.pricePage(deps.db, [p.id], f)), period: p };
}

export async function historyInfo(
  deps: MaterialDeps,
  f: PageInput & { city: string; from?: string; to?: string },
): Promise<MaterialPricePage> {
  const ids = await repo.publishedPeriodIds(deps.db, f.city, f.from, f.to);
  return { ...(await repo.pricePage(deps.db, ids, f)), period: null };
}

/** The period ids a "price" (one) or "history" (a range) call reads. */
export async function scopeIds(
  deps: MaterialDeps,
  kind: 'price' | 'history',
  s: { city: string; period?: string; from?: string; to?: string },
): Promise<string[]> {
  if (kind === 'price') {
    const p = await priceScope(deps, s);
    return p ? [p.id] : [];
  }
  return repo.publishedPeriodIds(deps.db, s.city, s.from, s.to);
}

export async function trend(
  deps: MaterialDeps,
  m: { city: string; county: string; code: string; spec: string },
): Promise<MaterialHistory> {
  const rows = await repo.history(deps.db, m);
  const last = rows.at(-1);
  return {
    material: last ? { code: m.code, name: last.name, spec: m.spec, unit: last.unit } : null,
    points: rows.map((r) => ({
      period: r.period,
      label: materialPeriodLabel(r.period),
      priceEx: r.priceEx,
      priceIn: r.priceIn,
    })),
  };
}

/** For the seed and the bench: a period imported straight from checked rows, as the import does. */
export async function insertPeriod(
  db: Db,
  actor: Actor,
  p: { period: string; city: string; status: MaterialStatus; fileName: string; rows: MaterialRow[]; at: Date },
): Promise<string> {
  const [row] = await db
    .insert(materialPeriods)
    .values({
      period: p.period,
      city: p.city,
      status: p.status,
      rowCount: p.rows.length,
      fileName: p.fileName,
      importedById: actor.userId!,
      importedAt: p.at,
      publishedAt: p.status === 'published' ? p.at : null,
      updatedAt: p.at,
    })
    .returning({ id: materialPeriods.id });
  await repo.insertRows(db, row!.id, p.rows);
  await writeOpLog(db, actor, {
    glName: GL_NAME,
    recordId: row!.id,
    logbook: `导入${p.city}${materialPeriodLabel(p.period)}材料信息价：${p.rows.length} 行${p.status === 'published' ? '，已发布' : ''}`,
  });
  return row!.id;
}
