import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { md5SlotsInFlight, stopMd5WorkerForTests, WorkerHashLost, WorkerMd5 } from './md5-worker';

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** Write `data` in pieces of the given sizes (cycled), waiting whenever the hash asks to. */
async function writeAll(h: WorkerMd5, data: Buffer, sizes: number[]) {
  let at = 0;
  for (let i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    const room = h.write(data.subarray(at, at + n));
    at += n;
    if (room) await room;
  }
}

describe('MD5 on the worker thread', () => {
  it('gives the MD5 of the bytes written, whatever the pieces (slot edges, empty pieces, one big write)', async () => {
    const data = randomBytes(3 * 1024 * 1024 + 12_345);
    const odd = new WorkerMd5();
    await writeAll(odd, data, [65_536, 1, 0, 1_048_575, 333_333, 2_000_000]);
    const whole = new WorkerMd5();
    await writeAll(whole, data, [data.length]);
    expect(await odd.digest()).toBe(md5(data));
    expect(await whole.digest()).toBe(md5(data));
    expect(await new WorkerMd5().digest()).toBe(md5(Buffer.alloc(0)));
  });

  it('copies continue from every byte written so far, independently of the original', async () => {
    const a = randomBytes(1_500_000);
    const b = randomBytes(700_000);
    const c = randomBytes(10);
    const h = new WorkerMd5();
    void h.write(a); // ends inside a slot: the copy must still see those bytes
    const copy = h.copy();
    void copy.write(b);
    void h.write(c);
    expect(await copy.digest()).toBe(md5(Buffer.concat([a, b])));
    expect(await h.digest()).toBe(md5(Buffer.concat([a, c])));
  });

  it('the bytes are copied at once: the caller may reuse its buffer right after write', async () => {
    const buf = Buffer.alloc(100_000, 1);
    const h = new WorkerMd5();
    void h.write(buf);
    buf.fill(2);
    void h.write(buf);
    expect(await h.digest()).toBe(md5(Buffer.concat([Buffer.alloc(100_000, 1), Buffer.alloc(100_000, 2)])));
  });

  it('keeps the bytes waiting for the worker bounded: a writer that gets ahead is asked to wait', async () => {
    const h = new WorkerMd5();
    const piece = randomBytes(1024 * 1024);
    let waited = 0;
    let most = 0;
    for (let i = 0; i < 40; i++) {
      const room = h.write(piece);
      most = Math.max(most, md5SlotsInFlight());
      if (room) {
        waited++;
        await room;
      }
    }
    expect(waited).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(9);
    expect(await h.digest()).toBe(md5(Buffer.concat(Array.from({ length: 40 }, () => piece))));
  });

  it('a hash whose worker stopped rejects its digest; the next hash starts a new worker', async () => {
    const h = new WorkerMd5();
    void h.write(randomBytes(2_000_000));
    await stopMd5WorkerForTests();
    expect(h.lost).toBe(true);
    expect(h.write(Buffer.from('more'))).toBeUndefined();
    await expect(h.digest()).rejects.toBeInstanceOf(WorkerHashLost);
    const copyOfLost = new WorkerMd5();
    void copyOfLost.write(Buffer.from('abc'));
    expect(await copyOfLost.digest()).toBe(md5(Buffer.from('abc')));
  });

  describe('files read by the worker', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ks-md5-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const file = (name: string, data: Buffer) => {
      const p = path.join(dir, name);
      writeFileSync(p, data);
      return p;
    };

    it('mixes files and bytes in the order given; settled() waits until the worker has read them', async () => {
      const a = randomBytes(2_500_000);
      const b = randomBytes(123);
      const c = randomBytes(1_000_000);
      const h = new WorkerMd5();
      void h.write(b);
      h.addFile(file('a', a), a.length);
      void h.write(c);
      const copy = h.copy();
      copy.addFile(file('b', b), b.length);
      await h.settled();
      rmSync(path.join(dir, 'a')); // read already: removing it changes nothing
      expect(await h.digest()).toBe(md5(Buffer.concat([b, a, c])));
      expect(await copy.digest()).toBe(md5(Buffer.concat([b, a, c, b])));
    });

    it('a file missing, or not of the size given, makes the digest reject', async () => {
      const data = randomBytes(1000);
      const missing = new WorkerMd5();
      missing.addFile(path.join(dir, 'nope'), 10);
      await expect(missing.digest()).rejects.toBeInstanceOf(WorkerHashLost);
      for (const size of [999, 1001]) {
        const wrong = new WorkerMd5();
        wrong.addFile(file('d', data), size);
        await expect(wrong.digest()).rejects.toBeInstanceOf(WorkerHashLost);
      }
    });
  });

  it('a disposed hash gives no digest', async () => {
    const h = new WorkerMd5();
    void h.write(Buffer.from('x'));
    h.dispose();
    await expect(h.digest()).rejects.toThrow(/finished/);
  });
});
