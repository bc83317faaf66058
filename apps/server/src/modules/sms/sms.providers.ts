import type { Config } from '../../config';
import type { SmsSender } from '../../platform/integrations/sms';

/** The sender of the configured provider (SMS_PROVIDER=aliyun | tencent). */
export function providerSender(cfg: Config['sms']): SmsSender {
  throw new Error(`SMS provider ${cfg.provider}: adapter not built yet`);
}
