import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { users } from './db/schema';
import { createTestDatabase, usingPostgres } from './test/harness';

const serverDir = path.resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Is the process on `port` serving within `within` ms (false at once when it exits)? */
async function healthy(port: number, within: number, proc?: { exitCode: number | null }): Promise<boolean> {
  const deadline = Date.now() + within;
  while (Date.now() < deadline && proc?.exitCode == null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/ks/health`)).ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

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

describe.skipIf(!usingPostgres)('two processes started at once on an empty PostgreSQL database', () => {
  it('both come up: one seeds the demo, the other waits for it and serves the same data', async () => {
    const database = await createTestDatabase();
    try {
      const ports = [18900, 18901].map((p) => p + Math.floor(Math.random() * 40) * 2);
      const procs = ports.map((port) => start({ PORT: String(port), DATABASE_URL: database.url! }));
      try {
        const up = await Promise.all(ports.map((port, i) => healthy(port, 240_000, procs[i]!.proc)));
        expect(up, procs.map((p) => p.output()).join('\n----\n')).toEqual([true, true]);
        // exactly one printed the demo accounts (it seeded); neither crashed
        expect(procs.filter((p) => /user1\s+U/.test(p.output()))).toHaveLength(1);
        expect(procs.map((p) => p.proc.exitCode)).toEqual([null, null]);
        for (const port of ports) {
          const res = await fetch(`http://127.0.0.1:${port}/ks/portal/v1/home/overview`);
          expect(res.status).toBe(200);
        }
        // one demo dataset: each demo account once
        const [demo] = await database.db
          .select({ n: count() })
          .from(users)
          .where(inArray(users.account, ['admin', 'user1', 'dev', 'auditor']));
        expect(Number(demo!.n)).toBe(4);
      } finally {
        for (const p of procs) p.proc.kill('SIGTERM');
        expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
      }
    } finally {
      await database.close();
    }
  }, 300_000);
});
