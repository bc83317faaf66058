// Shared set-up steps for `npm start` and `npm test`: plain Node, no dependencies (they may not be installed yet).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts, env: { ...process.env, ...opts.env } });
  if (r.error) throw r.error;
  return r.status ?? 1;
}

export function mustRun(cmd, args, opts) {
  const code = run(cmd, args, opts);
  if (code !== 0) {
    console.error(`\n✖ ${cmd} ${args.join(' ')} exited with ${code}`);
    process.exit(code);
  }
}

const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let m = s.mtimeMs;
  for (const e of readdirSync(p)) {
    if (e === 'node_modules' || e === 'dist') continue;
    m = Math.max(m, newest(path.join(p, e)));
  }
  return m;
}

/** `npm ci` when node_modules is missing or older than package-lock.json. */
export function ensureDependencies() {
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed) && mtime(installed) >= mtime(path.join(root, 'package-lock.json'))) return;
  console.info('› Installing dependencies (npm ci)…');
  mustRun('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Build the web app when dist is missing or older than its sources. */
export function ensureWebBuild({ force = false } = {}) {
  const built = mtime(path.join(root, 'apps/web/dist/index.html'));
  const sources = Math.max(
    newest(path.join(root, 'apps/web/src')),
    newest(path.join(root, 'apps/web/public')),
    mtime(path.join(root, 'apps/web/index.html')),
    mtime(path.join(root, 'apps/web/vite.config.ts')),
    newest(path.join(root, 'packages/contracts/src')),
    mtime(path.join(root, 'package-lock.json')),
  );
  if (!force && built > 0 && built >= sources) return;
  console.info('› Building the web app…');
  mustRun('npm', ['run', 'build', '-w', '@ks/web']);
}
