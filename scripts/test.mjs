// `npm test`: install what is missing (Chromium and a CJK font included where it can), then every check.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDependencies, ensureWebBuild, run } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function hasCjkFont() {
  try {
    return /wqy|noto.*cjk|droid.*fallback/i.test(
      execSync('fc-list', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    );
  } catch {
    return false;
  }
}

function ensureBrowser() {
  if (existsSync(CHROMIUM) && hasCjkFont()) return;
  const isDebian = existsSync('/etc/debian_version');
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const cmd = 'apt-get update && apt-get install -y chromium fonts-wqy-microhei';
  if (isDebian && isRoot) {
    console.info(`› Installing Chromium and a CJK font (${cmd})…`);
    if (run('sh', ['-c', `DEBIAN_FRONTEND=noninteractive ${cmd}`]) === 0 && existsSync(CHROMIUM)) return;
    console.error('✖ Installing Chromium failed.');
    process.exit(1);
  }
  console.error(
    `✖ The browser tests need Chromium at ${CHROMIUM} and a CJK font. Install them, then run npm test again:\n\n    sudo ${cmd}\n\n(or set CHROMIUM_PATH to your Chromium binary)`,
  );
  process.exit(1);
}

ensureDependencies();
ensureBrowser();

const steps = [
  ['types', 'node', ['scripts/typecheck.mjs']],
  ['lint', 'npx', ['biome', 'ci', '.']],
  ['imports: cycles and web layers', 'node', ['scripts/check-deps.mjs']],
  ['unit: contracts', 'npx', ['vitest', 'run', '--root', 'packages/contracts']],
  ['unit: web', 'npx', ['vitest', 'run', '--root', 'apps/web']],
  ['integration: server on PGlite', 'npx', ['vitest', 'run', '--root', 'apps/server'], { TEST_DB: 'pglite' }],
];
if (process.env.TEST_DATABASE_URL) {
  steps.push([
    'integration: server on PostgreSQL',
    'npx',
    ['vitest', 'run', '--root', 'apps/server'],
    { TEST_DB: 'pg' },
  ]);
} else {
  console.info('› TEST_DATABASE_URL is not set: the PostgreSQL integration run is skipped (PGlite runs).');
}
steps.push(['build: web', null, null]);
steps.push([
  'e2e: Playwright in Chromium',
  'npx',
  ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
  { CHROMIUM_PATH: CHROMIUM },
]);

const results = [];
for (const [name, cmd, args, env] of steps) {
  console.info(`\n━━ ${name} ━━`);
  const started = Date.now();
  let code;
  if (cmd === null) {
    ensureWebBuild();
    code = 0;
  } else {
    code = run(cmd, args, { env });
  }
  results.push({ name, ok: code === 0, s: ((Date.now() - started) / 1000).toFixed(1) });
  if (code !== 0) break;
}

console.info('\n━━ summary ━━');
for (const r of results) console.info(`${r.ok ? '✔' : '✖'} ${r.name} (${r.s} s)`);
const skipped = steps.length - results.length;
if (skipped) console.info(`… ${skipped} step(s) not run after the failure`);
const failed = results.filter((r) => !r.ok).length;
console.info(`steps: ${results.length - failed} passed, ${failed + skipped} failed`);
process.exit(failed + skipped ? 1 : 0);
