import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders, createQueryClient } from '../app/AppProviders';
import { RouteErrorPage } from '../app/RouteErrorPage';
import { RouteGuard } from '../app/RouteGuard';
import { renderRoutes } from '../test/render';
import { browser } from './browser';
import {
  ChunkLoadError,
  installPreloadErrorHandler,
  isChunkLoadError,
  lazyPage,
  loadChunk,
  resetChunkLoadState,
} from './chunkLoad';

afterEach(() => {
  vi.useRealTimers();
  act(() => resetChunkLoadState());
});

describe('loadChunk', () => {
  it('resolves with the module when it loads in time', async () => {
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('rejects with ChunkLoadError after 120 s, not before', async () => {
    vi.useFakeTimers();
    let settled: unknown = null;
    const p = loadChunk(() => new Promise(() => {})).catch((err: unknown) => {
      settled = err;
    });
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(settled).toBeInstanceOf(ChunkLoadError);
    expect((settled as Error).name).toBe('ChunkLoadError');
  });

  it('turns an import failure into ChunkLoadError', async () => {
    const failure = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
    await expect(loadChunk(() => Promise.reject(failure))).rejects.toBeInstanceOf(ChunkLoadError);
    expect(isChunkLoadError(failure)).toBe(true);
    expect(isChunkLoadError(new Error('other'))).toBe(false);
  });
});

function routesWith(page: RouteObject['element']): RouteObject[] {
  return [{ element: <RouteGuard />, errorElement: <RouteErrorPage />, children: [{ path: '/', element: page }] }];
}

describe('chunk-load failure in a route', () => {
  it('shows a prompt whose 刷新页面 button reloads the page', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    const Broken = lazyPage<object>(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const user = userEvent.setup();
    renderRoutes(routesWith(<Broken />), '/');
    const button = await screen.findByTestId('chunk-reload');
    expect(button.textContent).toBe('刷新页面');
    expect(document.body.textContent).toContain('页面加载失败');
    await user.click(button);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a page that takes longer than 120 s to load ends in the same prompt', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const Slow = lazyPage<object>(() => new Promise<never>(() => {}));
    renderRoutes(routesWith(<Slow />), '/');
    expect(screen.getByTestId('page-loading')).toBeTruthy();
    await act(() => vi.advanceTimersByTimeAsync(120_000));
    expect(await screen.findByTestId('chunk-reload')).toBeTruthy();
  });

  it('does not also open the global dialog while the page shows the failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const uninstall = installPreloadErrorHandler(window);
    const Broken = lazyPage<object>(() => {
      window.dispatchEvent(new Event('vite:preloadError', { cancelable: true }));
      return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    });
    renderRoutes(routesWith(<Broken />), '/');
    await screen.findByTestId('chunk-reload');
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(screen.queryByTestId('chunk-load-prompt')).toBeNull();
    uninstall();
  });
});

describe('vite:preloadError', () => {
  it('opens the reload dialog (刷新页面 calls location.reload)', async () => {
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    const uninstall = installPreloadErrorHandler(window);
    const user = userEvent.setup();
    render(
      <AppProviders queryClient={createQueryClient()}>
        <div />
      </AppProviders>,
    );
    expect(screen.queryByTestId('chunk-load-prompt')).toBeNull();
    act(() => {
      window.dispatchEvent(new Event('vite:preloadError', { cancelable: true }));
    });
    expect(await screen.findByTestId('chunk-load-prompt')).toBeTruthy();
    await user.click(screen.getByTestId('chunk-reload'));
    expect(reload).toHaveBeenCalledTimes(1);
    uninstall();
  });
});
