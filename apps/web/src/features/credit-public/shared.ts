import type { Section } from '../../components/admin';

/** What the credit pages of this feature share: their breadcrumb section, level colours, the node query. */

export const CREDIT_SECTION: Section = { title: '信用管理' };

const LEVEL_COLORS: Record<string, string> = { AAA: 'green', AA: 'cyan', A: 'blue', B: 'orange', C: 'red' };

/** The tag colour of a level: the usual five by name, administrators' own titles by their rank (highest first). */
export function levelColor(title: string, rank?: number): string {
  const known = LEVEL_COLORS[title];
  if (known) return known;
  const byRank = ['green', 'cyan', 'blue', 'gold', 'orange', 'red'];
  return rank === undefined ? 'blue' : (byRank[Math.min(rank, byRank.length - 1)] ?? 'blue');
}

/** The sidebar context of a page (its system and node) carried to the pages it opens. */
export function nodeQuery(searchParams: URLSearchParams): string {
  const q = new URLSearchParams();
  for (const k of ['systemCoding', 'gnCoding']) {
    const v = searchParams.get(k);
    if (v) q.set(k, v);
  }
  return q.toString();
}
