import { describe, expect, it } from 'vitest';
import { HashAborted, md5OfBlob } from './md5';

const text = (s: string) => new Blob([s]);

describe('md5 of a file (the hashing module the worker runs)', () => {
  it('gives the known digests (RFC 1321 test suite)', async () => {
    expect(await md5OfBlob(text(''))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(await md5OfBlob(text('a'))).toBe('0cc175b9c0f1b6a831c399e269772661');
    expect(await md5OfBlob(text('abc'))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(await md5OfBlob(text('message digest'))).toBe('f96b697d7cb7938d525a2f31aaf161d0');
    expect(
      await md5OfBlob(text('12345678901234567890123456789012345678901234567890123456789012345678901234567890')),
    ).toBe('57edf4a22be3c955ac49da2e2107b67a');
    expect(await md5OfBlob(text('The quick brown fox jumps over the lazy dog'))).toBe(
      '9e107d9d372bb6826bd81d3542a419d6',
    );
  });

  it('hashes incrementally: any slice size gives the same digest, with progress after each slice', async () => {
    const million = new Blob([new Uint8Array(1_000_000).fill(0x61)]); // one million 'a'
    const progress: number[] = [];
    const digest = await md5OfBlob(million, { sliceBytes: 65_537, onProgress: (done) => progress.push(done) });
    expect(digest).toBe('7707d6ae4e027c70eea2a935c2296f21');
    expect(progress).toHaveLength(Math.ceil(1_000_000 / 65_537));
    expect(progress.at(-1)).toBe(1_000_000);
    expect(await md5OfBlob(million)).toBe(digest);
    // UTF-8 bytes, not characters
    expect(await md5OfBlob(text('中文'))).toBe('a7bac2239fcdcb3a067903d8077c4a07');
  });

  it('stops when its signal aborts', async () => {
    const ac = new AbortController();
    const blob = new Blob([new Uint8Array(100_000)]);
    const run = md5OfBlob(blob, {
      sliceBytes: 10_000,
      signal: ac.signal,
      onProgress: (done) => {
        if (done >= 30_000) ac.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(HashAborted);
  });
});
