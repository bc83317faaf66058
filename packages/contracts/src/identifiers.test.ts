import { describe, expect, it } from 'vitest';
import {
  creditCodeCheckChar,
  creditCodeProblem,
  idNumberCheckChar,
  idNumberProblem,
  isValidCreditCode,
  isValidIdNumber,
  isValidMobile,
} from './identifiers';

/** A resident ID number with its real check character. */
const id = (first17: string) => `${first17}${idNumberCheckChar(first17)}`;

describe('unified social credit code', () => {
  it('accepts published codes and computes their check character', () => {
    // Codes published on the national enterprise credit system.
    expect(isValidCreditCode('91350100M000100Y43')).toBe(true);
    expect(isValidCreditCode('91110000802100433B')).toBe(true);
    expect(creditCodeCheckChar('91110000802100433')).toBe('B');
  });
  it('refuses a wrong check character, forbidden letters and wrong length', () => {
    expect(creditCodeProblem('91110000802100433C')).toBe('checkDigit');
    expect(creditCodeProblem('91110000802100433I')).toBe('format');
    expect(creditCodeProblem('9111000080210043')).toBe('format');
    expect(creditCodeProblem('91110000802100433b')).toBe('format');
    expect(creditCodeCheckChar('9111000080210043O')).toBeNull();
  });
});

describe('resident ID number (GB 11643-1999)', () => {
  it('accepts a number with its check character and a real birth date', () => {
    expect(isValidIdNumber('11010519491231002X')).toBe(true);
    expect(idNumberCheckChar('14010519900101123')).toBe('8');
    expect(idNumberProblem('140105199001011238', '2026-01-01')).toBeNull();
  });
  it('refuses a wrong check digit (140105199001011234 has the shape but not the check)', () => {
    expect(idNumberProblem('140105199001011234', '2026-01-01')).toBe('checkDigit');
    expect(idNumberProblem('110105194912310021', '2026-01-01')).toBe('checkDigit');
  });
  it('refuses a birth date that is no day (19900230), before 1900, or in the future', () => {
    expect(id('14010519900230123')).toBe('140105199002301237'); // its check character is right …
    expect(idNumberProblem('140105199002301237', '2026-01-01')).toBe('birthDate'); // … its birth date is not
    expect(idNumberProblem(id('14010518991231123'), '2026-01-01')).toBe('birthDate');
    expect(idNumberProblem(id('14010520260102123'), '2026-01-01')).toBe('futureBirth');
    expect(idNumberProblem(id('14010520260102123'), '2026-01-02')).toBeNull();
  });
  it('refuses other shapes', () => {
    for (const bad of ['1401051990010112', '14010519900101123x', '1401051990010112345', 'A40105199001011238']) {
      expect(idNumberProblem(bad, '2026-01-01'), bad).toBe('format');
    }
  });
});

describe('mobile', () => {
  it('is 11 digits starting with 1', () => {
    expect(isValidMobile('13800138000')).toBe(true);
    expect(isValidMobile('23800138000')).toBe(false);
    expect(isValidMobile('1380013800')).toBe(false);
    expect(isValidMobile('138001380001')).toBe(false);
  });
});
