// Type-checks every workspace with its own tsconfig (they differ in lib/jsx), in sequence.
import { spawnSync } from 'node:child_process';

const projects = ['packages/contracts', 'apps/server', 'apps/web', 'e2e', 'bench'];
let failed = false;
for (const p of projects) {
  const r = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${p}/tsconfig.json`], {
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    console.error(`typecheck failed: ${p}`);
    failed = true;
  }
}
process.exit(failed ? 1 : 0);
