import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the two SMS providers (test-only module), on one address:
 * - Aliyun Dysmsapi: a form POST with Action=SendSms; the signature (version 1.0, HMAC-SHA1 over the sorted,
 *   percent-encoded parameters, key = secret + "&") is recomputed here and must match — else Aliyun's
 *   SignatureDoesNotMatch. Answers {Code:'OK', Message:'OK', BizId, RequestId}.
 * - Tencent Cloud SMS: a JSON POST with X-TC-Action: SendSms; the TC3-HMAC-SHA256 Authorization is recomputed and must
 *   match — else AuthFailure.SignatureFailure. Answers Response.SendStatusSet[0].Code 'Ok'.
 * Its own implementation of both procedures (not the adapters'), so a mistake in an adapter shows. Accepted messages
 * are recorded; `hangMs` delays every answer (timeouts).
 */
export const FAKE_SMS_ID = 'fake-sms-access-key-id';
export const FAKE_SMS_SECRET = 'fake-sms-access-key-secret-0001';
export const FAKE_SMS_APP_ID = '1400006666';

export interface FakeSmsMessage {
  provider: 'aliyun' | 'tencent';
  phone: string;
  signName: string;
  template: string;
  params: string[] | Record<string, string>;
}

export interface FakeSms {
  url: string;
  messages: FakeSmsMessage[];
  /** requests refused for their signature */
  refused: number;
  hangMs: number;
  close(): Promise<void>;
}

const enc = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function aliyun(body: string, secret: string): { status: number; answer: unknown; message?: FakeSmsMessage } {
  const form = new URLSearchParams(body);
  const params: Record<string, string> = {};
  for (const [k, v] of form) params[k] = v;
  const given = params.Signature ?? '';
  delete params.Signature;
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${enc(k)}=${enc(params[k]!)}`)
    .join('&');
  const expected = createHmac('sha1', `${secret}&`)
    .update(`POST&%2F&${enc(canonical)}`)
    .digest('base64');
  if (params.AccessKeyId !== FAKE_SMS_ID) {
    return {
      status: 404,
      answer: { Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' },
    };
  }
  if (!sameText(given, expected)) {
    return {
      status: 400,
      answer: {
        Code: 'SignatureDoesNotMatch',
        Message: 'Specified signature is not matched with our calculation.',
        RequestId: 'FAKE-REQ',
      },
    };
  }
  if (params.Action !== 'SendSms' || params.Version !== '2017-05-25' || params.SignatureVersion !== '1.0') {
    return { status: 400, answer: { Code: 'InvalidParameter', Message: 'bad action or version' } };
  }
  return {
    status: 200,
    answer: { Code: 'OK', Message: 'OK', BizId: '900619746936498440^0', RequestId: 'FAKE-REQ' },
    message: {
      provider: 'aliyun',
      phone: params.PhoneNumbers ?? '',
      signName: params.SignName ?? '',
      template: params.TemplateCode ?? '',
      params: JSON.parse(params.TemplateParam ?? '{}') as Record<string, string>,
    },
  };
}

function tencent(
  req: IncomingMessage,
  body: string,
  secret: string,
): { status: number; answer: unknown; message?: FakeSmsMessage } {
  const auth = String(req.headers.authorization ?? '');
  const m =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/sms\/tc3_request, SignedHeaders=content-type;host, Signature=([0-9a-f]{64})$/.exec(
      auth,
    );
  const fail = (code: string, message: string) => ({
    status: 200,
    answer: { Response: { Error: { Code: code, Message: message }, RequestId: 'fake-req' } },
  });
  if (!m) return fail('AuthFailure.InvalidAuthorization', 'Authorization header is malformed.');
  const [, secretId, date, given] = m;
  if (secretId !== FAKE_SMS_ID) return fail('AuthFailure.SecretIdNotFound', 'The SecretId is not found.');
  const timestamp = String(req.headers['x-tc-timestamp'] ?? '');
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const canonical = `POST\n/\n\ncontent-type:${req.headers['content-type']}\nhost:${req.headers.host}\n\ncontent-type;host\n${sha(body)}`;
  const toSign = `TC3-HMAC-SHA256\n${timestamp}\n${date}/sms/tc3_request\n${sha(canonical)}`;
  const h = (k: Buffer | string, s: string) => createHmac('sha256', k).update(s).digest();
  const key = h(h(h(`TC3${secret}`, date!), 'sms'), 'tc3_request');
  const expected = createHmac('sha256', key).update(toSign).digest('hex');
  if (!sameText(given!, expected)) {
    return fail(
      'AuthFailure.SignatureFailure',
      'The provided credentials could not be validated. Please check your signature is correct.',
    );
  }
  if (req.headers['x-tc-action'] !== 'SendSms' || req.headers['x-tc-version'] !== '2021-01-11') {
    return fail('InvalidAction', 'bad action or version');
  }
  const p = JSON.parse(body) as {
    PhoneNumberSet: string[];
    SmsSdkAppId: string;
    SignName: string;
    TemplateId: string;
    TemplateParamSet: string[];
  };
  if (p.SmsSdkAppId !== FAKE_SMS_APP_ID) return fail('FailedOperation.SmsSdkAppIdVerifyFail', 'SdkAppId 校验失败');
  return {
    status: 200,
    answer: {
      Response: {
        SendStatusSet: [
          {
            SerialNo: '5000:1045710669157053657849499619',
            PhoneNumber: p.PhoneNumberSet[0],
            Fee: 1,
            SessionContext: '',
            Code: 'Ok',
            Message: 'send success',
            IsoCode: 'CN',
          },
        ],
        RequestId: 'fake-req',
      },
    },
    message: {
      provider: 'tencent',
      phone: p.PhoneNumberSet[0] ?? '',
      signName: p.SignName,
      template: p.TemplateId,
      params: p.TemplateParamSet,
    },
  };
}

export async function startFakeSms(secret = FAKE_SMS_SECRET): Promise<FakeSms> {
  const state: Omit<FakeSms, 'close' | 'url'> = { messages: [], refused: 0, hangMs: 0 };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    if (state.hangMs) await new Promise((r) => setTimeout(r, state.hangMs));
    if (res.destroyed) return;
    const out = req.headers['x-tc-action'] ? tencent(req, body, secret) : aliyun(body, secret);
    if (out.message) state.messages.push(out.message);
    else state.refused++;
    res.writeHead(out.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(out.answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as FakeSms;
}
