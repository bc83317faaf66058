import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_WECHAT_DEFAULT_OPENID, type FakeWechat, startFakeWechat } from '../../test/fake-wechat';
import { createWechatClient, WECHAT_CALLBACK_PATH, WechatError } from './wechat';

/** The WeChat adapter against the local fake of the Open Platform (started here). */
let fake: FakeWechat;
const cfg = () => ({
  appId: fake.appId,
  appSecret: fake.secret,
  redirectBase: 'http://platform.test',
  openUrl: fake.url,
  apiUrl: fake.url,
  timeoutMs: 5000,
});

beforeAll(async () => {
  fake = await startFakeWechat();
});
afterAll(async () => fake?.close());

describe('WeChat adapter', () => {
  it('builds the documented qrconnect address', () => {
    const url = new URL(createWechatClient(cfg()).qrconnectUrl('state-abc'));
    expect(url.origin + url.pathname).toBe(`${fake.url}/connect/qrconnect`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      appid: fake.appId,
      redirect_uri: `http://platform.test${WECHAT_CALLBACK_PATH}`,
      response_type: 'code',
      scope: 'snsapi_login',
      state: 'state-abc',
    });
    expect(url.hash).toBe('#wechat_redirect');
  });

  it('trades a code for openid and unionid, then reads the profile', async () => {
    fake.mode = 'ok';
    const c = createWechatClient(cfg());
    const id = await c.exchangeCode(fake.issueCode());
    expect(id.openid).toBe(FAKE_WECHAT_DEFAULT_OPENID);
    expect(id.unionid).toBe(`u_${FAKE_WECHAT_DEFAULT_OPENID}`);
    const profile = await c.userInfo(id.accessToken, id.openid);
    expect(profile).toEqual({ nickname: '微信用户张三', headimgurl: null, unionid: `u_${FAKE_WECHAT_DEFAULT_OPENID}` });
  });

  it('turns an errcode answer into a clear message (used code, wrong secret)', async () => {
    fake.mode = 'ok';
    const c = createWechatClient(cfg());
    const code = fake.issueCode();
    await c.exchangeCode(code);
    const again = await c.exchangeCode(code).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(WechatError);
    expect((again as WechatError).errcode).toBe(40029);
    expect((again as WechatError).message).toBe('微信授权失败：invalid code（errcode 40029）');
    const wrong = createWechatClient({ ...cfg(), appSecret: 'not-the-secret' });
    const e2 = (await wrong.exchangeCode(fake.issueCode()).catch((e: unknown) => e)) as WechatError;
    expect(e2.errcode).toBe(40125);
    // the secret is in no message
    expect(e2.message).not.toContain('not-the-secret');
    const e3 = (await c.userInfo('bad-token', 'x').catch((e: unknown) => e)) as WechatError;
    expect(e3.errcode).toBe(40001);
  });

  it('says plainly when WeChat cannot be reached, answers HTTP errors or garbage, or hangs', async () => {
    const down = createWechatClient({ ...cfg(), apiUrl: 'http://127.0.0.1:9' });
    await expect(down.exchangeCode('x')).rejects.toThrow('无法连接微信服务，请稍后再试');
    const c = createWechatClient(cfg());
    fake.mode = 'http-500';
    await expect(c.exchangeCode('x')).rejects.toThrow('微信服务返回 HTTP 500，请稍后再试');
    fake.mode = 'garbage';
    await expect(c.exchangeCode('x')).rejects.toThrow('微信服务的应答无法识别，请稍后再试');
    fake.mode = 'hang';
    await expect(createWechatClient({ ...cfg(), timeoutMs: 300 }).exchangeCode('x')).rejects.toThrow(
      '连接微信服务超时，请稍后再试',
    );
    fake.mode = 'ok';
  });
});
