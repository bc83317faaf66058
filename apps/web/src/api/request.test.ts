import { Code, Msg, SESSION_KEYS, VERSION_STORAGE_KEY } from '@ks/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  COMPANY_INFO_URL,
  createRequestClient,
  fileNameFromDisposition,
  type RequestEffects,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './request';

function response(status: number, body: string, headers: Record<string, string> = {}): TransportResponse {
  const h = new Headers(headers);
  return {
    status,
    headers: h,
    text: async () => body,
    blob: async () => new Blob([body], { type: h.get('content-type') ?? '' }),
  };
}

function envelope(status: number, code: number, message: string, data: unknown = null): TransportResponse {
  return response(status, JSON.stringify({ code, data, message }), { 'content-type': 'application/json' });
}

/** A transport that never answers but rejects when aborted, like fetch. */
const hangingTransport: Transport = (req) =>
  new Promise((_resolve, reject) => {
    req.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
  });

function setup(pathname = '/system/pageConfig', answer?: TransportResponse | Transport) {
  const calls: TransportRequest[] = [];
  const transport = vi.fn<Transport>(async (req) => {
    calls.push(req);
    if (typeof answer === 'function') return answer(req);
    return answer ?? envelope(200, 200, Msg.OK, { ok: true });
  });
  const effects = {
    prompt: vi.fn<RequestEffects['prompt']>(),
    loginPrompt: vi.fn<RequestEffects['loginPrompt']>(),
    navigate: vi.fn<RequestEffects['navigate']>(),
    assign: vi.fn<RequestEffects['assign']>(),
    pathname: vi.fn(() => pathname),
    requirePasswordChange: vi.fn<RequestEffects['requirePasswordChange']>(),
  };
  const client = createRequestClient({ transport, effects });
  return { client, transport, effects, calls };
}

function seedStorage() {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-1');
  sessionStorage.setItem(SESSION_KEYS.userInfo, '{"id":"1"}');
  localStorage.setItem(VERSION_STORAGE_KEY, '1.2.3');
  localStorage.setItem('other', 'x');
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected a rejection');
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('request: success and headers', () => {
  it('resolves with data of a code-200 envelope and sends the bearer token when one exists', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-abc');
    const { client, calls } = setup('/system/pageConfig', envelope(200, 200, Msg.OK, { a: 1 }));
    await expect(client.request({ url: '/ks/x', method: 'POST', data: { q: '中文' } })).resolves.toEqual({ a: 1 });
    expect(calls[0].headers.Authorization).toBe('Bearer tok-abc');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers['Content-Type']).toContain('application/json');
    expect(JSON.parse(String(calls[0].body))).toEqual({ q: '中文' });
  });

  it('sends no Authorization header with isToken:false even when a token exists', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-abc');
    const { client, calls } = setup();
    await client.request({ url: '/ks/common/public-key', isToken: false });
    expect(calls[0].headers.Authorization).toBeUndefined();
  });

  it('sends no Authorization header when there is no token', async () => {
    const { client, calls } = setup();
    await client.request({ url: '/ks/x' });
    expect(calls[0].headers).not.toHaveProperty('Authorization');
  });

  it('adds params (and GET data) to the query string, skipping empty values', async () => {
    const { client, calls } = setup();
    await client.request({ url: '/ks/x', params: { a: 1, b: undefined, c: null, d: '中' }, data: { e: true } });
    expect(calls[0].url).toBe('/ks/x?e=true&a=1&d=%E4%B8%AD');
    expect(calls[0].body).toBeUndefined();
  });
});

describe('request: session-ending codes', () => {
  for (const code of [Code.SESSION_EXPIRED, Code.TOKEN_INVALID, Code.SIGNED_IN_ELSEWHERE]) {
    it(`code ${code}: prompt with the server message, then after 500 ms clear storage and go to /login with the reason`, async () => {
      seedStorage();
      const message = `会话结束 ${code}`;
      const { client, effects } = setup('/system/pageConfig', envelope(401, code, message));
      const err = await rejection(client.request({ url: '/ks/x' }));
      expect(err.code).toBe(code);
      expect(err.status).toBe(401);
      expect(effects.prompt).toHaveBeenCalledTimes(1);
      expect(effects.prompt.mock.calls[0][0].message).toBe(message);

      await vi.advanceTimersByTimeAsync(499);
      expect(effects.assign).not.toHaveBeenCalled();
      expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-1');
      expect(localStorage.getItem('other')).toBe('x');

      await vi.advanceTimersByTimeAsync(1);
      // the reload takes the prompt with it: the sign-in page is told why, and says so
      expect(effects.assign).toHaveBeenCalledWith(`/login?reason=${code}`);
      expect(sessionStorage.length).toBe(0);
      expect(localStorage.getItem('other')).toBeNull();
      expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('1.2.3');
      expect(effects.loginPrompt).not.toHaveBeenCalled();
    });
  }

  it('ends the session for such a code whatever the HTTP status (here 200)', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(200, Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED));
    await rejection(client.request({ url: '/ks/x' }));
    expect(effects.prompt).toHaveBeenCalledWith(expect.objectContaining({ message: Msg.SESSION_EXPIRED }));
    await vi.advanceTimersByTimeAsync(500);
    expect(effects.assign).toHaveBeenCalledWith(`/login?reason=${Code.SESSION_EXPIRED}`);
  });

  it('prompts only once when several requests in flight end the session', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(401, Code.TOKEN_INVALID, Msg.TOKEN_INVALID));
    await Promise.allSettled([client.request({ url: '/ks/a' }), client.request({ url: '/ks/b' })]);
    await vi.advanceTimersByTimeAsync(500);
    expect(effects.prompt).toHaveBeenCalledTimes(1);
    expect(effects.assign).toHaveBeenCalledTimes(1);
  });
});

describe('request: not signed in', () => {
  it('HTTP 401: after 500 ms clear both storages and reload to the root, without a dialog', async () => {
    seedStorage();
    const { client, effects } = setup('/system/pageConfig', envelope(401, 401, Msg.NOT_SIGNED_IN));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.status).toBe(401);
    await vi.advanceTimersByTimeAsync(499);
    expect(effects.assign).not.toHaveBeenCalled();
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('tok-1');
    await vi.advanceTimersByTimeAsync(1);
    expect(effects.assign).toHaveBeenCalledWith('/');
    expect(sessionStorage.length).toBe(0);
    expect(localStorage.getItem('other')).toBeNull();
    expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('1.2.3');
    expect(effects.prompt).not.toHaveBeenCalled();
    expect(effects.loginPrompt).not.toHaveBeenCalled();
  });

  it('message 未登录 with another status also reloads to the root after 500 ms', async () => {
    seedStorage();
    const { client, effects } = setup('/system/pageConfig', envelope(200, 400, '未登录'));
    await rejection(client.request({ url: '/ks/x' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(effects.assign).toHaveBeenCalledWith('/');
    expect(sessionStorage.length).toBe(0);
    expect(effects.prompt).not.toHaveBeenCalled();
  });
});

describe('request: 418 complete the company information', () => {
  it('prompts, and navigates to /system/companyInfo?type=1 only when confirmed', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(418, 418, '请先完善企业信息'));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.status).toBe(418);
    expect(effects.prompt).toHaveBeenCalledTimes(1);
    const options = effects.prompt.mock.calls[0][0];
    expect(options.message).toBe('请先完善企业信息');
    expect(effects.navigate).not.toHaveBeenCalled();
    options.onOk?.();
    expect(effects.navigate).toHaveBeenCalledWith(COMPANY_INFO_URL);
    expect(COMPANY_INFO_URL).toBe('/system/companyInfo?type=1');
  });

  it('prompts once for the several calls of a page refused with 418, and again after the prompt was confirmed', async () => {
    const { client, effects } = setup('/dynamicPage/dynamicIndex', envelope(418, 418, '请先完善企业信息'));
    await Promise.allSettled([client.request({ url: '/ks/a' }), client.request({ url: '/ks/b' })]);
    expect(effects.prompt).toHaveBeenCalledTimes(1);
    effects.prompt.mock.calls[0][0].onOk?.();
    expect(effects.navigate).toHaveBeenCalledTimes(1);
    await rejection(client.request({ url: '/ks/c' }));
    expect(effects.prompt).toHaveBeenCalledTimes(2);
  });

  it('code 418 in an HTTP 200 answer is handled the same way', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(200, 418, '请先完善企业信息'));
    await rejection(client.request({ url: '/ks/x' }));
    effects.prompt.mock.calls[0][0].onOk?.();
    expect(effects.navigate).toHaveBeenCalledWith('/system/companyInfo?type=1');
  });
});

describe('request: the password must be changed first (10020)', () => {
  it('opens the change-password dialog instead of a prompt, on every page including the login page', async () => {
    for (const path of ['/system/pageConfig', '/login']) {
      const { client, effects } = setup(
        path,
        envelope(403, Code.PASSWORD_CHANGE_REQUIRED, Msg.PASSWORD_CHANGE_REQUIRED),
      );
      const err = await rejection(client.request({ url: '/ks/x' }));
      expect(err.code).toBe(Code.PASSWORD_CHANGE_REQUIRED);
      expect(effects.requirePasswordChange).toHaveBeenCalledTimes(1);
      expect(effects.prompt).not.toHaveBeenCalled();
      expect(effects.loginPrompt).not.toHaveBeenCalled();
    }
  });
});

describe('request: other errors', () => {
  it('HTTP 500: prompt type 1 with the server message; rejects with status, code, message and data', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(500, 500, Msg.INTERNAL, { requestId: 'req-1' }));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err).toMatchObject({ status: 500, code: 500, message: Msg.INTERNAL, data: { requestId: 'req-1' } });
    expect(effects.prompt).toHaveBeenCalledWith({ message: Msg.INTERNAL, type: 1 });
  });

  it('HTTP 503 without an envelope: prompt type 1 with 请求失败，请联系管理员！', async () => {
    const { client, effects } = setup('/system/pageConfig', response(503, '<html>busy</html>'));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.status).toBe(503);
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求失败，请联系管理员！', type: 1 });
  });

  for (const [status, message] of [
    [400, Msg.BAD_REQUEST],
    [403, Msg.FORBIDDEN],
    [404, Msg.NOT_FOUND],
    [409, Msg.CONFLICT],
    [413, Msg.PAYLOAD_TOO_LARGE],
    [429, Msg.TOO_MANY_REQUESTS],
  ] as const) {
    it(`HTTP ${status}: prompt type 2 with the server message`, async () => {
      const data = status === 400 ? { fieldErrors: { name: ['必填'] } } : null;
      const { client, effects } = setup('/system/pageConfig', envelope(status, status, message, data));
      const err = await rejection(client.request({ url: '/ks/x' }));
      expect(err).toMatchObject({ status, code: status, message, data });
      expect(effects.prompt).toHaveBeenCalledWith({ message, type: 2 });
      expect(effects.loginPrompt).not.toHaveBeenCalled();
    });
  }

  it('a non-200 code in an HTTP 200 answer is an error too (type 2)', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(200, 600, '业务校验未通过'));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.code).toBe(600);
    expect(effects.prompt).toHaveBeenCalledWith({ message: '业务校验未通过', type: 2 });
  });

  it('an error without a message shows 请求失败，请联系管理员！', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(404, 404, ''));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.message).toBe('请求失败，请联系管理员！');
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求失败，请联系管理员！', type: 2 });
  });

  it('HTTP 502 is silent but still rejects', async () => {
    const { client, effects } = setup('/system/pageConfig', response(502, 'Bad Gateway'));
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.status).toBe(502);
    await vi.advanceTimersByTimeAsync(1000);
    expect(effects.prompt).not.toHaveBeenCalled();
    expect(effects.loginPrompt).not.toHaveBeenCalled();
    expect(effects.assign).not.toHaveBeenCalled();
  });

  it('a network failure (transport throws) rejects with 请求失败，请联系管理员！ and prompts', async () => {
    const { client, effects } = setup('/system/pageConfig', async () => {
      throw new TypeError('Failed to fetch');
    });
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err).toMatchObject({ kind: 'network', status: 0, message: '请求失败，请联系管理员！' });
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求失败，请联系管理员！', type: 2 });
  });

  it('a transport that throws synchronously is a network failure too, and its timer is cleared', async () => {
    const effects = { prompt: vi.fn(), pathname: () => '/system/pageConfig' };
    const client = createRequestClient({
      transport: () => {
        throw new TypeError('bad init');
      },
      effects,
    });
    const err = await rejection(client.request({ url: '/ks/x' }));
    expect(err.kind).toBe('network');
    expect(vi.getTimerCount()).toBe(0);
    expect(effects.prompt).toHaveBeenCalledTimes(1);
  });

  it('silent requests reject without any dialog, prompt or redirect', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(401, Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED));
    await rejection(client.request({ url: '/ks/x', silent: true }));
    await vi.advanceTimersByTimeAsync(1000);
    expect(effects.prompt).not.toHaveBeenCalled();
    expect(effects.assign).not.toHaveBeenCalled();
  });

  it('report() applies the usual handling to a failure of a silent call after all', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(401, Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED));
    const err = await rejection(client.request({ url: '/ks/x', silent: true }));
    expect(effects.prompt).not.toHaveBeenCalled();
    client.report(err);
    expect(effects.prompt).toHaveBeenCalledWith({ message: Msg.SESSION_EXPIRED, type: 1 });
    await vi.advanceTimersByTimeAsync(500);
    expect(effects.assign).toHaveBeenCalledWith(`/login?reason=${Code.SESSION_EXPIRED}`);
  });
});

describe('request: login page and root use the login prompt', () => {
  for (const path of ['/login', '/', '/admin-business']) {
    it(`on ${path} a 400 goes to the login prompt, not a dialog`, async () => {
      const { client, effects } = setup(path, envelope(400, 400, Msg.BAD_CREDENTIALS, { captchaRequired: true }));
      const err = await rejection(client.request({ url: '/ks/common/login', method: 'POST', isToken: false }));
      expect(err.data).toEqual({ captchaRequired: true });
      expect(effects.loginPrompt).toHaveBeenCalledWith(Msg.BAD_CREDENTIALS);
      expect(effects.prompt).not.toHaveBeenCalled();
    });

    it(`on ${path} a 500 goes to the login prompt as well`, async () => {
      const { client, effects } = setup(path, envelope(500, 500, Msg.INTERNAL));
      await rejection(client.request({ url: '/ks/x' }));
      expect(effects.loginPrompt).toHaveBeenCalledWith(Msg.INTERNAL);
      expect(effects.prompt).not.toHaveBeenCalled();
    });

    it(`on ${path} a timeout goes to the login prompt`, async () => {
      const { client, effects } = setup(path, hangingTransport);
      const p = rejection(client.request({ url: '/ks/x' }));
      await vi.advanceTimersByTimeAsync(300_000);
      expect((await p).message).toBe('请求超时');
      expect(effects.loginPrompt).toHaveBeenCalledWith('请求超时');
      expect(effects.prompt).not.toHaveBeenCalled();
    });
  }

  it('a trailing slash on /login still counts as the login page', async () => {
    const { client, effects } = setup('/login/', envelope(400, 400, Msg.CAPTCHA_REQUIRED));
    await rejection(client.request({ url: '/ks/x' }));
    expect(effects.loginPrompt).toHaveBeenCalledWith(Msg.CAPTCHA_REQUIRED);
  });
});

describe('request: timeout', () => {
  it('rejects with 请求超时 after REQUEST_TIMEOUT_MS (300 s) and not before, aborting the transport', async () => {
    let signal: AbortSignal | undefined;
    const { client, effects } = setup('/system/pageConfig', (req) => {
      signal = req.signal;
      return hangingTransport(req);
    });
    let settled = false;
    const p = rejection(client.request({ url: '/ks/x' }).finally(() => (settled = true)));
    await vi.advanceTimersByTimeAsync(299_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const err = await p;
    expect(err).toMatchObject({ kind: 'timeout', message: '请求超时' });
    expect(signal?.aborted).toBe(true);
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求超时', type: 2 });
  });

  it('honours a per-request timeout', async () => {
    const { client } = setup('/system/pageConfig', hangingTransport);
    const p = rejection(client.request({ url: '/ks/x', timeout: 1000 }));
    await vi.advanceTimersByTimeAsync(1000);
    expect((await p).message).toBe('请求超时');
  });
});

describe('download', () => {
  it('resolves with the blob and the RFC 5987 file name, sending the bearer token', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'tok-d');
    const { client, calls } = setup(
      '/system/pageConfig',
      response(200, 'PK-binary', {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-disposition': `attachment; filename="report.xlsx"; filename*=UTF-8''${encodeURIComponent('信用报告.xlsx')}`,
      }),
    );
    const result = await client.download({ url: '/ks/monitor/export', method: 'POST', data: { id: 1 } });
    expect(result.fileName).toBe('信用报告.xlsx');
    expect(await result.blob.text()).toBe('PK-binary');
    expect(calls[0].headers.Authorization).toBe('Bearer tok-d');
    expect(calls[0].method).toBe('POST');
    expect(JSON.parse(String(calls[0].body))).toEqual({ id: 1 });
  });

  it('a JSON envelope error is handled like any request error', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(200, 404, '文件不存在'));
    const err = await rejection(client.download({ url: '/ks/file' }));
    expect(err).toMatchObject({ status: 200, code: 404, message: '文件不存在' });
    expect(effects.prompt).toHaveBeenCalledWith({ message: '文件不存在', type: 2 });
  });

  it('a session-ending code on a download goes to /login after 500 ms', async () => {
    const { client, effects } = setup('/system/pageConfig', envelope(401, Code.SIGNED_IN_ELSEWHERE, '异地登录'));
    await rejection(client.download({ url: '/ks/file' }));
    expect(effects.prompt).toHaveBeenCalledWith(expect.objectContaining({ message: '异地登录' }));
    await vi.advanceTimersByTimeAsync(500);
    expect(effects.assign).toHaveBeenCalledWith(`/login?reason=${Code.SIGNED_IN_ELSEWHERE}`);
  });

  it('a non-JSON HTTP failure rejects with the generic message (type 1 for 5xx)', async () => {
    const { client, effects } = setup('/system/pageConfig', response(500, 'oops', { 'content-type': 'text/plain' }));
    const err = await rejection(client.download({ url: '/ks/file' }));
    expect(err.status).toBe(500);
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求失败，请联系管理员！', type: 1 });
  });

  it('times out after DOWNLOAD_TIMEOUT_MS (60 s) with 请求超时', async () => {
    const { client, effects } = setup('/system/pageConfig', hangingTransport);
    let settled = false;
    const p = rejection(client.download({ url: '/ks/file' }).finally(() => (settled = true)));
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await p).message).toBe('请求超时');
    expect(effects.prompt).toHaveBeenCalledWith({ message: '请求超时', type: 2 });
  });
});

describe('fileNameFromDisposition', () => {
  it('reads filename*, quoted and bare filename, and returns null without one', () => {
    expect(fileNameFromDisposition(`attachment; filename*=utf-8''%E4%B8%AD%E6%96%87.pdf`)).toBe('中文.pdf');
    expect(fileNameFromDisposition('attachment; filename="a b.txt"')).toBe('a b.txt');
    expect(fileNameFromDisposition('attachment; filename=plain.csv')).toBe('plain.csv');
    expect(fileNameFromDisposition('attachment; filename="%E4%B8%AD.txt"')).toBe('中.txt');
    expect(fileNameFromDisposition('attachment')).toBeNull();
    expect(fileNameFromDisposition(null)).toBeNull();
  });
});

describe('request: one refresh on an expired session (issue 15)', () => {
  const expired = () => envelope(401, Code.SESSION_EXPIRED, Msg.SESSION_EXPIRED);

  it('trades the refresh token once, stores the new pair and sends the call again with the new token', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 'old-token');
    sessionStorage.setItem('refreshToken', 'old-refresh');
    const { client, calls, effects } = setup('/system/pageConfig', async (req) => {
      if (req.url.endsWith('/authorization/refresh')) {
        return envelope(200, 200, Msg.OK, { token: 'new-token', refreshToken: 'new-refresh' });
      }
      return req.headers.Authorization === 'Bearer new-token' ? envelope(200, 200, Msg.OK, { n: 1 }) : expired();
    });
    // two calls of the page find the session expired at once: one refresh serves both
    const [a, b] = await Promise.all([client.request({ url: '/ks/a' }), client.request({ url: '/ks/b' })]);
    expect(a).toEqual({ n: 1 });
    expect(b).toEqual({ n: 1 });
    const refreshes = calls.filter((c) => c.url.endsWith('/authorization/refresh'));
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0].headers.Authorization).toBeUndefined();
    expect(JSON.parse(String(refreshes[0].body))).toEqual({ refreshToken: 'old-refresh' });
    expect(sessionStorage.getItem(SESSION_KEYS.token)).toBe('new-token');
    expect(sessionStorage.getItem('refreshToken')).toBe('new-refresh');
    expect(effects.prompt).not.toHaveBeenCalled();
    expect(effects.assign).not.toHaveBeenCalled();
  });

  it('a refused refresh ends the session as before (prompt, then /login?reason=10000)', async () => {
    seedStorage();
    sessionStorage.setItem('refreshToken', 'stale');
    const { client, effects, calls } = setup('/system/pageConfig', async (req) =>
      req.url.endsWith('/authorization/refresh')
        ? envelope(401, Code.TOKEN_INVALID, '登录已失效，请重新登录')
        : expired(),
    );
    const err = await rejection(client.request({ url: '/ks/a' }));
    expect(err.code).toBe(Code.SESSION_EXPIRED);
    expect(calls).toHaveLength(2);
    expect(effects.prompt).toHaveBeenCalledWith({ message: Msg.SESSION_EXPIRED, type: 1 });
    vi.advanceTimersByTime(500);
    expect(effects.assign).toHaveBeenCalledWith('/login?reason=10000');
  });

  it('does not refresh for other session-ending codes, or without a refresh token', async () => {
    sessionStorage.setItem(SESSION_KEYS.token, 't');
    sessionStorage.setItem('refreshToken', 'r');
    const { client, calls } = setup(
      '/system/pageConfig',
      envelope(401, Code.SIGNED_IN_ELSEWHERE, Msg.SIGNED_IN_ELSEWHERE),
    );
    await rejection(client.request({ url: '/ks/a' }));
    expect(calls).toHaveLength(1);
    sessionStorage.removeItem('refreshToken');
    const second = setup('/system/pageConfig', expired());
    await rejection(second.client.request({ url: '/ks/a' }));
    expect(second.calls).toHaveLength(1);
  });
});
