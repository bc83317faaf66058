import type { UserInfo } from '@ks/contracts';
import { THEME_DEFAULTS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { userInfo } from '../../test/server';
import { darkTheme, setupShell, shellRoutes } from './testData';
import { roleLabelOf } from './UserCenterPage';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('/userCenter/uCenter', () => {
  it('shows the user as the server confirms it: name, role, enterprise, practice status', async () => {
    const confirmed: UserInfo = {
      ...userInfo,
      userName: '李四',
      loginRoleType: 'U',
      enterpriseName: '某某监理有限公司',
      practicingStatus: {
        abnormal: '您在太原市的执业状态异常',
        practiceDetails: [
          { region: '太原市', status: 1, reason: '资质证书过期' },
          { region: '大同市', status: 2, reason: '' },
          { region: '晋中市', status: 0, reason: '' },
        ],
      },
    };
    setupShell({
      roleType: 'U',
      handlers: {
        'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: confirmed, roles: ['user'] } }),
      },
    });
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    await waitFor(() => expect(screen.getByTestId('ucenter-name').textContent).toBe('李四'));
    expect(screen.getByTestId('ucenter-role').textContent).toBe('企业/个人');
    expect(screen.getByTestId('ucenter-enterprise').textContent).toBe('某某监理有限公司');
    expect(screen.getByTestId('ucenter-practice-abnormal').textContent).toContain('您在太原市的执业状态异常');
    const rows = within(screen.getByTestId('ucenter-practice-table')).getAllByRole('row').slice(1);
    expect(rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.textContent))).toEqual([
      ['1', '太原市', '异常', '资质证书过期'],
      ['2', '大同市', '正常', '—'],
      ['3', '晋中市', '待核验', '—'],
    ]);
  });

  it('shows 暂无数据 without practice records, and the current theme', async () => {
    setupShell({ theme: { ...darkTheme, asideWidth: 260 } });
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    expect(await screen.findByTestId('ucenter-theme')).toBeTruthy();
    expect(screen.getByTestId('ucenter-theme-mode').textContent).toBe('深色');
    expect(screen.getByTestId('ucenter-theme-color').textContent).toBe('#722ED1');
    expect(screen.getByTestId('ucenter-theme').textContent).toContain('260 px');
    expect(screen.getByTestId('ucenter-role').textContent).toBe('管理员');
    expect(screen.getByTestId('ucenter-practice').textContent).toContain('暂无数据');
    expect(screen.queryByTestId('ucenter-practice-abnormal')).toBeNull();
  });

  it('主题设置 opens the theme drawer', async () => {
    setupShell();
    const user = userEvent.setup();
    renderRoutes(shellRoutes, '/userCenter/uCenter');
    await screen.findByTestId('ucenter-theme');
    expect(screen.getByTestId('ucenter-theme-mode').textContent).toBe('浅色');
    await user.click(screen.getByTestId('ucenter-theme-edit'));
    const drawer = await screen.findByTestId('theme-settings');
    expect((within(drawer).getByTestId('theme-asideWidth') as HTMLInputElement).value).toBe(
      String(THEME_DEFAULTS.asideWidth),
    );
  });

  it('labels role types (anything else is an ordinary user)', () => {
    expect(roleLabelOf('M')).toBe('管理员');
    expect(roleLabelOf('D')).toBe('开发者');
    expect(roleLabelOf('U')).toBe('企业/个人');
    expect(roleLabelOf('X')).toBe('企业/个人');
  });
});
