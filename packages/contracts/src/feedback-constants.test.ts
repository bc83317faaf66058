import { describe, expect, it } from 'vitest';
import { feedbackAddSchema } from './feedback';
import {
  FEEDBACK_QUESTIONNAIRES,
  isFeedbackQuestion,
  WEATHER_ICON_TABLE,
  WEATHER_ICONS,
  weatherIconOf,
} from './feedback-constants';

describe('weatherIconOf', () => {
  it('maps the Chinese weather names of the widget to icons', () => {
    const expected: Record<string, string> = {
      晴: 'sunny',
      多云: 'cloudy',
      阴: 'overcast',
      小雨: 'light-rain',
      中雨: 'rain',
      大雨: 'heavy-rain',
      暴雨: 'storm',
      雷阵雨: 'thunder',
      雪: 'snow',
      雨夹雪: 'sleet',
      雾: 'fog',
      霾: 'haze',
      沙尘暴: 'dust',
      扬沙: 'dust',
      浮尘: 'dust',
    };
    for (const [name, icon] of Object.entries(expected)) expect(weatherIconOf(name), name).toBe(icon);
  });

  it('falls back on what an unlisted name contains, and on unknown', () => {
    expect(weatherIconOf('强雷暴')).toBe('thunder');
    expect(weatherIconOf('小到中雪')).toBe('snow');
    expect(weatherIconOf('局部大雨')).toBe('heavy-rain');
    expect(weatherIconOf('有雾')).toBe('fog');
    expect(weatherIconOf('')).toBe('unknown');
    expect(weatherIconOf(null)).toBe('unknown');
    expect(weatherIconOf('外星人入侵')).toBe('unknown');
  });

  it('uses only icons the widget draws', () => {
    for (const icon of Object.values(WEATHER_ICON_TABLE)) expect(WEATHER_ICONS).toContain(icon);
  });
});

describe('feedback questionnaires', () => {
  it('accept their own questions only', () => {
    const q = FEEDBACK_QUESTIONNAIRES.product.questions[0];
    expect(isFeedbackQuestion('product', q)).toBe(true);
    expect(isFeedbackQuestion('service', q)).toBe(false);
    expect(isFeedbackQuestion('other', q)).toBe(false);
  });

  it('take whole ratings 1–5, each question once', () => {
    const q = FEEDBACK_QUESTIONNAIRES.service.questions[0];
    const ok = (score: unknown) =>
      feedbackAddSchema.safeParse({ list: [{ evaluateType: 'service', question: q, score }] }).success;
    expect([1, 2, 3, 4, 5].every(ok)).toBe(true);
    expect([0, 6, 2.5, '3', null].some(ok)).toBe(false);
    const twice = { evaluateType: 'service', question: q, score: 3 };
    expect(feedbackAddSchema.safeParse({ list: [twice, twice] }).success).toBe(false);
  });
});
