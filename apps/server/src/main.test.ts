import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function start(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'ks-main-'));
  dirs.push(dataDir);
  const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATA_DIR: dataDir, WEB_DIST: '', LOG_LEVEL: 'warn', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => {
    out += d;
  });
  proc.stderr.on('data', (d) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, exited, output: () => out };
}

describe('the server process', () => {
  it('stops at once with a clear message when the configuration is invalid', async () => {
    const s = start({ PORT: 'abc', DATABASE_URL: 'mysql://db' });
    expect(await s.exited).toBe(1);
    expect(s.output()).toContain('Invalid configuration');
    expect(s.output()).toContain('PORT');
    expect(s.output()).toContain('DATABASE_URL');
  });

  it('starts on an empty data dir, seeds and prints the demo accounts, and shuts down gracefully on SIGTERM', async () => {
    const port = 18600 + Math.floor(Math.random() * 300);
    const s = start({ PORT: String(port) });
    // a first start migrates and seeds the whole demo (every domain's data): minutes on a loaded 2-core machine
    const deadline = Date.now() + 150_000;
    let up = false;
    while (!up && Date.now() < deadline) {
      try {
        up = (await fetch(`http://127.0.0.1:${port}/ks/health`)).ok;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(up).toBe(true);
    expect(s.output()).toMatch(/admin\s+M/);
    expect(s.output()).toMatch(/user1\s+U/);
    expect(s.output()).toContain('Demo@2026');
    s.proc.kill('SIGTERM');
    expect(await s.exited).toBe(0);
  }, 180_000);
});
