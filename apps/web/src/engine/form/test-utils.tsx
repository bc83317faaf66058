import type { FieldDef } from '@ks/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { AntdProviders } from '../../app/AntdProviders';
import { createQueryClient } from '../../app/AppProviders';
import { createFakeServer, type Handler } from '../../test/server';
import { DynamicForm, type DynamicFormHandle, type DynamicFormProps } from './DynamicForm';

/** Test helpers for the dynamic form (test-only module). */

export const f = (code: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({
  code,
  name: extra.name ?? code,
  type,
  ...extra,
});

export type FormTestProps = Omit<DynamicFormProps, 'systemCoding' | 'gnCoding' | 'ref'> &
  Partial<Pick<DynamicFormProps, 'systemCoding' | 'gnCoding'>>;

/** Renders a DynamicForm in the app's providers (query client, antd); `handle()` is its ref. */
export function renderForm(props: FormTestProps) {
  const queryClient = createQueryClient();
  const ref = createRef<DynamicFormHandle>();
  const ui = (p: FormTestProps) => (
    <QueryClientProvider client={queryClient}>
      <AntdProviders>
        <DynamicForm systemCoding="XYGL" gnCoding="XYGL_ZYZC" {...p} ref={ref} />
      </AntdProviders>
    </QueryClientProvider>
  );
  const view = render(ui(props));
  const handle = () => {
    if (!ref.current) throw new Error('form not mounted');
    return ref.current;
  };
  return { ...view, queryClient, handle, rerenderForm: (p: FormTestProps) => view.rerender(ui(p)) };
}

/** A fake /ks server for the option sources; every request recorded. Call configureRequest() after the test. */
export function setupServer(handlers: Record<string, Handler> = {}) {
  const server = createFakeServer(handlers);
  const prompt = vi.fn();
  const assign = vi.fn();
  const clearStorage = vi.fn();
  // nothing real happens when a session ends: the navigation and storage clearing are recorded instead
  configureRequest({
    transport: server.transport,
    effects: {
      prompt,
      assign,
      clearStorage,
      navigate: vi.fn(),
      pathname: () => '/dynamicPage/dynamicDetail',
      getToken: () => 'tok-user',
    },
  });
  return { ...server, prompt, assign, clearStorage };
}

export const col = (code: string) => screen.getByTestId(`form-col-${code}`);
export const queryCol = (code: string) => screen.queryByTestId(`form-col-${code}`);

/** The message under a field, or null. */
export function errorOf(code: string): string | null {
  const el = col(code).querySelector('.ant-form-item-explain-error');
  return el ? el.textContent : null;
}

export function findError(code: string, text: string) {
  return waitFor(() => {
    if (errorOf(code) !== text) throw new Error(`${code}: expected "${text}", saw "${errorOf(code)}"`);
  });
}

/** The input of a field's column (the first one). */
export function inputOf(code: string): HTMLInputElement {
  const el = col(code).querySelector<HTMLInputElement>('input, textarea');
  if (!el) throw new Error(`no input in ${code}`);
  return el;
}

/** Opens a select / cascader / tree select in a field's column. */
export function openSelect(code: string) {
  const root = col(code).querySelector('.ant-select, .ant-cascader, .ant-tree-select') ?? col(code);
  const target = root.querySelector('.ant-select-selector, .ant-select-content') ?? root;
  act(() => {
    fireEvent.mouseDown(target);
  });
}

/** The popup opened last that is still open (selects, cascaders and tree selects share the dropdown class). */
export function openPopup(): HTMLElement | null {
  const open = Array.from(
    document.querySelectorAll<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)'),
  );
  return open[open.length - 1] ?? null;
}

/** The options of the open select popup. */
export function dropdownOptions(): HTMLElement[] {
  return Array.from(openPopup()?.querySelectorAll<HTMLElement>('.ant-select-item-option') ?? []);
}

/** Picks an option by its label from a field's select. */
export async function pick(code: string, label: string) {
  openSelect(code);
  const option = await waitFor(() => {
    const hit = dropdownOptions().find((o) => o.textContent?.trim() === label || o.getAttribute('title') === label);
    if (!hit)
      throw new Error(
        `option ${label} not in ${dropdownOptions()
          .map((o) => o.textContent)
          .join('|')}`,
      );
    return hit;
  });
  act(() => {
    fireEvent.click(option);
  });
}

/** Clicks the cascader menu items along a path of labels. */
export async function pickPath(code: string, labels: string[]) {
  openSelect(code);
  for (const label of labels) {
    const item = await waitFor(() => {
      const hit = Array.from(openPopup()?.querySelectorAll<HTMLElement>('.ant-cascader-menu-item') ?? []).find(
        (el) => el.getAttribute('title') === label || el.textContent?.trim() === label,
      );
      if (!hit) throw new Error(`cascader item ${label} not found`);
      return hit;
    });
    act(() => {
      fireEvent.click(item);
    });
  }
}

export const inCol = (code: string) => within(col(code));

/** Sets the window width the form's columns follow, and tells the form; returns the restore function. */
export function setWindowWidth(width: number) {
  const before = Object.getOwnPropertyDescriptor(window, 'innerWidth');
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  act(() => {
    window.dispatchEvent(new Event('resize'));
  });
  return () => {
    if (before) Object.defineProperty(window, 'innerWidth', before);
    act(() => {
      window.dispatchEvent(new Event('resize'));
    });
  };
}
