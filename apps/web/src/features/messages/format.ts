import { formatIn } from '@ks/contracts';

/** An instant as the platform's calendar shows it: YYYY-MM-DD HH:mm. */
export const formatTime = (iso: string | null | undefined) => (iso ? formatIn(iso, 'YYYY-MM-DD HH:mm') : '—');
