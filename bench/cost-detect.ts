/**
 * Issue 18: pairwise similarity across `BIDDERS` (30) bidders' cost files of `LINES` (20,000) priced lines each, in a
 * worker — target < 60 s. Runs the server's detection (`detectInWorker`: each file streamed to the worker thread in
 * 1 MiB chunks and read into its digest, then every check over all of them, 435 pairs) on files made by the tests'
 * generator, kept in memory. Bidders 1 and 2 share a file and bidder 3 cuts its safety fee, so the findings are not
 * empty. Reports the time to read the files, the time of the checks, and the findings found.
 *
 * Run: npm run bench:cost-detect
 */
import os from 'node:os';
import { Readable } from 'node:stream';
import { COST_SETTINGS_DEFAULT } from '@ks/contracts';
import { detectInWorker } from '../apps/server/src/modules/cost/cost.run';
import { costXml } from '../apps/server/src/modules/cost/cost.sample';
import { machine } from './lib';

const BIDDERS = Number(process.env.BIDDERS ?? 30);
const LINES = Number(process.env.LINES ?? 20_000);

async function main() {
  const files = Array.from({ length: BIDDERS }, (_, i) => {
    const name = `山西压测建筑工程第${i + 1}有限公司`;
    const xml = Buffer.from(
      costXml({
        bidder: i === 1 ? '山西压测建筑工程第1有限公司' : name,
        seed: i === 1 ? 1001 : 1001 + i,
        linesPerUnit: Math.round(LINES / 4),
        safetyRate: i === 2 ? 0.02 : undefined,
      }),
    );
    return { file: { fileId: `f${i}`, enterpriseId: `e${i}`, enterpriseName: name, fileName: `${i}.xml` }, xml };
  });
  const mb = files.reduce((s, f) => s + f.xml.length, 0) / 1024 / 1024;
  const t0 = performance.now();
  let readAt = 0;
  const results = await detectInWorker(
    files.map((f) => ({
      file: f.file,
      open: async () =>
        Readable.from(
          Array.from({ length: Math.ceil(f.xml.length / (1 << 20)) }, (_, k) => f.xml.subarray(k << 20, (k + 1) << 20)),
        ),
    })),
    COST_SETTINGS_DEFAULT,
    (p) => {
      if (p.files === files.length && !p.pairs && !readAt) readAt = performance.now();
    },
  );
  const total = performance.now() - t0;
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: machine(),
        loadAtStart: os.loadavg()[0],
        bidders: BIDDERS,
        linesPerFile: LINES,
        pairs: results.pairs.length,
        filesMb: +mb.toFixed(1),
        readMs: +(readAt - t0).toFixed(0),
        checksMs: +(t0 + total - readAt).toFixed(0),
        totalMs: +total.toFixed(0),
        highRiskBidders: results.bidders.filter((b) => b.risk === 'high').map((b) => b.enterpriseName),
        findings: results.bidders.reduce((s, b) => s + b.findings.length, 0),
      },
      null,
      2,
    ),
  );
}

await main();
