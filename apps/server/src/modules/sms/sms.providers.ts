import type { Config } from '../../config';
import type { SmsSender } from '../../platform/integrations/sms';
import { createAliyunSender } from '../../platform/integrations/sms-aliyun';
import { createTencentSender } from '../../platform/integrations/sms-tencent';

/** The sender of the configured provider (SMS_PROVIDER=aliyun | tencent). */
export function providerSender(cfg: Config['sms']): SmsSender {
  if (cfg.provider === 'aliyun') return createAliyunSender(cfg);
  if (cfg.provider === 'tencent') return createTencentSender(cfg);
  throw new Error(`SMS_PROVIDER=${cfg.provider} has no provider sender`);
}
