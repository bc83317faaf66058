import type { SystemNotice } from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo, systems, userInfo } from '../../test/server';
import { toSaveBody } from './SystemNoticeForm';
import { audienceText } from './SystemNoticePage';

const BASE = '/ks/notification/v1/system-notices';

const notice = (n: number, over: Partial<SystemNotice> = {}): SystemNotice => ({
  id: `0000000${n}-0000-4000-8000-000000000000`,
  type: 2,
  title: `通知${n}`,
  msg: '<p>内容</p>',
  url: null,
  urlName: null,
  audience: 'everyone',
  roleCode: null,
  roleName: null,
  enterprises: [],
  startAt: '2026-11-26T00:00:00.000Z',
  endAt: '2026-12-26T00:00:00.000Z',
  status: 'draft',
  version: 1,
  publishedAt: null,
  createdByName: '平台管理员',
  updatedAt: '2026-11-26T00:00:00.000Z',
  readCount: 0,
  audienceSize: 4,
  ...over,
});

function setup() {
  const admin = { ...userInfo, loginRoleType: 'M' as const };
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-admin');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(admin));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['admin']));
  vi.spyOn(browser, 'pathname').mockReturnValue('/system/systemNotice');
  const rows = [
    notice(1, {
      title: '弹窗：开标大厅搬迁',
      status: 'published',
      audience: 'enterprises',
      enterprises: [{ id: 'e1', name: '示例建设工程有限公司' }],
      readCount: 1,
      audienceSize: 1,
    }),
    notice(2, { title: '草稿：维护通知', type: 1 }),
  ];
  const published: string[] = [];
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo: admin, roles: ['admin'] } }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'GET /ks/notification/v1/audit/notice-list': () => ({ data: [] }),
    [`GET ${BASE}`]: () => ({ data: { records: rows, total: rows.length } }),
    [`GET ${BASE}/reads`]: () => ({
      data: {
        records: [
          {
            userId: 'u1',
            account: 'user1',
            userName: '张建国',
            enterpriseName: '示例建设工程有限公司',
            readAt: '2026-11-26T02:00:00.000Z',
            dismissed: false,
          },
        ],
        total: 1,
      },
    }),
    [`POST ${BASE}/publish`]: (req) => {
      const { id } = JSON.parse(String(req.body)) as { id: string };
      published.push(id);
      const row = rows.find((r) => r.id === id)!;
      row.status = 'published';
      return { data: row, message: '发布成功' };
    },
  });
  configureRequest({ transport: server.transport });
  renderRoutes(routes, '/system/systemNotice', { antd: false });
  return { server, published };
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

describe('系统通知管理', () => {
  it('lists the notices with their audience, window, status and read count; the count opens who read it', async () => {
    setup();
    const row = (await screen.findByText('弹窗：开标大厅搬迁')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('system-notice-audience-cell').textContent).toBe('企业：示例建设工程有限公司');
    expect(within(row).getByTestId('system-notice-status').textContent).toBe('已发布');
    expect(within(row).getByText('弹窗通知')).toBeTruthy();
    await userEvent.setup().click(within(row).getByTestId('system-notice-read-count'));
    const drawer = await screen.findByTestId('system-notice-reads-table');
    await waitFor(() => expect(drawer.textContent).toContain('张建国'));
    expect(screen.getByTestId('system-notice-reads-summary').textContent).toContain('共 1 人，已读 1 人');
  });

  it('publishes a draft after confirmation', async () => {
    const { published } = setup();
    const row = (await screen.findByText('草稿：维护通知')).closest('tr') as HTMLElement;
    const user = userEvent.setup();
    await user.click(within(row).getByTestId('system-notice-publish'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(published).toEqual(['00000002-0000-4000-8000-000000000000']));
  });
});

describe('form values', () => {
  it('become the save body: times as instants, the audience alone, the attachment as url and name', () => {
    const start = dayjs('2026-11-26T08:00:00+08:00');
    const end = dayjs('2026-11-27T08:00:00+08:00');
    const body = toSaveBody(
      {
        type: 2,
        title: '  标题 ',
        msg: '<p>x</p>',
        attachment: { name: '方案.pdf', url: '/ks/common/common/file/download?fileId=a' },
        audience: 'role',
        roleCode: 'auditor',
        enterpriseIds: ['ignored'],
        window: [start, end],
      },
      notice(3, { version: 4 }),
    );
    expect(body).toEqual({
      id: '00000003-0000-4000-8000-000000000000',
      version: 4,
      type: 2,
      title: '标题',
      msg: '<p>x</p>',
      url: '/ks/common/common/file/download?fileId=a',
      urlName: '方案.pdf',
      audience: 'role',
      roleCode: 'auditor',
      enterpriseIds: [],
      startAt: '2026-11-26T00:00:00.000Z',
      endAt: '2026-11-27T00:00:00.000Z',
    });
    expect(audienceText(notice(4, { audience: 'role', roleCode: 'auditor', roleName: '审核员' }))).toBe('角色：审核员');
    expect(
      audienceText(
        notice(5, {
          audience: 'enterprises',
          enterprises: [
            { id: 'a', name: '甲' },
            { id: 'b', name: '乙' },
          ],
        }),
      ),
    ).toBe('2 家企业');
    expect(audienceText(notice(6))).toBe('全部用户');
  });
});
