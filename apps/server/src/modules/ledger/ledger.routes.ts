import { addDays, api, dateIn, instantOfWallClock } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import { anchorDay, anchors, verifyLedger } from './ledger';

/** How often a process makes sure yesterday's anchor is published (several processes may: it is published once). */
const ANCHOR_EVERY_MS = 3_600_000;

export interface LedgerDeps {
  db: Db;
  now: () => Date;
  tz: string;
}

/** Publishes the anchor of the day before `now` on the centre's calendar, when it is not yet. */
export async function anchorYesterday(deps: LedgerDeps) {
  const now = deps.now();
  const today = dateIn(now, deps.tz);
  return anchorDay(deps.db, addDays(today, -1), instantOfWallClock(`${today} 00:00`, deps.tz), now);
}

/**
 * The log's public verification and anchors (issue 17, Integrity), and the hourly anchoring of the day before. Public:
 * they tell only counts and hashes, never what an entry says.
 */
export function ledgerRoutes(app: FastifyInstance, deps: LedgerDeps) {
  route(app, api.ledgerVerify, async () => ({
    ...(await verifyLedger(deps.db)),
    checkedAt: deps.now().toISOString(),
  }));
  route(app, api.ledgerAnchors, async ({ query }) => ({
    records: (await anchors(deps.db, query.limit)).map((a) => ({
      day: a.day,
      seq: Number(a.seq),
      hash: a.hash,
      publishedAt: a.publishedAt.toISOString(),
    })),
  }));
  let timer: NodeJS.Timeout | null = null;
  const tick = () => {
    anchorYesterday(deps).catch((e) => app.log.warn({ err: e }, 'ledger anchor failed'));
  };
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, ANCHOR_EVERY_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
