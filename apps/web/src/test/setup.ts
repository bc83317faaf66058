import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';

// antd reads matchMedia (responsive grid, Modal) and ResizeObserver (Tabs, Typography); jsdom has neither.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

if (!('ResizeObserver' in window)) {
  class ResizeObserverPolyfill {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverPolyfill,
  });
  Object.defineProperty(globalThis, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverPolyfill,
  });
}

// antd measures scrollbars and text with getComputedStyle, which jsdom computes by cascading every style sheet that
// antd's CSS-in-JS has inserted (a third of a page test's time). jsdom lays nothing out, so the values are
// meaningless anyway: answer an empty declaration.
const emptyStyle = document.createElement('div').style;
window.getComputedStyle = () => emptyStyle;

// Pages load their code lazily; the first import of antd in a test file can take over a second under load.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});

/**
 * Object URLs as a browser has them. jsdom has none, and Node's own `URL.createObjectURL` refuses jsdom's File (not a
 * Node Blob); tests that capture downloads replace these and delete them afterwards, so they are put back before every
 * test (test files share a worker's globals).
 */
let objectUrls = 0;
beforeEach(() => {
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: () => {
      objectUrls += 1;
      return `blob:test/${objectUrls}`;
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
});
