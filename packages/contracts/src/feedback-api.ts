import {
  feedbackAddResultSchema,
  feedbackAddSchema,
  feedbackRangeSchema,
  feedbackSummarySchema,
  feedbackTextSchema,
  feedbackTextsQuerySchema,
  weatherSchema,
} from './feedback';
import { paths } from './paths';
import { pageOf } from './portal';
import { z } from './zod';

/** Registry entries of the feedback surveys (screen 24) and the weather widget (screen 11). */
export const feedbackApi = {
  feedbackAdd: {
    ...paths.feedbackAdd,
    summary:
      '提交反馈：产品问卷与服务问卷的评分列表（evaluateType、question、score 1–5 的整数）与意见建议（非空才保存），记录提交人与时间',
    tag: '反馈',
    auth: true,
    body: feedbackAddSchema,
    data: feedbackAddResultSchema,
  },
  feedbackSummary: {
    ...paths.feedbackSummary,
    summary: '反馈统计（管理员）：日期范围内每个问题的评价人数、平均分与 1–5 分的分布',
    tag: '反馈',
    auth: true,
    query: feedbackRangeSchema,
    data: feedbackSummarySchema,
  },
  feedbackTexts: {
    ...paths.feedbackTexts,
    summary: '反馈意见（管理员）：日期范围内填写了意见建议的反馈，提交人与时间，新的在前，分页',
    tag: '反馈',
    auth: true,
    query: feedbackTextsQuerySchema,
    data: pageOf(feedbackTextSchema),
  },
  feedbackExport: {
    ...paths.feedbackExport,
    summary: '导出反馈 xlsx（管理员）：统计与每条反馈的评分和意见建议；记入操作日志',
    tag: '反馈',
    auth: true,
    body: feedbackRangeSchema,
    binary: true,
    data: z.null(),
  },
  weather: {
    ...paths.weather,
    summary:
      '天气：配置城市（行政区划代码）的实况与预报（高德天气查询，服务端缓存 30 分钟；未配置密钥时 configured 为 false；上游失败 502）',
    tag: '公共',
    auth: true,
    data: weatherSchema,
  },
} as const;
