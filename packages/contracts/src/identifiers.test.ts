import { describe, expect, it } from 'vitest';
import { creditCodeCheckChar, isValidCreditCode, isValidIdNumber, isValidMobile } from './identifiers';

describe('unified social credit code', () => {
  it('accepts published codes and computes their check character', () => {
    // Codes published on the national enterprise credit system.
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91110000802100433B')).toBe(true);
    expect(creditCodeCheckChar('91110000802100433')).toBe('B');
  });
  it('refuses a wrong check character, forbidden letters and wrong length', () => {
    expect(isValidCreditCode('91110000802100433C')).toBe(false);
    expect(isValidCreditCode('91110000802100433I')).toBe(false);
    expect(isValidCreditCode('9111000080210043')).toBe(false);
    expect(creditCodeCheckChar('9111000080210043O')).toBeNull();
  });
});

describe('resident ID number', () => {
  it('checks the check digit and birth date', () => {
    expect(isValidIdNumber('11010519491231002X')).toBe(true);
    expect(isValidIdNumber('110105194912310021')).toBe(false);
    expect(isValidIdNumber('110105194902300028')).toBe(false); // 30 February
  });
});

describe('mobile', () => {
  it('is 11 digits starting with 1', () => {
    expect(isValidMobile('13800138000')).toBe(true);
    expect(isValidMobile('23800138000')).toBe(false);
    expect(isValidMobile('1380013800')).toBe(false);
  });
});
