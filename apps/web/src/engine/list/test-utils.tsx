import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { AntdProviders } from '../../app/AntdProviders';

/** Renders a list component inside the app's antd providers (zh_CN locale, theme). Tests only. */
export function renderUi(ui: ReactElement) {
  const view = render(<AntdProviders>{ui}</AntdProviders>);
  return {
    ...view,
    rerenderUi: (next: ReactElement) => view.rerender(<AntdProviders>{next}</AntdProviders>),
  };
}

/** A fake IntersectionObserver: tests call `intersect()` to report the observed elements as visible. */
export function mockIntersectionObserver() {
  const observers: FakeObserver[] = [];
  class FakeObserver {
    readonly elements = new Set<Element>();
    constructor(readonly callback: IntersectionObserverCallback) {
      observers.push(this);
    }
    observe(el: Element) {
      this.elements.add(el);
    }
    unobserve(el: Element) {
      this.elements.delete(el);
    }
    disconnect() {
      this.elements.clear();
    }
    takeRecords() {
      return [];
    }
  }
  const original = window.IntersectionObserver;
  Object.defineProperty(window, 'IntersectionObserver', { configurable: true, writable: true, value: FakeObserver });
  return {
    observers,
    intersect(isIntersecting = true) {
      for (const o of observers) {
        const entries = [...o.elements].map(
          (target) =>
            ({ target, isIntersecting, intersectionRatio: isIntersecting ? 1 : 0 }) as IntersectionObserverEntry,
        );
        if (entries.length) o.callback(entries, o as unknown as IntersectionObserver);
      }
    },
    restore() {
      Object.defineProperty(window, 'IntersectionObserver', { configurable: true, writable: true, value: original });
    },
  };
}
