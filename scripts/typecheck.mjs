// Type-checks every workspace with its own tsconfig (they differ in lib/jsx), two at a time: tsc uses one core, and
// the machines have two. Each project's output is printed whole when it ends, so two never interleave.
import { spawn } from 'node:child_process';
import os from 'node:os';

// the slowest first, so that the pair finishes together
const projects = ['apps/web', 'apps/server', 'e2e', 'bench', 'packages/contracts'];
const parallel = Math.max(1, Math.min(2, os.cpus().length));

function check(p) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${p}/tsconfig.json`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => {
      if (out) process.stdout.write(out);
      if (code !== 0) console.error(`typecheck failed: ${p}`);
      resolve(code === 0);
    });
  });
}

const queue = [...projects];
let failed = false;
await Promise.all(
  Array.from({ length: parallel }, async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      if (!(await check(p))) failed = true;
    }
  }),
);
process.exit(failed ? 1 : 0);
