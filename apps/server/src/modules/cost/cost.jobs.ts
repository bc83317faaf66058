import { COST_DETECT_MSG } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { costDetections } from '../../db/schema';
import { createDrain, keepLease } from '../../platform/drain';
import { publishEvent } from '../../platform/live';
import type { Storage } from '../../platform/storage';
import { type DetectionFile, detectInWorker } from './cost.run';
import { costSettings } from './cost.service';

/**
 * The runner of cost-file detections, one per server process (issue 18). A process takes a queued detection — or a
 * running one whose lease ran out because the process running it died — in one statement (`for update skip locked`:
 * two processes never take the same), runs it on a worker thread while renewing its lease, and writes its progress
 * and results. A detection taken more than MAX_ATTEMPTS times is failed with the reason. Progress and the end are
 * announced to whoever started it (live `cost` event).
 */
export const COST_JOB_MAX_ATTEMPTS = 3;

export interface CostRunnerDeps {
  db: Db;
  storage: Storage;
  /** how long a taken detection is its process's without a renewal (ms) */
  leaseMs?: number;
  /** how often to look for work (ms) */
  pollMs?: number;
  /** the worker (tests may replace it) */
  detect?: typeof detectInWorker;
}

type Snapshot = { id: string; enterpriseId: string; enterpriseName: string; fileName: string; storageKey: string }[];

export function createCostRunner(deps: CostRunnerDeps) {
  const { db } = deps;
  const leaseMs = deps.leaseMs ?? 30_000;
  const detect = deps.detect ?? detectInWorker;
  const lease = () => sql`now() + make_interval(secs => ${leaseMs / 1000})`;
  const announce = (row: { sectionId: string; startedById: string; id: string }) =>
    publishEvent(db, { users: [row.startedById] }, 'cost', { sectionId: row.sectionId, detectionId: row.id });

  /** Takes the oldest detection that is waiting or whose process is gone; null when there is none. */
  async function claim() {
    const rows = await db.execute(sql`
      update ${costDetections} set status = 'running', attempts = attempts + 1, lease_until = ${lease()},
        started_at = coalesce(started_at, now()), progress = 0
      where id = (
        select id from ${costDetections}
        where status = 'queued' or (status = 'running' and lease_until < now())
        order by created_at
        for update skip locked
        limit 1
      )
      returning id`);
    const id = (rows as unknown as { rows: { id: string }[] }).rows[0]?.id;
    if (!id) return null;
    const [row] = await db.select().from(costDetections).where(eq(costDetections.id, id));
    return row ?? null;
  }

  /** Writes to the detection only while this process still holds it (running, with our attempt). */
  const ours = (id: string, attempt: number) =>
    and(eq(costDetections.id, id), eq(costDetections.status, 'running'), eq(costDetections.attempts, attempt));

  async function runOne(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    if (job.attempts > COST_JOB_MAX_ATTEMPTS) {
      await db
        .update(costDetections)
        .set({
          status: 'failed',
          error: COST_DETECT_MSG.interrupted(job.attempts - 1),
          finishedAt: new Date(),
          leaseUntil: null,
        })
        .where(ours(job.id, job.attempts));
      await announce(job);
      return true;
    }
    const release = keepLease(
      () => db.update(costDetections).set({ leaseUntil: lease() }).where(ours(job.id, job.attempts)),
      leaseMs / 3,
    );
    try {
      const settings = await costSettings(db);
      const files: DetectionFile[] = (job.files as Snapshot).map((f) => ({
        file: { fileId: f.id, enterpriseId: f.enterpriseId, enterpriseName: f.enterpriseName, fileName: f.fileName },
        open: () => deps.storage.get(f.storageKey),
      }));
      let lastWrite = 0;
      const results = await detect(files, settings, (p) => {
        const now = Date.now();
        const progress = p.files + (p.pairs && p.pairs.done === p.pairs.of ? 1 : 0);
        if (now - lastWrite < 500 && !p.pairs && p.files < files.length) return;
        lastWrite = now;
        void db
          .update(costDetections)
          .set({ progress })
          .where(ours(job.id, job.attempts))
          .then(() => announce(job))
          .catch(() => undefined);
      });
      await db
        .update(costDetections)
        .set({ status: 'done', progress: job.total, results, finishedAt: new Date(), leaseUntil: null })
        .where(ours(job.id, job.attempts));
    } catch (e) {
      await db
        .update(costDetections)
        .set({ status: 'failed', error: (e as Error).message.slice(0, 1000), finishedAt: new Date(), leaseUntil: null })
        .where(ours(job.id, job.attempts))
        .catch(() => undefined);
    } finally {
      release();
    }
    await announce(job).catch(() => undefined);
    return true;
  }

  // what there is to run, one detection at a time in this process
  return createDrain('cost detection', runOne, { pollMs: deps.pollMs });
}

export type CostRunner = ReturnType<typeof createCostRunner>;
