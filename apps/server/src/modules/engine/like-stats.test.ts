import { describe, expect, it } from 'vitest';
import { RARE_SHARE, rareIn } from './like-stats';

const hist = (n: number, name: (i: number) => string) => Array.from({ length: n }, (_, i) => name(i));

describe('rareIn: is a substring term rare in its column, by its statistics', () => {
  const names = { nullFrac: 0, mcv: [], mcf: [], hist: hist(101, (i) => `某某市第${1000 + i * 9000}号工程`) };

  it('a term in at most one histogram entry of a hundred is rare; in every entry it is common', () => {
    expect(rareIn(names, '第4567')).toBe(true);
    expect(rareIn(names, '第1000号')).toBe(true);
    expect(rareIn(names, '号工程')).toBe(false);
    expect(rareIn(names, '某某市第')).toBe(false);
  });

  it('common values count by their frequency', () => {
    const withMcv = { ...names, mcv: ['市政道路工程', '房建工程'], mcf: [0.3, 0.2] };
    expect(rareIn(withMcv, '市政道路')).toBe(false);
    // in no common value and in one histogram entry: the histogram speaks for the other half of the rows
    expect(rareIn(withMcv, '第1000号')).toBe(true);
    expect(rareIn({ ...withMcv, mcf: [0.005, 0.2] }, '市政道路')).toBe(RARE_SHARE >= 0.005);
  });

  it('no statistics, or fewer than three characters (no trigram): not rare', () => {
    expect(rareIn(undefined, '第4567')).toBe(false);
    expect(rareIn({ nullFrac: 0, mcv: [], mcf: [], hist: [] }, '第4567')).toBe(false);
    expect(rareIn(names, '第4')).toBe(false);
    expect(rareIn(names, 'ab')).toBe(false);
  });
});
