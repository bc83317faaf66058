import { Readable } from 'node:stream';
import { COST_SETTINGS_DEFAULT } from '@ks/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bidFiles, costDetections, costFiles, enterprises, tenderSections } from '../db/schema';
import { detect, digestOf } from '../modules/cost/cost.checks';
import { parseCostXml } from '../modules/cost/cost.parse';
import { costXml } from '../modules/cost/cost.sample';
import { publicity } from '../modules/cost/cost.service';
import type { EngineCaller } from '../modules/engine/record-access';
import { projects } from '../modules/tender/project';
import { writeOpLog } from '../platform/oplog';
import { newStorageKey, type Storage } from '../platform/storage';

/**
 * 造价文件检测 demo (issue 18): the three bidders of the evaluation demo (SXGC-2026-1006 BD-01) had their cost files
 * uploaded by the administrator, and a detection ran over them yesterday: two clean files, and user1's enterprise's
 * with its 安全文明施工费 priced at 2 % of 分部分项工程费 (the rate is 3 %) — flagged, medium risk. The files are
 * the generator's (docs/cost-xml.md), stored in the platform's store; the results are the checks' own, computed here as
 * the worker computes them. The administrator published the summary this morning (through the service: the bidders'
 * accounts have its message, user1 reads it at /fileAnalysis/publicity).
 */
export async function seedCostDemo(tx: Db, storage: Storage, admin: EngineCaller, seededAt = Date.now()) {
  const [project] = await projects.list(tx, { where: { xmbh: 'SXGC-2026-1006' } });
  if (!project) return;
  const [section] = await tx
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, project.id), eq(tenderSections.code, 'BD-01')));
  if (!section) return;
  const bidders = await tx
    .selectDistinct({ id: enterprises.id, name: enterprises.name })
    .from(bidFiles)
    .innerJoin(enterprises, eq(enterprises.id, bidFiles.enterpriseId))
    .where(and(eq(bidFiles.sectionId, section.id), inArray(bidFiles.status, ['sealed', 'opened'])))
    .orderBy(enterprises.name);
  if (bidders.length < 2) return;
  const uploadedAt = new Date(seededAt - 26 * 3600_000);
  const digests = [];
  const snapshot = [];
  for (const [i, b] of bidders.entries()) {
    const xml = Buffer.from(
      costXml({
        bidder: b.name,
        seed: 601 + i,
        projectCode: 'SXGC-2026-1006',
        projectName: String(project.values.xmmc ?? ''),
        building: '门诊综合楼',
        safetyRate: b.name === '示例建设工程有限公司' ? 0.02 : undefined,
      }),
    );
    const parsed = await parseCostXml(Readable.from([xml]));
    const key = newStorageKey();
    await storage.put(key, xml, xml.length, 'application/xml');
    const [row] = await tx
      .insert(costFiles)
      .values({
        sectionId: section.id,
        enterpriseId: b.id,
        fileName: `${b.name}-投标报价.xml`,
        storageKey: key,
        size: parsed.size,
        sha256: parsed.sha256,
        tree: parsed.tree,
        meta: { ...parsed.meta, standard: parsed.standard },
        bidPrice: parsed.bidPrice?.toFixed(2) ?? null,
        controlPrice: parsed.controlPrice?.toFixed(2) ?? null,
        lineCount: parsed.lineCount,
        uploadedById: admin.id,
        uploadedAt,
      })
      .returning();
    const file = { fileId: row!.id, enterpriseId: b.id, enterpriseName: b.name, fileName: row!.fileName };
    digests.push(await digestOf(Readable.from([xml]), file));
    snapshot.push({
      id: row!.id,
      enterpriseId: b.id,
      enterpriseName: b.name,
      fileName: row!.fileName,
      storageKey: key,
      sha256: parsed.sha256,
    });
  }
  const results = detect(digests, COST_SETTINGS_DEFAULT);
  const started = new Date(seededAt - 25 * 3600_000);
  await tx.insert(costDetections).values({
    sectionId: section.id,
    status: 'done',
    progress: bidders.length + 1,
    total: bidders.length + 1,
    attempts: 1,
    startedById: admin.id,
    createdAt: started,
    startedAt: started,
    finishedAt: new Date(started.getTime() + 4 * 60_000),
    files: snapshot,
    results,
  });
  await writeOpLog(tx, admin.actor, {
    glName: '造价文件检测',
    logbook: `SXGC-2026-1006 BD-01：上传 ${bidders.length} 家投标人的造价文件并完成检测`,
  });
  await publicity({ db: tx, storage, now: () => new Date(seededAt - 3 * 3600_000) }, admin, {
    sectionId: section.id,
    publish: true,
  });
}
