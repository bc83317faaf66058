import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { type Location, useBlocker } from 'react-router';

const samePage = (a: Location, b: Location) => a.pathname === b.pathname;

/**
 * Unsaved edits: leaving asks first (离开 / 留下, titled `title`), and so does closing or reloading the tab. By
 * default only another page counts as leaving; `leaves` can say more (e.g. another node of the same page).
 */
export function useLeaveGuard(
  dirty: boolean,
  title: string,
  leaves: (from: Location, to: Location) => boolean = (from, to) => !samePage(from, to),
) {
  const { modal } = App.useApp();
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && leaves(currentLocation, nextLocation));
  const asking = useRef(false);
  useEffect(() => {
    if (blocker.state !== 'blocked' || asking.current) return;
    asking.current = true;
    modal.confirm({
      title,
      content: '离开后本次修改将丢失，是否离开？',
      okText: '离开',
      cancelText: '留下',
      onOk: () => {
        asking.current = false;
        blocker.proceed();
      },
      onCancel: () => {
        asking.current = false;
        blocker.reset();
      },
    });
  }, [blocker, modal, title]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
}
