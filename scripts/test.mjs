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
 * The checks. The quick static ones run first, in order, and stop the run at the first failure. Then two lanes run at
 * the same time: the browser tests (mostly waiting on pages and servers: about a fifth of the machine's CPU) beside the
 * unit and integration suites (which keep the cores busy): on the 2-core CI machine this halves the wall time. The
 * browser lane prints as it goes; the other lane's steps print each as a block when it ends.
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

/** Runs a step; with `quiet` its output is kept and printed as one block when it ends. */
function runStep([name, cmd, args, env], quiet) {
  const started = Date.now();
  if (!quiet) console.info(`\n━━ ${name} ━━`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const out = [];
    if (quiet) {
      child.stdout.on('data', (d) => out.push(d));
      child.stderr.on('data', (d) => out.push(d));
    }
    child.on('error', (e) => out.push(Buffer.from(String(e))));
    child.on('close', (code) => {
      if (quiet) {
        process.stdout.write(`\n━━ ${name} ━━\n`);
        process.stdout.write(Buffer.concat(out));
      }
      record(name, code === 0, started);
      resolve(code === 0);
    });
  });
}

async function main() {
  for (const step of head) {
    if (!(await runStep(step, false))) return;
  }
  const started = Date.now();
  console.info('\n━━ build: web ━━');
  ensureWebBuild();
  record('build: web', true, started);
  const suiteLane = (async () => {
    for (const step of suites) {
      if (!(await runStep(step, true))) return;
    }
  })();
  await Promise.all([runStep(browser, false), suiteLane]);
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
