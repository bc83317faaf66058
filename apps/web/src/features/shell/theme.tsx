import type { Theme } from '@ks/contracts';
import { MIN_ASIDE_WIDTH, THEME_DEFAULTS } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { App as AntdApp, theme as antdTheme, ConfigProvider, type ThemeConfig } from 'antd';
import { createContext, type ReactNode, useContext, useLayoutEffect, useMemo, useState } from 'react';
import { themeQuery } from '../../api/shell';
import { ThemeDrawer } from './ThemeDrawer';

/**
 * The user's theme (spec §3 Theme, §4 "theme dark applies a dark attribute"): loaded from the server on every
 * sign-in, applied to antd (primary colour, dark algorithm, table and card colours), to the header and sidebar,
 * and to the document as `data-theme`. The settings drawer previews changes live until they are saved or dropped.
 */

export interface ShellTheme {
  /** What is shown now: the drawer's unsaved preview, else the saved theme, else the defaults. */
  theme: Theme;
  /** The theme as the server keeps it. */
  saved: Theme;
  loaded: boolean;
  /** Shows a preview (null drops it). */
  preview(theme: Theme | null): void;
  openSettings(): void;
}

const defaults: Theme = { ...THEME_DEFAULTS };

const ThemeContext = createContext<ShellTheme>({
  theme: defaults,
  saved: defaults,
  loaded: false,
  preview: () => {},
  openSettings: () => {},
});

export function useShellTheme(): ShellTheme {
  return useContext(ThemeContext);
}

/** A colour the user changed from its default, else undefined (so the light or dark algorithm decides). */
export function customised<K extends keyof Theme>(theme: Theme, key: K): Theme[K] | undefined {
  return theme[key] !== THEME_DEFAULTS[key] ? theme[key] : undefined;
}

export function asideWidthOf(theme: Theme): number {
  return Math.max(MIN_ASIDE_WIDTH, Number(theme.asideWidth) || MIN_ASIDE_WIDTH);
}

/** The antd theme of a user theme (merged by ConfigProvider with the app's base theme). */
export function antdThemeOf(theme: Theme): ThemeConfig {
  const dark = theme.theme === 'dark';
  const tableBg = customised(theme, 'tableBgColor');
  const tableText = customised(theme, 'tableTextColor');
  const cardBg = customised(theme, 'cardBgColor');
  const cardText = customised(theme, 'cardTextColor');
  return {
    algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
    token: { colorPrimary: theme.themeColor, colorInfo: theme.themeColor, colorLink: theme.themeColor },
    components: {
      Table: {
        ...(tableBg ? { colorBgContainer: tableBg, headerBg: tableBg } : {}),
        ...(tableText ? { colorText: tableText, headerColor: tableText } : {}),
      },
      Card: {
        ...(cardBg ? { colorBgContainer: cardBg } : {}),
        ...(cardText ? { colorText: cardText, colorTextHeading: cardText } : {}),
      },
    },
  };
}

/** CSS variables on the document with the user's table colours, when changed from the defaults. */
export const TABLE_VARS = { bg: '--ks-theme-table-bg', text: '--ks-theme-table-text' } as const;

export function ThemeProvider({ children }: { children: ReactNode }) {
  const { data, isPending } = useQuery(themeQuery);
  const saved = data ?? defaults;
  const [draft, setDraft] = useState<Theme | null>(null);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const theme = draft ?? saved;
  const mode = theme.theme === 'dark' ? 'dark' : 'light';

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
    return () => {
      // signing out leaves the back office: the portal and the sign-in page are always light
      delete root.dataset.theme;
      root.style.colorScheme = '';
    };
  }, [mode]);
  // the user's table colours for the plain-CSS list tables too (antd's tables take them from the antd theme)
  const tableBg = customised(theme, 'tableBgColor');
  const tableText = customised(theme, 'tableTextColor');
  useLayoutEffect(() => {
    const style = document.documentElement.style;
    const vars = { [TABLE_VARS.bg]: tableBg, [TABLE_VARS.text]: tableText };
    for (const [name, value] of Object.entries(vars)) {
      if (value) style.setProperty(name, value);
      else style.removeProperty(name);
    }
    return () => {
      for (const name of Object.keys(vars)) style.removeProperty(name);
    };
  }, [tableBg, tableText]);

  const value = useMemo<ShellTheme>(
    () => ({ theme, saved, loaded: !isPending, preview: setDraft, openSettings: () => setDrawerOpen(true) }),
    [theme, saved, isPending],
  );
  const config = useMemo(() => antdThemeOf(theme), [theme]);

  return (
    <ThemeContext.Provider value={value}>
      <ConfigProvider theme={config}>
        <AntdApp>
          {children}
          <ThemeDrawer
            open={drawerOpen}
            saved={saved}
            onPreview={setDraft}
            onClose={() => {
              setDrawerOpen(false);
              setDraft(null);
            }}
          />
        </AntdApp>
      </ConfigProvider>
    </ThemeContext.Provider>
  );
}
