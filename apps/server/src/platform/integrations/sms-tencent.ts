import { createHash, createHmac } from 'node:crypto';
import { postWithTimeout, type SmsSender, smsSendFailed } from './sms';

/**
 * Tencent Cloud SMS (API 3.0, version 2021-01-11) SendSms, signed with TC3-HMAC-SHA256: the canonical request (POST,
 * "/", empty query, headers content-type and host, SHA-256 of the JSON body) is hashed into StringToSign
 * ("TC3-HMAC-SHA256", timestamp, "<UTC date>/sms/tc3_request", its hash); the key is derived HMAC-SHA256("TC3" +
 * SecretKey, date) → service → "tc3_request"; the Authorization header carries the SecretId, the scope, the signed
 * headers and the hex signature. The answer's Response.SendStatusSet[0].Code is "Ok", or Response.Error says why.
 */
export const TENCENT_SMS_HOST = 'sms.tencentcloudapi.com';
export const TENCENT_SMS_VERSION = '2021-01-11';
const CONTENT_TYPE = 'application/json; charset=utf-8';

export interface TencentSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  sdkAppId: string;
  endpoint: string | null;
  region: string | null;
  timeoutMs: number;
}

const sha256Hex = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const hmac = (key: Buffer | string, msg: string) => createHmac('sha256', key).update(msg, 'utf8').digest();

/** The TC3-HMAC-SHA256 Authorization header of a JSON POST to `host`. */
export function tencentAuthorization(opts: {
  secretId: string;
  secretKey: string;
  host: string;
  service: string;
  timestamp: number;
  payload: string;
}): string {
  const date = new Date(opts.timestamp * 1000).toISOString().slice(0, 10);
  const signedHeaders = 'content-type;host';
  const canonicalRequest = [
    'POST',
    '/',
    '',
    `content-type:${CONTENT_TYPE}\nhost:${opts.host}\n`,
    signedHeaders,
    sha256Hex(opts.payload),
  ].join('\n');
  const scope = `${date}/${opts.service}/tc3_request`;
  const stringToSign = ['TC3-HMAC-SHA256', String(opts.timestamp), scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(`TC3${opts.secretKey}`, date), opts.service), 'tc3_request');
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return `TC3-HMAC-SHA256 Credential=${opts.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export function createTencentSender(cfg: TencentSmsConfig, now: () => Date = () => new Date()): SmsSender {
  const url = cfg.endpoint ?? `https://${TENCENT_SMS_HOST}/`;
  const host = new URL(url).host;
  return {
    async send(phone, templateId, params) {
      const payload = JSON.stringify({
        PhoneNumberSet: [`+86${phone}`],
        SmsSdkAppId: cfg.sdkAppId,
        SignName: cfg.signName,
        TemplateId: templateId,
        TemplateParamSet: Object.values(params),
      });
      const timestamp = Math.floor(now().getTime() / 1000);
      const res = await postWithTimeout(
        url,
        {
          headers: {
            authorization: tencentAuthorization({
              secretId: cfg.accessKeyId,
              secretKey: cfg.accessKeySecret,
              host,
              service: 'sms',
              timestamp,
              payload,
            }),
            'content-type': CONTENT_TYPE,
            host,
            'x-tc-action': 'SendSms',
            'x-tc-timestamp': String(timestamp),
            'x-tc-version': TENCENT_SMS_VERSION,
            'x-tc-region': cfg.region ?? 'ap-guangzhou',
          },
          body: payload,
        },
        cfg.timeoutMs,
      );
      type Answer = {
        Response?: {
          Error?: { Code?: string; Message?: string };
          SendStatusSet?: { Code?: string; Message?: string }[];
        };
      };
      let answer: Answer | null = null;
      try {
        answer = JSON.parse(res.text) as Answer;
      } catch {
        answer = null;
      }
      const r = answer?.Response;
      if (r?.Error) throw smsSendFailed(`${r.Error.Message ?? '腾讯云短信拒绝发送'}（${r.Error.Code ?? '未知错误'}）`);
      const status = r?.SendStatusSet?.[0];
      if (status?.Code === 'Ok') return;
      if (status) throw smsSendFailed(`${status.Message ?? '腾讯云短信拒绝发送'}（${status.Code ?? '未知错误'}）`);
      throw smsSendFailed(`腾讯云短信服务返回 HTTP ${res.status}，无法识别的应答`);
    },
  };
}
