import { LOGIN_MODES, type LoginMode, type PortalConfig, paths } from '@ks/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from './request';

export const DEFAULT_PORTAL_CONFIG: PortalConfig = { loginMode: 'ggfw', bidHallUrl: null };

function isLoginMode(value: unknown): value is LoginMode {
  return typeof value === 'string' && (LOGIN_MODES as readonly string[]).includes(value);
}

/** Only absolute http(s) addresses are used as the bid-opening hall link. */
export function safeExternalUrl(value: string | null | undefined): string | null {
  const url = value?.trim();
  if (!url) return null;
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : null;
}

/**
 * The portal configuration the server writes into index.html: `<meta name="ks-login-mode" content="ggfw">` and
 * `<meta name="ks-bid-hall" content="https://…">` (empty when not configured). null when the tags are absent
 * (e.g. the Vite dev server), in which case the API is asked.
 */
export function readPortalConfigMeta(doc: Document = document): PortalConfig | null {
  const mode = doc.querySelector('meta[name="ks-login-mode"]')?.getAttribute('content')?.trim();
  if (!isLoginMode(mode)) return null;
  const hall = doc.querySelector('meta[name="ks-bid-hall"]')?.getAttribute('content');
  return { loginMode: mode, bidHallUrl: safeExternalUrl(hall) };
}

export async function fetchPortalConfig(): Promise<PortalConfig> {
  try {
    const data = await request<PortalConfig>({
      url: paths.portalConfig.path,
      method: paths.portalConfig.method,
      isToken: false,
      silent: true,
    });
    return {
      loginMode: isLoginMode(data?.loginMode) ? data.loginMode : DEFAULT_PORTAL_CONFIG.loginMode,
      bidHallUrl: safeExternalUrl(data?.bidHallUrl),
    };
  } catch {
    // the portal stays usable with the defaults (spec §9: login mode ggfw)
    return DEFAULT_PORTAL_CONFIG;
  }
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
