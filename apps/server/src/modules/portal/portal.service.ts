import type { PlatformInfo } from '@ks/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { getSettings } from '../../platform/settings';

export const PLATFORM_SETTING_KEYS = {
  describe: 'platform.describe',
  filingsCoding: 'platform.filingsCoding',
  phone: 'platform.phone',
} as const;

/** Platform info: texts from the platform settings (environment overrides win), version of the running build. */
export async function platformInfo(
  db: Db,
  config: Pick<Config, 'platformName' | 'platformOverrides'>,
  version: string,
): Promise<PlatformInfo> {
  const s = await getSettings(db, Object.values(PLATFORM_SETTING_KEYS));
  const o = config.platformOverrides;
  return {
    platformName: config.platformName,
    describe: o.describe ?? s[PLATFORM_SETTING_KEYS.describe] ?? '',
    filingsCoding: o.filingsCoding ?? s[PLATFORM_SETTING_KEYS.filingsCoding] ?? '',
    phone: o.phone ?? s[PLATFORM_SETTING_KEYS.phone] ?? '',
    version,
  };
}
