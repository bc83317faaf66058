/**
 * Whole-page side effects behind one object so that code calls `browser.reload()` and tests can spy on it
 * (jsdom's `location.reload` cannot be replaced).
 */
export const browser = {
  reload(): void {
    window.location.reload();
  },
  /** Full navigation (leaves the single-page app and loads the URL afresh). */
  assign(url: string): void {
    window.location.assign(url);
  },
  pathname(): string {
    return window.location.pathname;
  },
};
