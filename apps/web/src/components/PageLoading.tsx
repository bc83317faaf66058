/** Shown while a page's code loads (plain CSS: it appears before any UI kit is loaded). */
export function PageLoading() {
  return (
    <div data-testid="page-loading" className="ks-page-loading">
      <span className="ks-spin" role="status" aria-label="加载中" />
    </div>
  );
}
