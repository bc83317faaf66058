import {
  Code,
  WEATHER_NOT_CONFIGURED,
  WEATHER_UPSTREAM_FAILED,
  type Weather,
  type WeatherCast,
  weatherIconOf,
} from '@ks/contracts';
import { z } from 'zod';
import type { Config } from '../../config';
import { createCache } from '../../platform/cache';
import { AppError } from '../../platform/errors';

/**
 * The weather widget's source (screen 11): the AMap (高德) weather query — `GET {url}?key&city=adcode&extensions=base`
 * for the live weather (`lives[]`) and `extensions=all` for the forecast (`forecasts[].casts[]`); every value is text,
 * `status` "1" means success. Answers are kept 30 minutes per city by the service's clock, so a page of tabs asks AMap
 * twice per half hour; concurrent first askers share one request. No key configured: `configured: false` and no
 * request at all. A failed or refused request is a 502 in the envelope, and is not kept (the next reader tries again).
 * The key stays on the server: it is in no answer and no message.
 */
export const WEATHER_TTL_MS = 30 * 60_000;

const text = z.coerce.string().catch('');
const liveSchema = z.object({
  province: text,
  city: text,
  adcode: text,
  weather: text,
  temperature: text,
  winddirection: text,
  windpower: text,
  humidity: text,
  reporttime: text,
});
const castSchema = z.object({
  date: text,
  week: text,
  dayweather: text,
  nightweather: text,
  daytemp: text,
  nighttemp: text,
  daywind: text,
  daypower: text,
});
const answerSchema = z.object({
  status: z.coerce.string(),
  info: z.coerce.string().optional(),
  infocode: z.coerce.string().optional(),
  lives: z.array(liveSchema).optional(),
  forecasts: z.array(z.object({ casts: z.array(castSchema).catch([]) })).optional(),
});

type Answer = Extract<Weather, { configured: true }>;
const answers = createCache<string, { at: number; value: Answer }>('weather.answers', {
  max: 32,
  ttlMs: WEATHER_TTL_MS,
});

export class WeatherUpstreamError extends Error {}

const WEEK = ['', '周一', '周二', '周三', '周四', '周五', '周六', '周日'];

export function createWeatherService(
  cfg: Config['weather'],
  now: () => Date,
  deps: { fetch?: typeof fetch; warn?: (msg: string) => void } = {},
) {
  const doFetch = deps.fetch ?? fetch;
  const inflight = new Map<string, Promise<Answer>>();

  async function ask(extensions: 'base' | 'all') {
    const url = new URL(cfg.url);
    url.searchParams.set('key', cfg.key ?? '');
    url.searchParams.set('city', cfg.city);
    url.searchParams.set('extensions', extensions);
    url.searchParams.set('output', 'JSON');
    let res: Response;
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(cfg.timeoutMs), headers: { accept: 'application/json' } });
    } catch (e) {
      throw new WeatherUpstreamError(`request failed: ${(e as Error).name}`);
    }
    if (!res.ok) throw new WeatherUpstreamError(`HTTP ${res.status}`);
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      throw new WeatherUpstreamError('not JSON');
    }
    const parsed = answerSchema.safeParse(body);
    if (!parsed.success) throw new WeatherUpstreamError('unexpected answer');
    if (parsed.data.status !== '1') {
      throw new WeatherUpstreamError(`refused: ${parsed.data.info ?? ''} ${parsed.data.infocode ?? ''}`.trim());
    }
    return parsed.data;
  }

  async function load(): Promise<Answer> {
    const [base, all] = await Promise.all([ask('base'), ask('all')]);
    const live = base.lives?.[0];
    if (!live) throw new WeatherUpstreamError('no live weather for the city');
    const casts: WeatherCast[] = (all.forecasts?.[0]?.casts ?? []).map((c) => ({
      ...c,
      week: WEEK[Number(c.week)] ?? c.week,
      dayweatherIcon: weatherIconOf(c.dayweather),
    }));
    return {
      configured: true,
      ...live,
      dayweatherIcon: weatherIconOf(live.weather),
      forecasts: casts,
    };
  }

  return {
    async current(): Promise<Weather> {
      if (!cfg.key) return { configured: false, message: WEATHER_NOT_CONFIGURED };
      const cacheKey = `${cfg.url}|${cfg.city}|${cfg.key}`;
      const at = now().getTime();
      const kept = answers.get(cacheKey);
      if (kept && at - kept.at >= 0 && at - kept.at < WEATHER_TTL_MS) return kept.value;
      let pending = inflight.get(cacheKey);
      if (!pending) {
        pending = load()
          .then((value) => {
            answers.set(cacheKey, { at, value });
            return value;
          })
          .finally(() => inflight.delete(cacheKey));
        inflight.set(cacheKey, pending);
      }
      try {
        return await pending;
      } catch (e) {
        if (e instanceof WeatherUpstreamError) {
          deps.warn?.(`weather service failed: ${e.message}`);
          throw new AppError(502, Code.BAD_GATEWAY, WEATHER_UPSTREAM_FAILED);
        }
        throw e;
      }
    },
  };
}
