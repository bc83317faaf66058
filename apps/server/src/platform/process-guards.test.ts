import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = path.resolve(here, '../..');

/** Run a small script in a Node process of its own (tsx for the TypeScript import). */
function runNode(source: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], {
    cwd: serverRoot,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('process guards', () => {
  it('without them, a rejection nobody handles ends the process (what the guard is for)', () => {
    const r = runNode(`Promise.reject(new Error('boom')); setTimeout(() => console.log('alive'), 200);`);
    expect(r.status).not.toBe(0);
    expect(r.stdout).not.toContain('alive');
  });

  it('with them, the rejection is logged loudly and the process keeps running', () => {
    const guards = path.join(here, 'process-guards.ts');
    const r = runNode(
      `const { installProcessGuards } = await import(${JSON.stringify(guards)});
       installProcessGuards();
       Promise.reject(new Error('boom from a floating promise'));
       setTimeout(() => { console.log('alive'); process.exit(0); }, 200);`,
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('alive');
    expect(r.stderr).toContain('UNHANDLED PROMISE REJECTION');
    expect(r.stderr).toContain('boom from a floating promise');
  });
});
