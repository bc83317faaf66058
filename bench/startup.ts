/**
 * Cold start: `npm start` on an empty data dir (dependencies installed, web app built), until the API answers.
 * Includes creating the embedded database, migrations, the demo seed and the login key pair.
 * Run: npm run bench:startup
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { machine, root, startServer } from './lib';

const runs = Number(process.env.RUNS ?? 3);
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const s = await startServer({ port: 18300 + i, viaNpmStart: true });
  times.push(s.ms);
  await s.stop();
  console.info(`run ${i + 1}: ${(s.ms / 1000).toFixed(2)} s`);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const result = {
  when: new Date().toISOString(),
  machine: machine(),
  runs: times.map((t) => Math.round(t)),
  medianMs: Math.round(median),
};
writeFileSync(path.join(root, 'bench/results/startup.json'), `${JSON.stringify(result, null, 2)}\n`);
console.info(`median cold start: ${(median / 1000).toFixed(2)} s (target < 15 s) — ${result.machine}`);
