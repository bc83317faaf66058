// `npm run check:deps` (a step of `npm test`): no import cycle in apps/server/src and apps/web/src, and the web's
// layers (.dependency-cruiser.cjs), checked with dependency-cruiser.
// It first proves on a fixture (scripts/check-deps/fixture, laid out like the repository) that the rules still catch
// what they are for — a runtime cycle, a cycle of `import type`, a lower layer importing a feature, a feature reaching
// into another feature's internals, and not a feature using another through its index.ts — then checks the code.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const CONFIG = '.dependency-cruiser.cjs';
const FIXTURE = 'scripts/check-deps/fixture';

function cruise(paths, outputType) {
  return spawnSync(process.execPath, [CLI, '--config', CONFIG, '--output-type', outputType, ...paths], {
    cwd: root,
    encoding: 'utf8',
    stdio: outputType === 'json' ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The rule names the fixture must break, each with the modules it must name. */
const EXPECTED = [
  ['no-circular', 'server/src/cycle/records.ts', 'server/src/cycle/review.ts'],
  ['no-circular', 'web/src/engine/form.ts', 'web/src/engine/table.ts'],
  ['web-lower-layers', 'web/src/lib/format.ts', 'web/src/features/credit/CreditPage.tsx'],
  ['web-feature-internals', 'web/src/features/credit/CreditPage.tsx', 'web/src/features/orders/OrderList.tsx'],
];

function selfTest() {
  const r = cruise([FIXTURE], 'json');
  if (r.error) throw r.error;
  const violations = JSON.parse(r.stdout).summary.violations;
  const seen = violations.map(
    (v) => `${v.rule.name} ${v.from} ${v.to} ${(v.cycle ?? []).map((c) => c.name ?? c).join(' ')}`,
  );
  const problems = [];
  for (const [rule, a, b] of EXPECTED) {
    if (!seen.some((s) => s.startsWith(`${rule} `) && s.includes(a) && s.includes(b))) {
      problems.push(`not caught: ${rule} between ${a} and ${b}`);
    }
  }
  const allowed = seen.filter((s) => s.includes('features/orders/index.ts'));
  if (allowed.length) problems.push(`refused an import through a feature's index.ts: ${allowed.join('; ')}`);
  if (problems.length) {
    console.error(`✖ check:deps does not check what it should (fixture ${FIXTURE}):\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.info(`✔ the rules catch the fixture's ${EXPECTED.length} planted violations (and allow its index import)`);
}

selfTest();
const r = cruise(['apps/server/src', 'apps/web/src'], 'err-long');
if (r.error) throw r.error;
process.exit(r.status ?? 1);
