import { api } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { route } from '../../platform/route';
import { createWeatherService } from './weather.service';

/** GET /ks/common/weather for anyone signed in (the header widget). */
export function weatherRoutes(app: FastifyInstance, cfg: Config['weather'], now: () => Date) {
  const weather = createWeatherService(cfg, now, { warn: (msg) => app.log.warn(msg) });
  route(app, api.weather, async () => weather.current(), { roles: ['M', 'D', 'U'] });
}
