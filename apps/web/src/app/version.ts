import { type PlatformInfo, VERSION_STORAGE_KEY } from '@ks/contracts';
import { browser } from '../lib/browser';

export interface VersionCheckDeps {
  fetchPlatform: () => Promise<PlatformInfo>;
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  reload?: () => void;
  setTitle?: (title: string) => void;
}

export type VersionCheckResult = 'first' | 'same' | 'reloaded' | 'failed';

/**
 * On start (spec §4): remembers the platform version in localStorage and reloads the page when the server reports a
 * different one, so a deployed release replaces stale code. Also sets the page title to the platform name.
 */
export async function checkPlatformVersion(deps: VersionCheckDeps): Promise<VersionCheckResult> {
  const storage = deps.storage ?? localStorage;
  const reload = deps.reload ?? (() => browser.reload());
  const setTitle =
    deps.setTitle ??
    ((title: string) => {
      document.title = title;
    });
  let info: PlatformInfo;
  try {
    info = await deps.fetchPlatform();
  } catch {
    return 'failed';
  }
  if (info.platformName) setTitle(info.platformName);
  if (!info.version) return 'same';
  const stored = storage.getItem(VERSION_STORAGE_KEY);
  if (stored === null || stored === '') {
    storage.setItem(VERSION_STORAGE_KEY, info.version);
    return 'first';
  }
  if (stored === info.version) return 'same';
  storage.setItem(VERSION_STORAGE_KEY, info.version);
  reload();
  return 'reloaded';
}
