import { QUALIFICATION_DIALOG, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { createFakeServer, userInfo } from '../../test/server';
import { QualificationDialog } from './QualificationDialog';
import RegistrationPage from './RegistrationPage';

const TREE = [
  {
    label: '施工总承包资质',
    value: '施工总承包资质',
    children: [
      {
        label: '建筑工程施工总承包',
        value: '建筑工程施工总承包',
        children: [
          { label: '特级', value: '建筑工程施工总承包特级' },
          { label: '一级', value: '建筑工程施工总承包一级' },
          { label: '二级', value: '建筑工程施工总承包二级' },
        ],
      },
      {
        label: '市政公用工程施工总承包',
        value: '市政公用工程施工总承包',
        children: [{ label: '二级', value: '市政公用工程施工总承包二级' }],
      },
    ],
  },
];

function signIn(role = 'U') {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: role }));
}

afterEach(() => {
  configureRequest();
  sessionStorage.clear();
  act(() => resetPrompts());
});

/** The dialog inside a form-like holder: what 确定 hands back is shown, 取消 leaves it as it was. */
function Holder({ initial }: { initial: string[] }) {
  const [open, setOpen] = useState(false);
  const [labels, setLabels] = useState(initial.join(';'));
  const [values, setValues] = useState(initial);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        选择
      </button>
      <output data-testid="labels">{labels}</output>
      <output data-testid="values">{values.join('|')}</output>
      <QualificationDialog
        open={open}
        value={values}
        onCancel={() => setOpen(false)}
        onConfirm={(l, v) => {
          setLabels(l);
          setValues(v);
          setOpen(false);
        }}
      />
    </div>
  );
}

describe('the qualification dialog (screen 14)', () => {
  const render = (initial: string[] = []) => {
    const s = createFakeServer({ 'GET /ks/xmrc/v1/qualification-tree': () => ({ data: TREE }) });
    configureRequest({ transport: s.transport });
    signIn('M');
    renderRoutes([{ path: '/', element: <Holder initial={initial} /> }], '/');
  };

  it('keeps 确定 disabled while nothing is chosen, explains levels and 或 / 且, and fills labels joined by ;', async () => {
    const user = userEvent.setup();
    render();
    await user.click(await screen.findByText('选择'));
    const dialog = await screen.findByTestId('qual-dialog');
    expect(within(dialog).getByTestId('qual-help').textContent).toContain('大于或等于');
    expect(within(dialog).getByTestId('qual-help').textContent).toContain('「或」');
    expect(within(dialog).getByTestId('qual-help').textContent).toContain('「且」');
    expect((screen.getByTestId('qual-confirm') as HTMLButtonElement).disabled).toBe(true);
    // a search opens the categories that hold matching levels; the levels are what can be chosen
    await user.type(within(dialog).getByTestId('qual-search').querySelector('input')!, '二级');
    const tree = await within(dialog).findByTestId('qual-tree');
    expect(await within(tree).findByText('建筑工程施工总承包')).toBeTruthy();
    expect(within(tree).queryByText('特级')).toBeNull();
    const levels = await within(tree).findAllByText('二级');
    expect(levels).toHaveLength(2);
    for (const l of levels) await user.click(l.closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!);
    expect(within(dialog).getByTestId('qual-chosen').textContent).toContain('建筑工程施工总承包二级');
    expect(within(dialog).getByTestId('qual-chosen').textContent).toContain('市政公用工程施工总承包二级');
    expect((screen.getByTestId('qual-confirm') as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByTestId('qual-confirm'));
    await waitFor(() =>
      expect(screen.getByTestId('labels').textContent).toBe('建筑工程施工总承包二级;市政公用工程施工总承包二级'),
    );
    expect(screen.getByTestId('values').textContent).toBe('建筑工程施工总承包二级|市政公用工程施工总承包二级');
  });

  it('asks before clearing all, and 取消 changes nothing', async () => {
    const user = userEvent.setup();
    render(['建筑工程施工总承包一级']);
    await user.click(await screen.findByText('选择'));
    const dialog = await screen.findByTestId('qual-dialog');
    expect(within(dialog).getByTestId('qual-chosen').textContent).toContain('建筑工程施工总承包一级');
    await user.click(within(dialog).getByTestId('qual-clear'));
    expect(await screen.findByText(QUALIFICATION_DIALOG.clearConfirm)).toBeTruthy();
    const ok = screen.getAllByRole('button', { name: '确定' }).find((b) => !b.dataset.testid)!;
    await user.click(ok);
    await waitFor(() => expect((screen.getByTestId('qual-confirm') as HTMLButtonElement).disabled).toBe(true));
    await user.click(screen.getByTestId('qual-cancel'));
    await waitFor(() => expect(screen.queryByTestId('qual-dialog')).toBeNull());
    expect(screen.getByTestId('labels').textContent).toBe('建筑工程施工总承包一级');
    // opened again: what was cleared and cancelled is back
    await user.click(screen.getByText('选择'));
    expect((await screen.findByTestId('qual-chosen')).textContent).toContain('建筑工程施工总承包一级');
  });
});

describe('/fiveInOne/registration', () => {
  const SECTION = {
    sectionId: '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8',
    projectName: '大同市御河东路雨污分流改造工程',
    projectCode: 'SXGC-2026-1102',
    tenderee: '大同市市政设施管理中心',
    sectionCode: 'BD-01',
    sectionName: '施工标段',
    estimate: 23_800_000,
    deposit: 476_000,
    docSaleStart: '2099-03-01',
    docSaleEnd: '2099-03-07',
    bidDeadline: '2099-03-25T01:30:00.000Z',
    publishedAt: '2099-02-27T01:30:00.000Z',
    qualLabels: '房屋建筑工程监理乙级',
    qualRelation: '且',
    registeredAt: null,
  };

  it('shows why the enterprise falls short and does not let it register', async () => {
    const user = userEvent.setup();
    const s = createFakeServer({
      'GET /ks/trade/registrations/sections': () => ({ data: { records: [SECTION] } }),
      'GET /ks/trade/registrations/check': () => ({
        data: {
          ok: false,
          relation: '且',
          summary: '资质不符合招标公告的资格要求，不能报名：房屋建筑工程监理乙级（未持有房屋建筑工程监理资质）',
          lines: [
            {
              requirement: '房屋建筑工程监理乙级',
              held: null,
              certNo: null,
              ok: false,
              reason: '未持有房屋建筑工程监理资质',
            },
          ],
        },
      }),
    });
    configureRequest({ transport: s.transport });
    signIn();
    renderRoutes([{ path: '/fiveInOne/registration', element: <RegistrationPage /> }], '/fiveInOne/registration');
    await user.click(await screen.findByTestId(`register-${SECTION.sectionId}`, {}, { timeout: 30_000 }));
    const dialog = await screen.findByTestId('registration-dialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('registration-check-lines').textContent).toContain(
        '未持有房屋建筑工程监理资质',
      ),
    );
    expect(within(dialog).getByTestId('registration-check-summary').textContent).toContain('不能报名');
    expect((screen.getByTestId('registration-submit') as HTMLButtonElement).disabled).toBe(true);
    expect(s.callsTo('/ks/trade/registrations/save')).toHaveLength(0);
  });

  it('registers a qualified enterprise and marks the section', async () => {
    const user = userEvent.setup();
    let registered: string | null = null;
    const s = createFakeServer({
      'GET /ks/trade/registrations/sections': () => ({
        data: { records: [{ ...SECTION, qualLabels: '市政公用工程施工总承包二级', registeredAt: registered }] },
      }),
      'GET /ks/trade/registrations/check': () => ({
        data: {
          ok: true,
          relation: '且',
          summary: '资质符合要求（须全部具备）',
          lines: [
            {
              requirement: '市政公用工程施工总承包二级',
              held: '市政公用工程施工总承包二级',
              certNo: 'D214000321',
              ok: true,
              reason: null,
            },
          ],
        },
      }),
      'POST /ks/trade/registrations/save': () => {
        registered = '2099-03-02T02:00:00.000Z';
        return { data: {} };
      },
    });
    configureRequest({ transport: s.transport });
    signIn();
    renderRoutes([{ path: '/fiveInOne/registration', element: <RegistrationPage /> }], '/fiveInOne/registration');
    await user.click(await screen.findByTestId(`register-${SECTION.sectionId}`, {}, { timeout: 30_000 }));
    const dialog = await screen.findByTestId('registration-dialog');
    await waitFor(() =>
      expect(within(dialog).getByTestId('registration-check-lines').textContent).toContain('D214000321'),
    );
    await user.type(within(dialog).getByTestId('registration-contact'), '张建国');
    await user.type(within(dialog).getByTestId('registration-phone'), '13835100001');
    await user.click(screen.getByTestId('registration-submit'));
    await waitFor(() => expect(s.callsTo('/ks/trade/registrations/save')).toHaveLength(1));
    expect(JSON.parse(String(s.callsTo('/ks/trade/registrations/save')[0]!.body))).toEqual({
      sectionId: SECTION.sectionId,
      contact: '张建国',
      phone: '13835100001',
    });
    expect(await screen.findByTestId(`registered-${SECTION.sectionId}`)).toBeTruthy();
  });
});
