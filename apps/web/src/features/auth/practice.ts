import { PRACTICE_REASON_MAX, type PracticeDetail, type PracticingStatus } from '@ks/contracts';

/** The reason cut to PRACTICE_REASON_MAX (16) characters, with '...' when it was longer. */
export function truncateReason(reason: string, max: number = PRACTICE_REASON_MAX): string {
  const chars = Array.from(reason ?? '');
  return chars.length > max ? `${chars.slice(0, max).join('')}...` : chars.join('');
}

/** The regions whose practice status is abnormal (status 1). */
export function abnormalDetails(status: PracticingStatus | null | undefined): PracticeDetail[] {
  return (status?.practiceDetails ?? []).filter((d) => d.status === 1);
}

/** After login (spec §4): the practicing-status dialog shows only when codeStatus is 0 and an abnormality is set. */
export function needsPracticeDialog(codeStatus: number, status: PracticingStatus | null | undefined): boolean {
  return codeStatus === 0 && Boolean(status?.abnormal);
}
