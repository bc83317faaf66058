import { type PlatformInfo, VERSION_STORAGE_KEY } from '@ks/contracts';
import { describe, expect, it, vi } from 'vitest';
import { checkPlatformVersion } from './version';

const info = (version: string): PlatformInfo => ({
  describe: '平台简介',
  filingsCoding: '晋ICP备00000000号',
  version,
  platformName: '山西省公共资源交易平台',
  phone: '0351-1234567',
});

describe('checkPlatformVersion', () => {
  it('stores the version on first visit without reloading, and sets the title', async () => {
    const reload = vi.fn();
    const result = await checkPlatformVersion({ fetchPlatform: async () => info('1.0.0'), reload });
    expect(result).toBe('first');
    expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('1.0.0');
    expect(reload).not.toHaveBeenCalled();
    expect(document.title).toBe('山西省公共资源交易平台');
  });

  it('does nothing when the stored version matches', async () => {
    localStorage.setItem(VERSION_STORAGE_KEY, '1.0.0');
    const reload = vi.fn();
    expect(await checkPlatformVersion({ fetchPlatform: async () => info('1.0.0'), reload })).toBe('same');
    expect(reload).not.toHaveBeenCalled();
  });

  it('stores the new version and reloads when it differs', async () => {
    localStorage.setItem(VERSION_STORAGE_KEY, '1.0.0');
    const reload = vi.fn(() => {
      // the new version must already be stored when the page reloads, or it would reload forever
      expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('1.1.0');
    });
    expect(await checkPlatformVersion({ fetchPlatform: async () => info('1.1.0'), reload })).toBe('reloaded');
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('leaves everything alone when the platform cannot be fetched', async () => {
    localStorage.setItem(VERSION_STORAGE_KEY, '1.0.0');
    const reload = vi.fn();
    const setTitle = vi.fn();
    const result = await checkPlatformVersion({
      fetchPlatform: () => Promise.reject(new Error('down')),
      reload,
      setTitle,
    });
    expect(result).toBe('failed');
    expect(reload).not.toHaveBeenCalled();
    expect(setTitle).not.toHaveBeenCalled();
    expect(localStorage.getItem(VERSION_STORAGE_KEY)).toBe('1.0.0');
  });
});
