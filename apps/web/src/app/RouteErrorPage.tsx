import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { NotFoundView } from '../features/errors/NotFoundView';
import { browser } from '../lib/browser';
import { claimChunkLoadPrompt, isChunkLoadError } from '../lib/chunkLoad';
import { RELOAD_TEXT } from './ChunkLoadPrompt';

function ChunkLoadFailure() {
  useEffect(() => claimChunkLoadPrompt(), []);
  return (
    <div className="ks-result ks-result-inline" data-testid="chunk-load-failure">
      <h1 className="ks-result-title">页面加载失败</h1>
      <p className="ks-result-sub">页面资源加载失败，可能是网络不稳定或系统已更新，请刷新页面后重试</p>
      <div className="ks-result-actions">
        <button
          type="button"
          className="ks-btn ks-btn-primary"
          data-testid="chunk-reload"
          onClick={() => browser.reload()}
        >
          {RELOAD_TEXT}
        </button>
      </div>
    </div>
  );
}

/**
 * errorElement of the route table (plain CSS: it must work when page code could not load): chunk-load failures
 * offer a reload; other errors a reload or the way home.
 */
export function RouteErrorPage() {
  const error = useRouteError();
  if (isChunkLoadError(error)) return <ChunkLoadFailure />;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundView />;
  if (error) console.error(error);
  return (
    <div className="ks-result ks-result-inline" data-testid="route-error">
      <h1 className="ks-result-title">页面出现错误</h1>
      <p className="ks-result-sub">请刷新页面后重试，如问题持续存在请联系管理员</p>
      <div className="ks-result-actions">
        <button type="button" className="ks-btn ks-btn-primary" onClick={() => browser.reload()}>
          {RELOAD_TEXT}
        </button>
        <button type="button" className="ks-btn" onClick={() => browser.assign('/')}>
          返回首页
        </button>
      </div>
    </div>
  );
}
