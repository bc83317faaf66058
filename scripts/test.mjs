// `npm test`: install what is missing (Chromium and a CJK font included where it can), then every check.
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureDependencies, ensureWebBuild, root, run } from './lib.mjs';

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

/**
 * The checks, one after another, each stopping the run when it fails: the quick static ones, the web build, the unit
 * and integration suites (each keeps both cores busy), then the browser tests. The browser tests keep about one and a
 * half cores busy themselves (Chromium drawing the pages): run beside the suites on the 2-core CI machine they slowed
 * to twice their time and into timeouts, so they run alone.
 */
const head = [
  ['types', 'node', ['scripts/typecheck.mjs']],
  ['lint', 'npx', ['biome', 'ci', '.']],
  ['imports: cycles and web layers', 'node', ['scripts/check-deps.mjs']],
  ['unit: contracts', 'npx', ['vitest', 'run', '--root', 'packages/contracts']],
];
const suites = [
  ['unit: web', 'npx', ['vitest', 'run', '--root', 'apps/web']],
  ['integration: server on PGlite', 'npx', ['vitest', 'run', '--root', 'apps/server'], { TEST_DB: 'pglite' }],
];
if (process.env.TEST_DATABASE_URL) {
  suites.push([
    'integration: server on PostgreSQL',
    'npx',
    ['vitest', 'run', '--root', 'apps/server'],
    { TEST_DB: 'pg' },
  ]);
} else {
  console.info('› TEST_DATABASE_URL is not set: the PostgreSQL integration run is skipped (PGlite runs).');
}
const browser = [
  'e2e: Playwright in Chromium',
  'npx',
  ['playwright', 'test', '--config', 'e2e/playwright.config.ts'],
  { CHROMIUM_PATH: CHROMIUM },
];
const total = head.length + 1 + suites.length + 1;

const results = [];
const record = (name, ok, started) => results.push({ name, ok, s: ((Date.now() - started) / 1000).toFixed(1) });

/** Runs a step, its output going straight to the terminal. */
function runStep([name, cmd, args, env]) {
  const started = Date.now();
  console.info(`\n━━ ${name} ━━`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', (e) => console.error(String(e)));
    child.on('close', (code) => {
      record(name, code === 0, started);
      resolve(code === 0);
    });
  });
}

async function main() {
  for (const step of head) {
    if (!(await runStep(step))) return;
  }
  const started = Date.now();
  console.info('\n━━ build: web ━━');
  ensureWebBuild();
  record('build: web', true, started);
  for (const step of suites) {
    if (!(await runStep(step))) return;
  }
  await runStep(browser);
}

const runStarted = Date.now();
await main();
console.info('\n━━ summary ━━');
for (const r of results) console.info(`${r.ok ? '✔' : '✖'} ${r.name} (${r.s} s)`);
const failed = results.filter((r) => !r.ok).length;
const skipped = total - results.length;
if (skipped) console.info(`… ${skipped} step(s) not run after a failure`);
console.info(
  `steps: ${results.length - failed} passed, ${failed + skipped} failed, in ${((Date.now() - runStarted) / 60_000).toFixed(1)} min`,
);
process.exit(failed + skipped ? 1 : 0);
