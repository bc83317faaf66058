import { Readable } from 'node:stream';
import { COST_SETTINGS_DEFAULT } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import { detect, digestOf } from './cost.checks';
import { type DetectionProgress, detectInWorker } from './cost.run';
import { costXml } from './cost.sample';

const files = [
  { bidder: '山西建工集团有限公司', seed: 41 },
  { bidder: '山西四建集团有限公司', seed: 42 },
  { bidder: '山西四建集团有限公司', seed: 42 },
].map((o, i) => ({
  file: { fileId: `f${i}`, enterpriseId: `e${i}`, enterpriseName: `投标人${i + 1}`, fileName: `${i}.xml` },
  xml: Buffer.from(costXml(o)),
}));
// small chunks: many round trips to the worker
const stream = (b: Buffer) =>
  Readable.from(Array.from({ length: Math.ceil(b.length / 4096) }, (_, i) => b.subarray(i * 4096, (i + 1) * 4096)));

describe('detectInWorker', () => {
  it('answers on a worker thread what the checks answer in process, reporting progress', async () => {
    const progress: DetectionProgress[] = [];
    const r = await detectInWorker(
      files.map((f) => ({ file: f.file, open: async () => stream(f.xml) })),
      COST_SETTINGS_DEFAULT,
      (p) => progress.push(p),
    );
    const here = detect(await Promise.all(files.map((f) => digestOf(stream(f.xml), f.file))), COST_SETTINGS_DEFAULT);
    expect(r).toEqual(here);
    expect(r.bidders.map((b) => b.risk)).toEqual(['low', 'high', 'high']);
    expect(progress.slice(0, 3)).toEqual([1, 2, 3].map((n) => ({ files: n, pairs: null })));
    expect(progress.at(-1)).toEqual({ files: 3, pairs: { done: 3, of: 3 } });
  });

  it('fails with the bidder named when a stored file cannot be read', async () => {
    const bad = [files[0]!, { ...files[1]!, xml: Buffer.from('<工程造价文件>\n<建设项目') }];
    await expect(
      detectInWorker(
        bad.map((f) => ({ file: f.file, open: async () => stream(f.xml) })),
        COST_SETTINGS_DEFAULT,
        () => undefined,
      ),
    ).rejects.toThrow(/^投标人2的造价文件：第 \d+ 行：/);
  });
});
