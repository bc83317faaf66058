import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyPage } from '../lib/chunkLoad';
import {
  AntdShell,
  AppLayout,
  LoginPage,
  MarketListPage,
  NoticeDetailPage,
  PageConfigPage,
  PortalHome,
  TransacPage,
} from './pages';
import { initialPages, preloadPages } from './preload';

const ggfw = { loginMode: 'ggfw', bidHallUrl: null } as const;
const ywbl = { loginMode: 'ywbl', bidHallUrl: null } as const;

describe('initialPages', () => {
  it('portal pages for anonymous visitors, the portal home at / in mode ggfw', () => {
    expect(initialPages('/', false, null, ggfw)).toEqual([PortalHome]);
    expect(initialPages('/transac', false, null, ggfw)).toEqual([TransacPage]);
    expect(initialPages('/transac-news/', false, null, ggfw)).toEqual([NoticeDetailPage]);
    expect(initialPages('/market-list', true, null, ggfw)).toEqual([MarketListPage]);
  });

  it('the sign-in page at / in the other modes, and at /admin-business in mode ywbl only', () => {
    expect(initialPages('/', false, null, ywbl)).toEqual([AntdShell, LoginPage]);
    expect(initialPages('/admin-business', false, null, ywbl)).toEqual([AntdShell, LoginPage]);
    expect(initialPages('/admin-business', false, null, ggfw)).toEqual([]);
    expect(initialPages('/login', false, null, ggfw)).toEqual([AntdShell, LoginPage]);
  });

  it('follows the guard: anonymous protected paths land on /, signed-in / goes to the home URL', () => {
    expect(initialPages('/system/pageConfig', false, null, ggfw)).toEqual([PortalHome]);
    expect(initialPages('/', true, null, ggfw)).toEqual([AntdShell, AppLayout, PageConfigPage]);
    expect(initialPages('/', true, '/system/pageConfig?from=home', ggfw)).toEqual([
      AntdShell,
      AppLayout,
      PageConfigPage,
    ]);
  });

  it('nothing while the login mode is unknown or for paths without a known page', () => {
    expect(initialPages('/', false, null, null)).toEqual([]);
    expect(initialPages('/no-such-page', true, null, ggfw)).toEqual([]);
  });

  it('the shell layout for other signed-in pages', () => {
    expect(initialPages('/system/menuSetUp', true, null, ggfw)).toEqual([AntdShell, AppLayout]);
    expect(initialPages('/judge', true, null, ggfw)).toEqual([AntdShell, AppLayout]);
    expect(initialPages('/judge', false, null, ggfw)).toEqual([PortalHome]);
  });
});

describe('lazyPage preload', () => {
  it('a preloaded page renders at once, without the suspense fallback', async () => {
    const Page = lazyPage(async () => ({ default: () => <p data-testid="page">页面</p> }));
    await preloadPages([Page]);
    render(
      <Suspense fallback={<p data-testid="fallback" />}>
        <Page />
      </Suspense>,
    );
    expect(screen.getByTestId('page')).toBeTruthy();
    expect(screen.queryByTestId('fallback')).toBeNull();
  });

  it('a page that fails to preload resolves anyway (the route shows the failure) and can be retried', async () => {
    let attempts = 0;
    const Page = lazyPage(async () => {
      attempts++;
      if (attempts === 1) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: () => <p data-testid="page">页面</p> };
    });
    await expect(preloadPages([Page])).resolves.toBeUndefined();
    await expect(Page.preload()).resolves.toBeUndefined();
    expect(attempts).toBe(2);
  });

  it('waits no longer than the cap', async () => {
    const Page = lazyPage(() => new Promise<never>(() => {}));
    const started = Date.now();
    await preloadPages([Page], 50);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
