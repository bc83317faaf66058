/**
 * Feedback questionnaires (spec screen 24, §3 Feedback item) and the weather widget's tables (screen 11, §3 Weather).
 * Zod-free so that the web bundles it alone; the schemas in feedback.ts use the same lists.
 */

/** The two questionnaires of the feedback drawer: evaluateType → its title and questions (asked in this order). */
export const FEEDBACK_QUESTIONNAIRES = {
  product: {
    title: '产品问卷',
    questions: [
      '系统功能是否满足您的业务办理需要',
      '页面操作是否简便易懂',
      '系统运行速度是否流畅',
      '信息公开内容是否及时准确',
    ],
  },
  service: {
    title: '服务问卷',
    questions: ['客服人员响应是否及时', '问题解答是否专业准确', '办事指南与帮助文档是否清晰', '整体服务态度是否满意'],
  },
} as const;
export type EvaluateType = keyof typeof FEEDBACK_QUESTIONNAIRES;
export const EVALUATE_TYPES = Object.keys(FEEDBACK_QUESTIONNAIRES) as EvaluateType[];

/** The five ratings, 1 to 5 (spec screen 24, verbatim). */
export const FEEDBACK_RATING_LABELS = ['不满意', '一般般', '还可以', '完美', '非常完美'] as const;
export const FEEDBACK_SCORE_MIN = 1;
export const FEEDBACK_SCORE_MAX = 5;
/** Longest free text of one submission. */
export const FEEDBACK_TEXT_MAX = 500;

export const FEEDBACK_MESSAGES = {
  /** spec §8, verbatim; the drawer closes FEEDBACK_CLOSE_DELAY_MS later */
  thanks: '感谢您的反馈，您的意见将会是我们不断进步的动力！',
  scoreRange: '评分只能是 1 到 5 的整数',
  unknownQuestion: '问卷中没有这个问题',
  duplicateQuestion: '同一问题只能评价一次',
  nothingRated: '请至少为一个问题评分',
  textTooLong: `意见建议不能超过${FEEDBACK_TEXT_MAX}个字`,
  dateOrder: '结束日期不能早于开始日期',
} as const;
export const FEEDBACK_CLOSE_DELAY_MS = 800;

/** Whether `question` is one of the questions of the `evaluateType` questionnaire. */
export function isFeedbackQuestion(evaluateType: string, question: string): boolean {
  const q = FEEDBACK_QUESTIONNAIRES[evaluateType as EvaluateType];
  return !!q && (q.questions as readonly string[]).includes(question);
}

// ——— weather (screen 11) ———

/** What the widget says when the server has no weather key configured (no invented weather). */
export const WEATHER_NOT_CONFIGURED = '天气服务未配置';
/** The answer when the weather service could not be reached or refused the request (HTTP 502 in the envelope). */
export const WEATHER_UPSTREAM_FAILED = '天气服务暂不可用，请稍后再试';

/** The icons the widget draws; `weatherIconOf` maps AMap's Chinese weather names onto them. */
export const WEATHER_ICONS = [
  'sunny',
  'partly-cloudy',
  'cloudy',
  'overcast',
  'light-rain',
  'rain',
  'heavy-rain',
  'storm',
  'thunder',
  'sleet',
  'snow',
  'fog',
  'haze',
  'dust',
  'wind',
  'hot',
  'cold',
  'unknown',
] as const;
export type WeatherIcon = (typeof WEATHER_ICONS)[number];

/**
 * AMap's weather names (the phenomena of the China Meteorological Administration), exact names first; anything not
 * listed falls to the rules of `weatherIconOf`.
 */
export const WEATHER_ICON_TABLE: Readonly<Record<string, WeatherIcon>> = {
  晴: 'sunny',
  少云: 'partly-cloudy',
  晴间多云: 'partly-cloudy',
  多云: 'cloudy',
  阴: 'overcast',
  有风: 'wind',
  平静: 'sunny',
  微风: 'wind',
  和风: 'wind',
  清风: 'wind',
  '强风/劲风': 'wind',
  疾风: 'wind',
  大风: 'wind',
  烈风: 'wind',
  风暴: 'wind',
  狂爆风: 'wind',
  飓风: 'wind',
  热带风暴: 'wind',
  霾: 'haze',
  中度霾: 'haze',
  重度霾: 'haze',
  严重霾: 'haze',
  阵雨: 'rain',
  雷阵雨: 'thunder',
  雷阵雨并伴有冰雹: 'thunder',
  小雨: 'light-rain',
  中雨: 'rain',
  大雨: 'heavy-rain',
  暴雨: 'storm',
  大暴雨: 'storm',
  特大暴雨: 'storm',
  强阵雨: 'heavy-rain',
  强雷阵雨: 'thunder',
  极端降雨: 'storm',
  '毛毛雨/细雨': 'light-rain',
  雨: 'rain',
  '小雨-中雨': 'rain',
  '中雨-大雨': 'heavy-rain',
  '大雨-暴雨': 'storm',
  '暴雨-大暴雨': 'storm',
  '大暴雨-特大暴雨': 'storm',
  雨雪天气: 'sleet',
  雨夹雪: 'sleet',
  阵雨夹雪: 'sleet',
  冻雨: 'sleet',
  雪: 'snow',
  阵雪: 'snow',
  小雪: 'snow',
  中雪: 'snow',
  大雪: 'snow',
  暴雪: 'snow',
  '小雪-中雪': 'snow',
  '中雪-大雪': 'snow',
  '大雪-暴雪': 'snow',
  浮尘: 'dust',
  扬沙: 'dust',
  沙尘暴: 'dust',
  强沙尘暴: 'dust',
  龙卷风: 'wind',
  雾: 'fog',
  浓雾: 'fog',
  强浓雾: 'fog',
  轻雾: 'fog',
  大雾: 'fog',
  特强浓雾: 'fog',
  热: 'hot',
  冷: 'cold',
  未知: 'unknown',
};

/** The icon of a Chinese weather name: the table, else by what the name contains (雷, 雪, 雨, 沙/尘, 雾, 霾, 云, 阴). */
export function weatherIconOf(name: string | null | undefined): WeatherIcon {
  const n = (name ?? '').trim();
  if (!n) return 'unknown';
  const exact = WEATHER_ICON_TABLE[n];
  if (exact) return exact;
  if (n.includes('雷')) return 'thunder';
  if (n.includes('雪') && n.includes('雨')) return 'sleet';
  if (n.includes('雪')) return 'snow';
  if (n.includes('暴雨')) return 'storm';
  if (n.includes('大雨')) return 'heavy-rain';
  if (n.includes('雨')) return 'rain';
  if (n.includes('沙') || n.includes('尘')) return 'dust';
  if (n.includes('雾')) return 'fog';
  if (n.includes('霾')) return 'haze';
  if (n.includes('风')) return 'wind';
  if (n.includes('阴')) return 'overcast';
  if (n.includes('云')) return 'cloudy';
  if (n.includes('晴')) return 'sunny';
  return 'unknown';
}
