import { type EvalCriteria, SESSION_KEYS } from '@ks/contracts';

/**
 * The session keys of spec §9 that belong to the evaluation room: `bidInfo` (the section being evaluated, stored when
 * a room is entered, so a step opened without ?sectionId= finds it again) and `bidSolution` (its evaluation method, the
 * criteria). JSON in sessionStorage, as lib/session.ts keeps the other session keys.
 */

export interface BidInfo {
  sectionId: string;
  code: string;
  name: string;
  projectName: string;
}

export interface BidSolution {
  sectionId: string;
  criteria: EvalCriteria;
}

function read<T>(key: string): T | null {
  try {
    const raw = sessionStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    const text = JSON.stringify(value);
    if (sessionStorage.getItem(key) !== text) sessionStorage.setItem(key, text);
  } catch {
    // storage full or refused: the room works from the URL alone
  }
}

export function getBidInfo(): BidInfo | null {
  const v = read<Partial<BidInfo>>(SESSION_KEYS.bidInfo);
  return v && typeof v.sectionId === 'string' ? (v as BidInfo) : null;
}

export const setBidInfo = (info: BidInfo) => write(SESSION_KEYS.bidInfo, info);

export function getBidSolution(): BidSolution | null {
  const v = read<Partial<BidSolution>>(SESSION_KEYS.bidSolution);
  return v && typeof v.sectionId === 'string' && v.criteria ? (v as BidSolution) : null;
}

export const setBidSolution = (solution: BidSolution) => write(SESSION_KEYS.bidSolution, solution);
