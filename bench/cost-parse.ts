/**
 * Issue 18: parse a 200 MB cost XML (docs/cost-xml.md) — throughput ≥ 50 MB/s, RSS flat. The file is made once by
 * the generator the tests use (`SIZE_MB`, default 200: the dormitory's bill priced with some 1,000,000 lines) under the
 * system's temp dir; each run parses it in a fresh process (the server's reader, `parseCostXml`, reading the file as
 * a stream of 1 MiB chunks and handing every priced line to a callback that counts it) while the RSS is read every
 * 50 ms. `RUNS` (3) runs; medians.
 *
 * Run: npm run bench:cost-parse
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCostXml } from '../apps/server/src/modules/cost/cost.parse';
import { costXmlChunks } from '../apps/server/src/modules/cost/cost.sample';
import { machine } from './lib';

const SIZE_MB = Number(process.env.SIZE_MB ?? 200);
const RUNS = Number(process.env.RUNS ?? 3);
const mb = (b: number) => +(b / 1024 / 1024).toFixed(1);

async function parseOnce(file: string) {
  const rss: number[] = [process.memoryUsage().rss];
  const timer = setInterval(() => rss.push(process.memoryUsage().rss), 50);
  let lines = 0;
  const t0 = performance.now();
  const r = await parseCostXml(createReadStream(file, { highWaterMark: 1 << 20 }), { onLine: () => lines++ });
  const ms = performance.now() - t0;
  clearInterval(timer);
  rss.push(process.memoryUsage().rss);
  return {
    ms: +ms.toFixed(0),
    mbPerS: +(r.size / 1024 / 1024 / (ms / 1000)).toFixed(1),
    lines,
    rssStartMb: mb(rss[0]!),
    rssPeakMb: mb(Math.max(...rss)),
    rssEndMb: mb(rss[rss.length - 1]!),
  };
}

async function make(file: string) {
  // lines of ≈ 160 bytes, over the generator's 4 unit works
  const linesPerUnit = Math.round((SIZE_MB * 1024 * 1024) / 160 / 4);
  const out = createWriteStream(file);
  for (const chunk of costXmlChunks({ bidder: '山西压测建筑工程有限公司', seed: 11, linesPerUnit })) {
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

async function main() {
  if (process.argv[2] === 'parse') {
    console.log(JSON.stringify(await parseOnce(process.argv[3]!)));
    return;
  }
  const file = path.join(os.tmpdir(), `ks-cost-bench-${SIZE_MB}mb.xml`);
  if (!existsSync(file)) await make(file);
  const runs: Record<string, number>[] = [];
  for (let i = 0; i < RUNS; i++) {
    const r = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, 'parse', file], {
      encoding: 'utf8',
      cwd: import.meta.dirname,
    });
    if (r.status !== 0) throw new Error(r.stderr);
    runs.push(JSON.parse(r.stdout.trim().split('\n').pop()!));
  }
  const med = (k: string) => [...runs.map((x) => x[k]!)].sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine: machine(),
        loadAtStart: os.loadavg()[0],
        fileMb: mb(statSync(file).size),
        runs,
        median: { ms: med('ms'), mbPerS: med('mbPerS'), rssPeakMb: med('rssPeakMb') },
      },
      null,
      2,
    ),
  );
}

await main();
