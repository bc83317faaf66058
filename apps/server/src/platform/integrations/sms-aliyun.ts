import { createHmac, randomUUID } from 'node:crypto';
import { postWithTimeout, type SmsSender, smsSendFailed } from './sms';

/**
 * Aliyun SMS (Dysmsapi 2017-05-25) SendSms, an RPC-style call signed with signature version 1.0: every parameter but
 * Signature sorted by name, names and values percent-encoded (RFC 3986: only A-Z a-z 0-9 - _ . ~ left as they are,
 * space as %20), joined into the canonical query; StringToSign = METHOD & %2F & percentEncode(canonical query);
 * Signature = Base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)). The answer's Code is "OK" or an error code with
 * its Message.
 */
export const ALIYUN_SMS_ENDPOINT = 'https://dysmsapi.aliyuncs.com/';
export const ALIYUN_SMS_VERSION = '2017-05-25';

export interface AliyunSmsConfig {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  endpoint: string | null;
  region: string | null;
  timeoutMs: number;
}

/** RFC 3986 percent-encoding as Aliyun's signature wants it. */
export function aliyunPercentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The canonical query of a parameter set: sorted by name, encoded, joined with &. */
export function aliyunCanonicalQuery(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${aliyunPercentEncode(k)}=${aliyunPercentEncode(params[k] ?? '')}`)
    .join('&');
}

/** Signature version 1.0 of a request's parameters (without Signature). */
export function aliyunSignature(method: string, params: Record<string, string>, secret: string): string {
  const stringToSign = `${method}&${aliyunPercentEncode('/')}&${aliyunPercentEncode(aliyunCanonicalQuery(params))}`;
  return createHmac('sha1', `${secret}&`).update(stringToSign, 'utf8').digest('base64');
}

export function createAliyunSender(cfg: AliyunSmsConfig, now: () => Date = () => new Date()): SmsSender {
  const url = cfg.endpoint ?? ALIYUN_SMS_ENDPOINT;
  return {
    async send(phone, templateId, params) {
      const request: Record<string, string> = {
        AccessKeyId: cfg.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: phone,
        RegionId: cfg.region ?? 'cn-hangzhou',
        SignName: cfg.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: templateId,
        TemplateParam: JSON.stringify(params),
        Timestamp: now()
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z'),
        Version: ALIYUN_SMS_VERSION,
      };
      const body = aliyunCanonicalQuery({
        ...request,
        Signature: aliyunSignature('POST', request, cfg.accessKeySecret),
      });
      const res = await postWithTimeout(
        url,
        {
          headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8', accept: 'application/json' },
          body,
        },
        cfg.timeoutMs,
      );
      let answer: { Code?: unknown; Message?: unknown } | null = null;
      try {
        answer = JSON.parse(res.text) as { Code?: unknown; Message?: unknown };
      } catch {
        answer = null;
      }
      if (answer && answer.Code === 'OK') return;
      if (answer && typeof answer.Code === 'string') {
        throw smsSendFailed(
          `${typeof answer.Message === 'string' ? answer.Message : '阿里云短信拒绝发送'}（${answer.Code}）`,
        );
      }
      throw smsSendFailed(`阿里云短信服务返回 HTTP ${res.status}，无法识别的应答`);
    },
  };
}
