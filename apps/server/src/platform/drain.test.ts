import { describe, expect, it } from 'vitest';
import { createDrain } from './drain';

/** A queue of items that `runOne` takes one at a time, with a hook to hold an item half-way. */
function queue() {
  const items: string[] = [];
  const done: string[] = [];
  let hold: Promise<void> | null = null;
  return {
    items,
    done,
    holdWith(p: Promise<void>) {
      hold = p;
    },
    async runOne() {
      const item = items.shift();
      if (item === undefined) return false;
      if (hold) {
        const h = hold;
        hold = null;
        await h;
      }
      if (item === 'boom') throw new Error('item failed');
      done.push(item);
      return true;
    },
  };
}

describe('createDrain', () => {
  it('runs every item there is, one at a time, and a kick during a run makes it look again', async () => {
    const q = queue();
    const d = createDrain('test', () => q.runOne());
    let release!: () => void;
    q.holdWith(new Promise<void>((r) => (release = r)));
    q.items.push('a');
    const first = d.kick();
    // queued while `a` is worked on: the same run takes it, no second loop runs beside it
    q.items.push('b');
    expect(d.kick()).toBe(first);
    release();
    await first;
    expect(q.done).toEqual(['a', 'b']);
  });

  it('survives a failing item (a warning) and goes on at the next kick', async () => {
    const q = queue();
    const d = createDrain('test', () => q.runOne());
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      q.items.push('boom', 'c');
      await d.kick();
      await new Promise((r) => setImmediate(r));
      expect(warnings).toContain('test: item failed');
      await d.kick();
      expect(q.done).toEqual(['c']);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('does nothing when disabled, and nothing more once stopped (stop waits for the current item)', async () => {
    const off = queue();
    off.items.push('x');
    await createDrain('off', () => off.runOne(), { enabled: false }).kick();
    expect(off.done).toEqual([]);

    const q = queue();
    const d = createDrain('test', () => q.runOne());
    let release!: () => void;
    q.holdWith(new Promise<void>((r) => (release = r)));
    q.items.push('a', 'b');
    void d.kick();
    const stopping = d.stop();
    release();
    await stopping;
    expect(q.done).toEqual(['a']);
    await d.kick();
    expect(q.done).toEqual(['a']);
  });
});
