import type { CreditSubjectKind } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from '../../api/call';
import { isApiError, isForbidden, reportApiError } from '../../api/request';
import { type PublicListFilters, publicListParams } from './query';

/**
 * The credit calls of the analysis, commitment-book and public-list pages (contracts credit-api.ts). Loads of the
 * back-office pages are silent about 403 (the page shows the refusal) and report anything else as usual. The public
 * list sends no token: a visitor's (or an expired) session never gets in its way.
 */

export const CREDIT_PUBLIC_KEY = ['creditPublic'] as const;
export const LETTERS_KEY = ['creditLetters'] as const;

function quiet403<T>(p: Promise<T>): Promise<T> {
  return p.catch((err: unknown) => {
    if (isApiError(err) && !isForbidden(err)) reportApiError(err);
    throw err;
  });
}

export const gradeOverviewQuery = (subjectKind: CreditSubjectKind) =>
  queryOptions({
    queryKey: ['creditAnalysis', 'overview', subjectKind],
    queryFn: () => quiet403(call('creditGradeOverview', { data: { subjectKind }, silent: true })),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

export const topTitlesQuery = queryOptions({
  queryKey: ['creditAnalysis', 'topTitles'],
  queryFn: () => quiet403(call('creditTopTitles', { silent: true })),
  staleTime: 30_000,
});

export interface LetterFilters {
  keyword?: string;
  signed?: boolean;
  pageNum: number;
  pageSize: number;
}

export const letterListQuery = (f: LetterFilters) =>
  queryOptions({
    queryKey: [...LETTERS_KEY, 'list', f],
    queryFn: () => quiet403(call('creditLetterList', { data: f, silent: true })),
    placeholderData: keepPreviousData,
  });

/** One enterprise's book (administrators name it), or the caller's own (no id). */
export const letterInfoQuery = (enterpriseId: string | null) =>
  queryOptions({
    queryKey: [...LETTERS_KEY, 'info', enterpriseId ?? 'own'],
    queryFn: () => quiet403(call('creditLetterInfo', { data: enterpriseId ? { enterpriseId } : {}, silent: true })),
  });

export const signLetter = () => call('creditLetterSign');

export const publicLevelsQuery = queryOptions({
  queryKey: [...CREDIT_PUBLIC_KEY, 'levels'],
  queryFn: () => call('creditPublicLevels', { isToken: false }),
  staleTime: 5 * 60_000,
});

export const publicListQuery = (f: PublicListFilters) =>
  queryOptions({
    queryKey: [...CREDIT_PUBLIC_KEY, 'list', publicListParams(f)],
    queryFn: () => call('creditPublicList', { params: publicListParams(f), isToken: false }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
