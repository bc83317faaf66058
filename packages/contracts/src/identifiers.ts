import { appToday, isValidDate } from './dates';

/** Identifier check digits (DOMAIN.md): unified social credit code, resident ID number, mobile number. */

const CREDIT_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** The check character of a unified social credit code's first 17 characters (GB 32100-2015), or null if they are not valid. */
export function creditCodeCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = CREDIT_CHARS.indexOf(first17[i]!);
    if (v < 0) return null;
    let w = 1;
    for (let k = 0; k < i; k++) w = (w * 3) % 31;
    sum += v * w;
  }
  return CREDIT_CHARS[(31 - (sum % 31)) % 31]!;
}

/** Why a text is not a unified social credit code: its shape, or its check character. */
export type CreditCodeProblem = 'format' | 'checkDigit';

export function creditCodeProblem(code: string): CreditCodeProblem | null {
  if (!/^[0-9A-HJ-NP-RTUW-Y]{18}$/.test(code)) return 'format';
  return creditCodeCheckChar(code.slice(0, 17)) === code[17] ? null : 'checkDigit';
}

export function isValidCreditCode(code: string): boolean {
  return creditCodeProblem(code) === null;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** The check character of a resident ID number's first 17 digits (GB 11643-1999), or null if they are not 17 digits. */
export function idNumberCheckChar(first17: string): string | null {
  if (!/^\d{17}$/.test(first17)) return null;
  return ID_CHECK[ID_WEIGHTS.reduce((s, w, i) => s + w * Number(first17[i]), 0) % 11]!;
}

/**
 * Why a text is not a resident ID number: its shape (18 characters, 17 digits and a digit or X), a birth date (digits
 * 7–14) that is no calendar day or before 1900, one after `today` (YYYY-MM-DD, the platform's today by default), or
 * its check character. The birth date is named first: a mistyped date is the more useful thing to hear.
 */
export type IdNumberProblem = 'format' | 'checkDigit' | 'birthDate' | 'futureBirth';

export function idNumberProblem(id: string, today: string = appToday()): IdNumberProblem | null {
  if (!/^\d{17}[\dX]$/.test(id)) return 'format';
  const birth = `${id.slice(6, 10)}-${id.slice(10, 12)}-${id.slice(12, 14)}`;
  if (!isValidDate(birth) || birth < '1900-01-01') return 'birthDate';
  if (birth > today) return 'futureBirth';
  return idNumberCheckChar(id.slice(0, 17)) === id[17] ? null : 'checkDigit';
}

/** Resident ID number (GB 11643-1999): 18 characters, valid check digit, a real birth date not after today. */
export function isValidIdNumber(id: string, today?: string): boolean {
  return idNumberProblem(id, today) === null;
}

export function isValidMobile(s: string): boolean {
  return /^1\d{10}$/.test(s);
}
