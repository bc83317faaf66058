import type { PlatformInfo, SystemItem } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { request } from './request';

export const DEFAULT_PLATFORM_NAME = '公共资源交易与信用管理平台';

export function fetchPlatform(options: { silent?: boolean } = {}): Promise<PlatformInfo> {
  return request<PlatformInfo>({
    url: paths.platform.path,
    method: paths.platform.method,
    isToken: false,
    silent: options.silent,
  });
}

/** Platform information (name, description, filing code, phone, version): one query shared by every screen. */
export const platformQuery = queryOptions({
  queryKey: ['platform'],
  queryFn: () => fetchPlatform(),
  staleTime: Number.POSITIVE_INFINITY,
});

export function fetchSystemList(): Promise<SystemItem[]> {
  return request<SystemItem[]>({ url: paths.systemList.path, method: paths.systemList.method });
}

export const systemListQuery = queryOptions({
  queryKey: ['systemList'],
  queryFn: fetchSystemList,
});
