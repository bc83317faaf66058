import { describe, expect, it } from 'vitest';
import { inCompositeKey, keysKey, uniqueModeOf, withoutField, withUniqueMode } from './uniqueKeys';

describe('the 唯一 column’s keys', () => {
  const keys = [{ fields: ['a', 'b'], withinEnterprise: true }, { fields: ['c'] }];

  it('reads a field’s single-field key, not a key it shares with others', () => {
    expect(uniqueModeOf(keys, 'c')).toBe('all');
    expect(uniqueModeOf(keys, 'a')).toBe('none');
    expect(uniqueModeOf([{ fields: ['a'], withinEnterprise: true }], 'a')).toBe('enterprise');
    expect(inCompositeKey(keys, 'a')).toBe(true);
    expect(inCompositeKey(keys, 'c')).toBe(false);
  });

  it('sets, changes in place and removes a field’s key, keeping the others', () => {
    const added = withUniqueMode(keys, 'a', 'enterprise');
    expect(added).toEqual([...keys, { fields: ['a'], withinEnterprise: true }]);
    expect(withUniqueMode(keys, 'c', 'enterprise')).toEqual([keys[0], { fields: ['c'], withinEnterprise: true }]);
    expect(withUniqueMode(keys, 'c', 'none')).toEqual([keys[0]]);
    expect(withoutField(added, 'a')).toEqual(keys);
    expect(withoutField(keys, 'a')).toEqual(keys);
  });

  it('compares lists by what they declare', () => {
    expect(keysKey([{ fields: ['c'] }])).toBe(keysKey([{ fields: ['c'], withinEnterprise: false }]));
    expect(keysKey([{ fields: ['c'] }])).not.toBe(keysKey([{ fields: ['c'], withinEnterprise: true }]));
  });
});
