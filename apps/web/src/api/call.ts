import type { ApiBody, ApiData, ApiName, ApiQuery } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { type Params, type RequestOptions, request } from './request';

/**
 * A call of a registered endpoint (packages/contracts `api`), typed by the registry: the answer is `ApiData<name>` (the
 * type the server's handler must return), the body `ApiBody<name>` and the query `ApiQuery<name>`. So the web has no
 * hand-written copy of a response or request shape, and a change to a contract breaks the web's type check where it
 * matters. Only types are imported: no zod reaches the bundle.
 */
export interface CallOptions<N extends ApiName> extends Omit<RequestOptions, 'url' | 'method' | 'data' | 'params'> {
  /** the JSON body, or a multipart form for the upload endpoints */
  data?: ApiBody<N> | FormData;
  params?: ApiQuery<N>;
}

export function call<N extends ApiName>(name: N, options: CallOptions<N> = {}): Promise<ApiData<N>> {
  return request<ApiData<N>>({
    url: paths[name].path,
    method: paths[name].method,
    ...options,
    params: options.params as Params | undefined,
  });
}
