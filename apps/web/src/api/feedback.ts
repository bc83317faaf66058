import type { ApiBody, FeedbackRange, FeedbackTextsQuery } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/** Feedback surveys (screen 24) and the weather widget (screen 11). */

/** Failures reach the global prompt dialog (spec screen 22), as every call's do. */
export const submitFeedback = (body: ApiBody<'feedbackAdd'>) => call('feedbackAdd', { data: body });

export const FEEDBACK_KEY = ['feedback'] as const;

export const feedbackSummaryQuery = (range: FeedbackRange) =>
  queryOptions({
    queryKey: [...FEEDBACK_KEY, 'summary', range],
    queryFn: () => call('feedbackSummary', { params: range }),
    placeholderData: keepPreviousData,
  });

export const feedbackTextsQuery = (q: FeedbackTextsQuery) =>
  queryOptions({
    queryKey: [...FEEDBACK_KEY, 'texts', q],
    queryFn: () => call('feedbackTexts', { params: q }),
    placeholderData: keepPreviousData,
  });

/** The xlsx of the range's statistics and submissions (60 s download client). */
export async function exportFeedback(range: FeedbackRange): Promise<void> {
  const file = await download({ url: paths.feedbackExport.path, method: paths.feedbackExport.method, data: range });
  saveBlob(file, '用户反馈.xlsx');
}

/**
 * The header widget's weather: asked once per half hour (the server keeps it as long). Silent: a weather service that
 * fails is said inside the widget's popover, not in a dialog over whatever page the user is on.
 */
export const weatherQuery = queryOptions({
  queryKey: ['weather'],
  queryFn: () => call('weather', { silent: true }),
  staleTime: 30 * 60_000,
  refetchInterval: 30 * 60_000,
  refetchOnWindowFocus: false,
  retry: false,
});
