import { afterEach, describe, expect, it, vi } from 'vitest';
import { browser } from './browser';
import { navigateTo, setNavigator } from './navigation';

afterEach(() => setNavigator(null));

describe('navigateTo', () => {
  it('uses the registered router navigate', () => {
    const navigate = vi.fn();
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    setNavigator(navigate);
    navigateTo('/system/companyInfo?type=1');
    expect(navigate).toHaveBeenCalledWith('/system/companyInfo?type=1');
    expect(assign).not.toHaveBeenCalled();
  });

  it('falls back to a full navigation without a router', () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    navigateTo('/system/companyInfo?type=1');
    expect(assign).toHaveBeenCalledWith('/system/companyInfo?type=1');
  });
});
