import type { PlatformInfo, SystemItem } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

export const DEFAULT_PLATFORM_NAME = '公共资源交易与信用管理平台';

export function fetchPlatform(options: { silent?: boolean } = {}): Promise<PlatformInfo> {
  return call('platform', { isToken: false, silent: options.silent });
}

/** Platform information (name, description, filing code, phone, version): one query shared by every screen. */
export const platformQuery = queryOptions({
  queryKey: ['platform'],
  queryFn: () => fetchPlatform(),
  staleTime: Number.POSITIVE_INFINITY,
});

export function fetchSystemList(): Promise<SystemItem[]> {
  return call('systemList');
}

export const systemListQuery = queryOptions({
  queryKey: ['systemList'],
  queryFn: fetchSystemList,
});
