import { PAGE_SIZES } from './constants';
import {
  EVALUATE_TYPES,
  FEEDBACK_SCORE_MAX,
  FEEDBACK_SCORE_MIN,
  FEEDBACK_TEXT_MAX,
  isFeedbackQuestion,
  FEEDBACK_MESSAGES as M,
  WEATHER_ICONS,
} from './feedback-constants';
import { dateProblem } from './portal-rules';
import { z } from './zod';

/** Spec §3 Feedback item {evaluateType, question} with its rating, 1–5 (screen 24). */
export const feedbackItemSchema = z
  .object({
    evaluateType: z.enum(EVALUATE_TYPES as [string, ...string[]], { message: M.unknownQuestion }),
    question: z.string().min(1).max(100),
    score: z
      .number({ message: M.scoreRange })
      .int(M.scoreRange)
      .min(FEEDBACK_SCORE_MIN, M.scoreRange)
      .max(FEEDBACK_SCORE_MAX, M.scoreRange),
  })
  .refine((i) => isFeedbackQuestion(i.evaluateType, i.question), { message: M.unknownQuestion, path: ['question'] });
export type FeedbackItem = z.infer<typeof feedbackItemSchema>;

/** POST /ks/feedback/add: the rated questions, and the free text (kept only when it is not blank). */
export const feedbackAddSchema = z
  .object({
    list: z.array(feedbackItemSchema).min(1, M.nothingRated).max(50),
    text: z.string().max(FEEDBACK_TEXT_MAX, M.textTooLong).optional().nullable(),
  })
  .refine((b) => new Set(b.list.map((i) => `${i.evaluateType}\u0001${i.question}`)).size === b.list.length, {
    message: M.duplicateQuestion,
    path: ['list'],
  });
export type FeedbackAddBody = z.infer<typeof feedbackAddSchema>;

export const feedbackAddResultSchema = z.object({ id: z.string().uuid() });

const dateStr = z.string().superRefine((v, ctx) => {
  const problem = dateProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const dateRange = {
  startDate: dateStr.optional(),
  endDate: dateStr.optional(),
};
const rangeInOrder = <T extends { startDate?: string; endDate?: string }>(q: T) =>
  !q.startDate || !q.endDate || q.startDate <= q.endDate;

/** The administrators' filter: submissions made from startDate to endDate (days in the platform's zone, both included). */
export const feedbackRangeSchema = z
  .object(dateRange)
  .refine(rangeInOrder, { message: M.dateOrder, path: ['endDate'] });
export type FeedbackRange = z.infer<typeof feedbackRangeSchema>;

export const feedbackTextsQuerySchema = z
  .object({
    ...dateRange,
    pageNum: z.coerce.number().int().min(1).max(100_000).default(1),
    pageSize: z.coerce
      .number()
      .int()
      .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), '每页条数只能是 10、20、30、50')
      .default(10),
  })
  .refine(rangeInOrder, { message: M.dateOrder, path: ['endDate'] });
export type FeedbackTextsQuery = z.infer<typeof feedbackTextsQuerySchema>;

/** One question's results: how many rated it, the average (null when nobody did), and the count of each score 1–5. */
export const feedbackQuestionStatSchema = z.object({
  evaluateType: z.string(),
  question: z.string(),
  count: z.number().int(),
  average: z.number().nullable(),
  /** counts of scores 1, 2, 3, 4, 5 */
  distribution: z.array(z.number().int()).length(5),
});
export type FeedbackQuestionStat = z.infer<typeof feedbackQuestionStatSchema>;

export const feedbackSummarySchema = z.object({
  /** submissions in the range */
  submissions: z.number().int(),
  /** of which with a text */
  withText: z.number().int(),
  /** every question of the questionnaires in order, then questions of earlier questionnaires that have ratings */
  questions: z.array(feedbackQuestionStatSchema),
});
export type FeedbackSummary = z.infer<typeof feedbackSummarySchema>;

/** A submission's free text, with who wrote it and when, and the average of its ratings. */
export const feedbackTextSchema = z.object({
  id: z.string().uuid(),
  text: z.string(),
  userName: z.string(),
  account: z.string().nullable(),
  enterpriseName: z.string().nullable(),
  average: z.number().nullable(),
  createdAt: z.string(),
});
export type FeedbackText = z.infer<typeof feedbackTextSchema>;

// ——— weather (screen 11, §3 Weather; the AMap weather query behind it) ———

export const weatherCastSchema = z.object({
  date: z.string(),
  week: z.string(),
  dayweather: z.string(),
  nightweather: z.string(),
  daytemp: z.string(),
  nighttemp: z.string(),
  daywind: z.string(),
  daypower: z.string(),
  dayweatherIcon: z.enum(WEATHER_ICONS),
});
export type WeatherCast = z.infer<typeof weatherCastSchema>;

/**
 * GET /ks/common/weather: `configured: false` when the server has no weather key (the widget says 天气服务未配置);
 * otherwise the live weather of the configured city and its forecast list.
 */
export const weatherSchema = z.discriminatedUnion('configured', [
  z.object({ configured: z.literal(false), message: z.string() }),
  z.object({
    configured: z.literal(true),
    province: z.string(),
    city: z.string(),
    adcode: z.string(),
    weather: z.string(),
    temperature: z.string(),
    winddirection: z.string(),
    windpower: z.string(),
    humidity: z.string(),
    reporttime: z.string(),
    dayweatherIcon: z.enum(WEATHER_ICONS),
    forecasts: z.array(weatherCastSchema),
  }),
]);
export type Weather = z.infer<typeof weatherSchema>;
