import {
  canonicalTimeZone,
  DEFAULT_TIME_ZONE,
  LOGIN_MODES,
  type LoginMode,
  type PortalConfig,
  setAppTimeZone,
} from '@ks/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './call';

export const DEFAULT_PORTAL_CONFIG: PortalConfig = { loginMode: 'ggfw', bidHallUrl: null, timeZone: DEFAULT_TIME_ZONE };

function isLoginMode(value: unknown): value is LoginMode {
  return typeof value === 'string' && (LOGIN_MODES as readonly string[]).includes(value);
}

/** Only absolute http(s) addresses are used as the bid-opening hall link. */
export function safeExternalUrl(value: string | null | undefined): string | null {
  const url = value?.trim();
  if (!url) return null;
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

/** A zone the server named, in its canonical spelling; the default (Asia/Shanghai) for anything else. */
const timeZoneOf = (value: unknown) => canonicalTimeZone(value) ?? DEFAULT_TIME_ZONE;

/**
 * The portal configuration the server writes into index.html: `<meta name="ks-login-mode" content="ggfw">`,
 * `<meta name="ks-bid-hall" content="https://…">` (empty when not configured) and `<meta name="ks-time-zone"
 * content="Asia/Shanghai">` (APP_TZ). null when the tags are absent (e.g. the Vite dev server), in which case the API
 * is asked.
 */
export function readPortalConfigMeta(doc: Document = document): PortalConfig | null {
  const mode = doc.querySelector('meta[name="ks-login-mode"]')?.getAttribute('content')?.trim();
  if (!isLoginMode(mode)) return null;
  const hall = doc.querySelector('meta[name="ks-bid-hall"]')?.getAttribute('content');
  const zone = doc.querySelector('meta[name="ks-time-zone"]')?.getAttribute('content')?.trim();
  return { loginMode: mode, bidHallUrl: safeExternalUrl(hall), timeZone: timeZoneOf(zone) };
}

export async function fetchPortalConfig(): Promise<PortalConfig> {
  try {
    const data = await call('portalConfig', { isToken: false, silent: true });
    return {
      loginMode: isLoginMode(data?.loginMode) ? data.loginMode : DEFAULT_PORTAL_CONFIG.loginMode,
      bidHallUrl: safeExternalUrl(data?.bidHallUrl),
      timeZone: timeZoneOf(data?.timeZone),
    };
  } catch {
    // the portal stays usable with the defaults (spec §9: login mode ggfw)
    return DEFAULT_PORTAL_CONFIG;
  }
}

/**
 * The platform's zone for every date rule of the page (contracts' setAppTimeZone): the server's APP_TZ from the meta
 * tag; without the tags (the Vite dev server) from GET /ks/portal/v1/home/config, asked once before the first render;
 * Asia/Shanghai when that fails too. Resolves the configuration it used.
 */
export async function initAppTimeZone(doc: Document = document): Promise<PortalConfig> {
  const config = readPortalConfigMeta(doc) ?? (await fetchPortalConfig());
  setAppTimeZone(config.timeZone);
  return config;
}

/** Login mode and bid-hall address: from the meta tags at once, else from GET /ks/portal/v1/home/config. */
export const portalConfigQuery = queryOptions({
  queryKey: ['portalConfig'],
  queryFn: fetchPortalConfig,
  initialData: () => readPortalConfigMeta() ?? undefined,
  staleTime: Number.POSITIVE_INFINITY,
});

/** The portal configuration, or undefined while it is being asked for (only without the meta tags). */
export function usePortalConfig(): PortalConfig | undefined {
  return useQuery(portalConfigQuery).data;
}
