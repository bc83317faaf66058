import { createReadStream } from 'node:fs';
import {
  COST_DETECT_MSG,
  COST_MSG,
  COST_OWN_CHECKS,
  COST_RISK_LABELS,
  COST_SETTINGS_DEFAULT,
  type CostAchievement,
  type CostDetection,
  type CostDirectoriesQuery,
  type CostFileMeta,
  type CostFileRow,
  type CostFinding,
  type CostParseData,
  type CostPublicity,
  type CostPublish,
  type CostResults,
  type CostSettings,
  type CostStatus,
  type CostTreeRow,
  costSettingsSchema,
} from '@ks/contracts';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { bidFiles, costDetections, costFiles, enterprises, tenderSections, users } from '../../db/schema';
import { isUniqueViolation } from '../../db/sql';
import { badRequest, conflict, forbidden, notFound } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { writeOpLog } from '../../platform/oplog';
import { getSetting, putSetting } from '../../platform/settings';
import { newStorageKey, type Storage } from '../../platform/storage';
import type { EngineCaller } from '../engine/record-access';
import type { Spooled } from '../files/multipart';
import { sendUserMessages } from '../messages/send';
import { projects } from '../tender/project';
import { sectionOr404 } from '../tender/section.repo';
import { COST_CONTENT_TYPE, costFormatOf, parseCost } from './cost.read';

/** The publicity page of a section (the bidders' message links there). */
export const costPublicityHref = (sectionId: string) => `/fileAnalysis/publicity?sectionId=${sectionId}`;

/**
 * 造价文件检测 (issue 18): the centre's administrators upload each bidder's cost file for a section (read through the
 * parser as it is stored: a file that does not parse is refused with its line), start a detection — a job any server
 * process runs on a worker thread (cost.jobs.ts) — follow its progress, and read its findings per bidder and per pair.
 * Developers read everything and change nothing; nobody else sees it.
 */
export interface CostDeps {
  db: Db;
  storage: Storage;
  now: () => Date;
  /** wake this process's job runner (a new detection was queued) */
  kick?: () => void;
}
export type CostCaller = EngineCaller;

const GL_NAME = '造价文件检测';
export const COST_SETTINGS_KEY = 'cost.detection';

export async function costSettings(db: Db): Promise<CostSettings> {
  const raw = await getSetting(db, COST_SETTINGS_KEY);
  if (!raw) return { ...COST_SETTINGS_DEFAULT };
  try {
    const parsed = costSettingsSchema.safeParse({ ...COST_SETTINGS_DEFAULT, ...JSON.parse(raw) });
    return parsed.success ? parsed.data : { ...COST_SETTINGS_DEFAULT };
  } catch {
    return { ...COST_SETTINGS_DEFAULT };
  }
}

function requireReader(c: CostCaller) {
  if (c.loginRoleType !== 'M' && c.loginRoleType !== 'D') throw forbidden(COST_DETECT_MSG.adminOnly);
}
export function requireManager(c: CostCaller) {
  if (c.loginRoleType === 'D') throw forbidden(COST_DETECT_MSG.readOnly);
  if (c.loginRoleType !== 'M') throw forbidden(COST_DETECT_MSG.adminOnly);
}

type DetectionRow = typeof costDetections.$inferSelect;
type FileRow = typeof costFiles.$inferSelect;
const num = (v: string | null) => (v === null ? null : Number(v));

async function sectionOf(db: Db, sectionId: string) {
  const s = await sectionOr404(db, sectionId, COST_DETECT_MSG.sectionMissing);
  const p = await projects.get(db, s.projectId);
  return {
    id: s.id,
    code: s.code,
    name: s.name,
    projectName: String(p?.values.xmmc ?? ''),
    bidDeadline: s.bidDeadline,
  };
}

async function fileRows(q: DbOrTx, where: ReturnType<typeof eq>) {
  return q
    .select({ f: costFiles, enterpriseName: enterprises.name, uploadedByName: users.userName })
    .from(costFiles)
    .innerJoin(enterprises, eq(enterprises.id, costFiles.enterpriseId))
    .innerJoin(users, eq(users.id, costFiles.uploadedById))
    .where(where)
    .orderBy(costFiles.uploadedAt);
}

const fileOut = (r: { f: FileRow; enterpriseName: string; uploadedByName: string }): CostFileRow => ({
  id: r.f.id,
  enterpriseId: r.f.enterpriseId,
  enterpriseName: r.enterpriseName,
  fileName: r.f.fileName,
  size: r.f.size,
  sha256: r.f.sha256,
  bidPrice: num(r.f.bidPrice),
  controlPrice: num(r.f.controlPrice),
  lineCount: r.f.lineCount,
  uploadedAt: r.f.uploadedAt.toISOString(),
  uploadedByName: r.uploadedByName,
});

const activeDetection = async (q: DbOrTx, sectionId: string) =>
  (
    await q
      .select({ id: costDetections.id })
      .from(costDetections)
      .where(and(eq(costDetections.sectionId, sectionId), inArray(costDetections.status, ['queued', 'running'])))
  )[0] ?? null;

async function latestDetection(q: DbOrTx, sectionId: string) {
  const [d] = await q
    .select({ d: costDetections, startedByName: users.userName })
    .from(costDetections)
    .innerJoin(users, eq(users.id, costDetections.startedById))
    .where(eq(costDetections.sectionId, sectionId))
    .orderBy(desc(costDetections.createdAt))
    .limit(1);
  return d ?? null;
}

function detectionOut(d: { d: DetectionRow; startedByName: string }, files: { f: FileRow }[]): CostDetection {
  const snapshot = new Map((d.d.files as { id: string; sha256: string }[]).map((f) => [f.id, f.sha256]));
  const stale = files.length !== snapshot.size || files.some((f) => snapshot.get(f.f.id) !== f.f.sha256);
  return {
    id: d.d.id,
    status: d.d.status as CostDetection['status'],
    progress: d.d.progress,
    total: d.d.total,
    attempts: d.d.attempts,
    createdAt: d.d.createdAt.toISOString(),
    startedAt: d.d.startedAt?.toISOString() ?? null,
    finishedAt: d.d.finishedAt?.toISOString() ?? null,
    error: d.d.error,
    publishedAt: d.d.publishedAt?.toISOString() ?? null,
    startedByName: d.startedByName,
    stale,
  };
}

/** /ks/file/directories: the sections with bids or cost files, latest deadline first, with their detection. */
export async function directories(deps: CostDeps, c: CostCaller, q: CostDirectoriesQuery) {
  requireReader(c);
  const { db } = deps;
  const having = sql`(exists (select 1 from ${bidFiles} b where b.section_id = ${tenderSections.id} and b.status = 'sealed')
    or exists (select 1 from ${costFiles} f where f.section_id = ${tenderSections.id}))`;
  const kw = q.keyWord ? `%${q.keyWord.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const where = kw
    ? and(having, sql`(${tenderSections.code} ilike ${kw} or ${tenderSections.name} ilike ${kw})`)
    : having;
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(tenderSections).where(where)) as [
    { n: number },
  ];
  const rows = await db
    .select()
    .from(tenderSections)
    .where(where)
    .orderBy(desc(tenderSections.bidDeadline), tenderSections.id)
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const list = [];
  for (const s of rows) {
    const p = await projects.get(db, s.projectId);
    const files = await db.select({ f: costFiles }).from(costFiles).where(eq(costFiles.sectionId, s.id));
    const d = await latestDetection(db, s.id);
    list.push({
      sectionId: s.id,
      code: s.code,
      name: s.name,
      projectName: String(p?.values.xmmc ?? ''),
      bidDeadline: s.bidDeadline.toISOString(),
      files: files.length,
      detection: d ? detectionOut(d, files) : null,
    });
  }
  return { records: list, total: n };
}

/** /ks/file/status: a section's cost files, its bidders, and its latest detection with progress. */
export async function status(deps: CostDeps, c: CostCaller, sectionId: string): Promise<CostStatus> {
  requireReader(c);
  const { db } = deps;
  const section = await sectionOf(db, sectionId);
  const files = await fileRows(db, eq(costFiles.sectionId, sectionId));
  const sealed = await db
    .selectDistinct({ id: enterprises.id, name: enterprises.name })
    .from(bidFiles)
    .innerJoin(enterprises, eq(enterprises.id, bidFiles.enterpriseId))
    .where(and(eq(bidFiles.sectionId, sectionId), inArray(bidFiles.status, ['sealed', 'opened'])));
  const bidders = new Map(sealed.map((b) => [b.id, b.name]));
  for (const f of files) bidders.set(f.f.enterpriseId, f.enterpriseName);
  const has = new Set(files.map((f) => f.f.enterpriseId));
  const d = await latestDetection(db, sectionId);
  return {
    section: { id: section.id, code: section.code, name: section.name, projectName: section.projectName },
    files: files.map(fileOut),
    bidders: [...bidders].map(([enterpriseId, name]) => ({ enterpriseId, name, hasFile: has.has(enterpriseId) })),
    detection: d ? detectionOut(d, files) : null,
    canManage: c.loginRoleType === 'M',
  };
}

/**
 * Takes a bidder's cost file for a section (spooled by the route): parsed first — a file that does not parse is
 * refused, naming its line — then stored under a generated key; it replaces the bidder's earlier file.
 */
export async function upload(
  deps: CostDeps,
  c: CostCaller,
  input: { sectionId: string; enterpriseId: string; fileName: string; spooled: Spooled },
): Promise<CostStatus> {
  requireManager(c);
  const { db, storage } = deps;
  await sectionOr404(db, input.sectionId, COST_DETECT_MSG.sectionMissing);
  const [ent] = await db.select().from(enterprises).where(eq(enterprises.id, input.enterpriseId));
  if (!ent) throw notFound(COST_DETECT_MSG.enterpriseMissing);
  // a running detection reads the stored files it was started with: none is replaced under it
  if (await activeDetection(db, input.sectionId)) throw conflict(COST_DETECT_MSG.running);
  const format = costFormatOf(input.fileName);
  if (!format) throw badRequest(COST_MSG.wrongType, { fieldErrors: { file: [COST_MSG.wrongType] } });
  const parsed = await parseCost(createReadStream(input.spooled.path, { highWaterMark: 1 << 20 }), format);
  const key = newStorageKey();
  await storage.putFile(key, input.spooled.path, input.spooled.size, COST_CONTENT_TYPE[format]);
  const fileName = input.fileName.replace(/[\\/]/g, '_').slice(0, 255);
  const values = {
    fileName,
    storageKey: key,
    size: parsed.size,
    sha256: parsed.sha256,
    tree: parsed.tree,
    meta: { ...parsed.meta, standard: parsed.standard },
    bidPrice: parsed.bidPrice === null ? null : parsed.bidPrice.toFixed(2),
    controlPrice: parsed.controlPrice === null ? null : parsed.controlPrice.toFixed(2),
    lineCount: parsed.lineCount,
    uploadedById: c.id,
    uploadedAt: deps.now(),
  };
  let replaced: string | null = null;
  try {
    await db.transaction(async (tx) => {
      const [old] = await tx
        .select()
        .from(costFiles)
        .where(and(eq(costFiles.sectionId, input.sectionId), eq(costFiles.enterpriseId, input.enterpriseId)))
        .for('update');
      // checked again under the row lock: a detection started meanwhile keeps its files
      if (await activeDetection(tx, input.sectionId)) throw conflict(COST_DETECT_MSG.running);
      if (old) {
        replaced = old.storageKey;
        await tx.update(costFiles).set(values).where(eq(costFiles.id, old.id));
      } else {
        await tx.insert(costFiles).values({ ...values, sectionId: input.sectionId, enterpriseId: input.enterpriseId });
      }
    });
  } catch (e) {
    await storage.delete(key).catch(() => undefined);
    if (isUniqueViolation(e)) throw conflict('该投标人的造价文件正在上传，请稍后重试');
    throw e;
  }
  if (replaced) await storage.delete(replaced).catch(() => undefined);
  await writeOpLog(db, c.actor, {
    glName: GL_NAME,
    logbook: `上传${ent.name}的造价文件「${fileName}」（${parsed.lineCount} 条清单，SHA-256 ${parsed.sha256.slice(0, 12)}…）`,
  });
  return status(deps, c, input.sectionId);
}

/**
 * /ks/file/detection: queues a detection of the section's cost files (two or more). While one is queued or running,
 * a second start answers that one (a partial unique index: two starts at once give one job).
 */
export async function start(deps: CostDeps, c: CostCaller, sectionId: string): Promise<CostStatus> {
  requireManager(c);
  const { db } = deps;
  await sectionOr404(db, sectionId, COST_DETECT_MSG.sectionMissing);
  const files = await fileRows(db, eq(costFiles.sectionId, sectionId));
  if (files.length < 2) throw conflict(COST_DETECT_MSG.tooFew);
  const snapshot = files.map((f) => ({
    id: f.f.id,
    enterpriseId: f.f.enterpriseId,
    enterpriseName: f.enterpriseName,
    fileName: f.f.fileName,
    storageKey: f.f.storageKey,
    sha256: f.f.sha256,
  }));
  let created = false;
  try {
    await db.transaction(async (tx) => {
      await tx.insert(costDetections).values({
        sectionId,
        total: files.length + 1,
        startedById: c.id,
        files: snapshot,
      });
      await publishEvent(tx, { users: [c.id] }, 'cost', { sectionId });
    });
    created = true;
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
  if (created) {
    await writeOpLog(db, c.actor, { glName: GL_NAME, logbook: `发起造价文件检测（${files.length} 家投标人）` });
    deps.kick?.();
  }
  return status(deps, c, sectionId);
}

/** /ks/file/achievement: the findings of the section's latest finished detection. */
export async function achievement(deps: CostDeps, c: CostCaller, sectionId: string): Promise<CostAchievement> {
  requireReader(c);
  const { db } = deps;
  await sectionOr404(db, sectionId, COST_DETECT_MSG.sectionMissing);
  const [d] = await db
    .select({ d: costDetections, startedByName: users.userName })
    .from(costDetections)
    .innerJoin(users, eq(users.id, costDetections.startedById))
    .where(and(eq(costDetections.sectionId, sectionId), eq(costDetections.status, 'done')))
    .orderBy(desc(costDetections.createdAt))
    .limit(1);
  if (!d) throw notFound(COST_DETECT_MSG.notDone);
  const files = await db.select({ f: costFiles }).from(costFiles).where(eq(costFiles.sectionId, sectionId));
  return { detection: detectionOut(d, files), results: d.d.results as CostResults };
}

/** /ks/file/detection/score: the similarity of every pair of the latest finished detection, as a matrix. */
export async function score(deps: CostDeps, c: CostCaller, sectionId: string) {
  const { results } = await achievement(deps, c, sectionId);
  const files = results.bidders.map((b) => ({ id: b.fileId, enterpriseName: b.enterpriseName }));
  const at = new Map(files.map((f, i) => [f.id, i]));
  const matrix: number[][] = files.map((_, i) => files.map((__, j) => (i === j ? 100 : 0)));
  for (const p of results.pairs) {
    const i = at.get(p.a);
    const j = at.get(p.b);
    if (i === undefined || j === undefined) continue;
    matrix[i]![j] = p.score;
    matrix[j]![i] = p.score;
  }
  return { files, score: matrix };
}

/** /ks/file/parse-data: one cost file's tree (the detail page). */
export async function parseData(deps: CostDeps, c: CostCaller, id: string): Promise<CostParseData> {
  requireReader(c);
  const [r] = await fileRows(deps.db, eq(costFiles.id, id));
  if (!r) throw notFound(COST_DETECT_MSG.fileMissing);
  const { standard, ...meta } = r.f.meta as CostFileMeta & { standard: string };
  return { file: fileOut(r), sectionId: r.f.sectionId, standard, meta, tree: r.f.tree as CostTreeRow[] };
}

async function latestDone(q: DbOrTx, sectionId: string, publishedOnly = false) {
  const [d] = await q
    .select({ d: costDetections, startedByName: users.userName })
    .from(costDetections)
    .innerJoin(users, eq(users.id, costDetections.startedById))
    .where(
      and(
        eq(costDetections.sectionId, sectionId),
        eq(costDetections.status, 'done'),
        publishedOnly ? isNotNull(costDetections.publishedAt) : undefined,
      ),
    )
    .orderBy(desc(costDetections.createdAt))
    .limit(1);
  return d ?? null;
}

/** The permitted summary of a finished detection; `own`: the reader's enterprise, whose file's findings it shows. */
function summaryOf(
  section: Awaited<ReturnType<typeof sectionOf>>,
  d: DetectionRow,
  own: string | null,
  canManage: boolean,
): CostPublicity {
  const results = d.results as CostResults;
  const names = new Map(results.bidders.map((b) => [b.fileId, b.enterpriseName]));
  const mine = own ? results.bidders.find((b) => b.enterpriseId === own) : undefined;
  return {
    section: { id: section.id, code: section.code, name: section.name, projectName: section.projectName },
    detectionId: d.id,
    finishedAt: (d.finishedAt ?? d.createdAt).toISOString(),
    publishedAt: d.publishedAt?.toISOString() ?? null,
    settings: results.settings,
    bidders: results.bidders.map((b) => {
      const counts = new Map<CostFinding['check'], number>();
      for (const f of b.findings) counts.set(f.check, (counts.get(f.check) ?? 0) + 1);
      return {
        enterpriseName: b.enterpriseName,
        risk: b.findings.length ? b.risk : 'low',
        checks: [...counts].map(([check, count]) => ({ check, count })),
      };
    }),
    pairs: results.pairs
      .filter((p) => p.findings.length)
      .map((p) => ({
        a: names.get(p.a) ?? '',
        b: names.get(p.b) ?? '',
        score: p.score,
        risk: p.risk,
        checks: [...new Set(p.findings.map((f) => f.check))],
      })),
    own: mine
      ? {
          enterpriseName: mine.enterpriseName,
          risk: mine.risk,
          findings: mine.findings.filter((f) => COST_OWN_CHECKS.includes(f.check)),
        }
      : null,
    canManage,
  };
}

/**
 * /ks/file/publicity: an administrator publishes the summary of the section's latest finished detection (one
 * publication a section: an earlier one is replaced), or withdraws it. Refused while a detection runs, and when a
 * file was replaced after the detection began (its results would not be the files'). The bidders' accounts are told.
 */
export async function publicity(deps: CostDeps, c: CostCaller, input: CostPublish): Promise<CostPublicity> {
  requireManager(c);
  const { db } = deps;
  const section = await sectionOf(db, input.sectionId);
  const now = deps.now();
  const row = await db.transaction(async (tx) => {
    // one decision at a time per section: the section's detections are locked in order
    await tx
      .select({ id: costDetections.id })
      .from(costDetections)
      .where(eq(costDetections.sectionId, input.sectionId))
      .orderBy(costDetections.id)
      .for('update');
    if (await activeDetection(tx, input.sectionId)) throw conflict(COST_DETECT_MSG.running);
    if (!input.publish) {
      const published = await latestDone(tx, input.sectionId, true);
      if (!published) throw conflict(COST_DETECT_MSG.notPublished);
      const [out] = await tx
        .update(costDetections)
        .set({ publishedAt: null })
        .where(eq(costDetections.id, published.d.id))
        .returning();
      await writeOpLog(tx, c.actor, {
        glName: GL_NAME,
        recordId: published.d.id,
        logbook: `撤回${section.code} ${section.name}的造价文件检测结果公示`,
      });
      return out!;
    }
    const d = await latestDone(tx, input.sectionId);
    if (!d) throw notFound(COST_DETECT_MSG.notDone);
    if (d.d.publishedAt) throw conflict(COST_DETECT_MSG.alreadyPublished);
    const files = await tx.select({ f: costFiles }).from(costFiles).where(eq(costFiles.sectionId, input.sectionId));
    if (detectionOut(d, files).stale) throw conflict(COST_DETECT_MSG.staleResults);
    await tx
      .update(costDetections)
      .set({ publishedAt: null })
      .where(and(eq(costDetections.sectionId, input.sectionId), isNotNull(costDetections.publishedAt)));
    const [out] = await tx
      .update(costDetections)
      .set({ publishedAt: now })
      .where(eq(costDetections.id, d.d.id))
      .returning();
    const results = d.d.results as CostResults;
    const ents = [...new Set(results.bidders.map((b) => b.enterpriseId))];
    const accounts = ents.length
      ? await tx
          .select({ userId: users.id, enterpriseId: users.enterpriseId })
          .from(users)
          .where(and(inArray(users.enterpriseId, ents), eq(users.status, 'active')))
      : [];
    const riskOf = new Map(results.bidders.map((b) => [b.enterpriseId, b.findings.length ? b.risk : null]));
    await sendUserMessages(
      tx,
      accounts.map((u) => {
        const risk = riskOf.get(u.enterpriseId ?? '') ?? null;
        return {
          userId: u.userId,
          kind: 'admin' as const,
          title: `造价文件检测结果公示：${section.code} ${section.name}`,
          body: `${section.projectName} ${section.code} ${section.name} 的造价文件检测结果摘要已公示。贵单位造价文件的检测结论：${risk ? COST_RISK_LABELS[risk] : '未发现问题'}。请在公示页查看详情；如有异议，请与交易中心联系。`,
          link: costPublicityHref(section.id),
          createdAt: now,
        };
      }),
    );
    await publishEvent(tx, { users: [c.id] }, 'cost', { sectionId: input.sectionId });
    await writeOpLog(tx, c.actor, {
      glName: GL_NAME,
      recordId: d.d.id,
      logbook: `公示${section.code} ${section.name}的造价文件检测结果摘要（${results.bidders.length} 家投标人，通知 ${accounts.length} 个账号）`,
    });
    return out!;
  });
  return summaryOf(section, row, null, true);
}

/**
 * /ks/file/publicity/summary: administrators and developers preview the summary of the latest finished detection
 * (published or not); a bidder of the detection reads the published one, with its own file's findings; anyone else 403.
 */
export async function publicitySummary(deps: CostDeps, c: CostCaller, sectionId: string): Promise<CostPublicity> {
  const { db } = deps;
  const section = await sectionOf(db, sectionId);
  if (c.loginRoleType === 'M' || c.loginRoleType === 'D') {
    const d = await latestDone(db, sectionId);
    if (!d) throw notFound(COST_DETECT_MSG.notDone);
    return summaryOf(section, d.d, null, c.loginRoleType === 'M');
  }
  const d = await latestDone(db, sectionId, true);
  const ent = c.enterpriseId;
  if (d && ent && (d.d.results as CostResults).bidders.some((b) => b.enterpriseId === ent)) {
    return summaryOf(section, d.d, ent, false);
  }
  // a bidder with a file on the section hears that nothing is published yet; anyone else the same refusal, whether
  // or not there is a publication
  const [hasFile] = ent
    ? await db
        .select({ id: costFiles.id })
        .from(costFiles)
        .where(and(eq(costFiles.sectionId, sectionId), eq(costFiles.enterpriseId, ent)))
    : [];
  if (hasFile) throw notFound(COST_DETECT_MSG.notPublished);
  throw forbidden(COST_DETECT_MSG.publicityDenied);
}

/** /ks/file/detection/settings: the thresholds the next detection uses, with the platform's defaults. */
export async function settingsOf(deps: CostDeps, c: CostCaller) {
  requireReader(c);
  return { settings: await costSettings(deps.db), defaults: COST_SETTINGS_DEFAULT };
}

export async function saveSettings(deps: CostDeps, c: CostCaller, s: CostSettings): Promise<CostSettings> {
  requireManager(c);
  await putSetting(deps.db, COST_SETTINGS_KEY, JSON.stringify(s));
  await writeOpLog(deps.db, c.actor, {
    glName: GL_NAME,
    logbook: `保存检测参数：安全文明施工费不低于 ${(s.safetyRateMin * 100).toFixed(2)}%，规费不低于 ${(s.feeRateMin * 100).toFixed(2)}%，综合单价偏低 ${s.lowPricePct}% / 偏高 ${s.highPricePct}%，报价雷同 ${s.similarPct}%，投标总价偏低 ${s.lowTotalPct}%`,
  });
  return s;
}
