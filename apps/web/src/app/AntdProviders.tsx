import { App as AntdApp, ConfigProvider, type ThemeConfig } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import type { ReactNode } from 'react';
import { PRIMARY_COLOR } from '../lib/theme';

dayjs.locale('zh-cn');

/** The user's system asks for reduced motion (read once, when the app loads). */
function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

export const theme: ThemeConfig = {
  token: {
    colorPrimary: PRIMARY_COLOR,
    colorInfo: PRIMARY_COLOR,
    borderRadius: 6,
    // no animations for component tests (they wait for none) nor for users who asked their system for less motion
    ...(import.meta.env.MODE === 'test' || prefersReducedMotion() ? { motion: false } : {}),
  },
};

/**
 * antd (zh_CN, theme, no auto-inserted button spaces) and antd App. Only the sign-in and back-office routes are
 * wrapped in it (see AntdShell), so the public portal never loads antd.
 */
export function AntdProviders({ children }: { children: ReactNode }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <AntdApp>{children}</AntdApp>
    </ConfigProvider>
  );
}
