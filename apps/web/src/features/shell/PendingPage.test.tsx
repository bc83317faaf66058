import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { creditMenus, menu, setupShell } from './testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

describe('business pages of later releases', () => {
  it('say plainly that the node’s page is not available yet, inside the shell, with the way back', async () => {
    // a page under a prefix of later releases (/custom/*) that no node property names yet
    const later = menu({ gnCoding: 'XY_LATER', title: '信用风险预警' });
    setupShell({ systemCoding: 'XYGL', menus: [...creditMenus(), later] });
    const { router } = renderRoutes(routes, '/custom/riskWarning?gnCoding=XY_LATER&systemCoding=XYGL');
    const page = await screen.findByTestId('pending-page');
    // it names the business area: the system and the node
    expect(await screen.findByText('「信用风险预警」暂未开放')).toBeTruthy();
    expect(
      await screen.findByText('信用管理 · 信用风险预警：该业务的办理页面将在后续版本中提供，当前版本暂不能办理。'),
    ).toBeTruthy();
    expect(page.textContent).toContain('节点编码：XY_LATER');
    // nothing to configure about a page of a later release
    expect(screen.queryByTestId('pending-configure')).toBeNull();
    // the shell stays: the sidebar of the chosen system is there
    expect(await screen.findByTestId('side-item-XY_LATER')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '返回业务系统' }));
    expect(router.state.location.pathname).toBe('/judge');
  });

  it('unknown paths still get the 404 page', async () => {
    setupShell({ systemCoding: 'XYGL' });
    renderRoutes(routes, '/no-such-business');
    expect(await screen.findByTestId('notfound')).toBeTruthy();
  });
});
