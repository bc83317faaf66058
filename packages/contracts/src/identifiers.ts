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

export function isValidCreditCode(code: string): boolean {
  if (!/^[0-9A-HJ-NP-RTUW-Y]{18}$/.test(code)) return false;
  return creditCodeCheckChar(code.slice(0, 17)) === code[17];
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** Resident ID number (GB 11643-1999): 18 characters, valid check digit and birth date. */
export function isValidIdNumber(id: string): boolean {
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const sum = ID_WEIGHTS.reduce((s, w, i) => s + w * Number(id[i]), 0);
  if (ID_CHECK[sum % 11] !== id[17]) return false;
  const y = Number(id.slice(6, 10));
  const m = Number(id.slice(10, 12));
  const d = Number(id.slice(12, 14));
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1900 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export function isValidMobile(s: string): boolean {
  return /^1\d{10}$/.test(s);
}
