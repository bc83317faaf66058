import type { AdminNotice } from '@ks/contracts';
import { NOTICE_LINK_MESSAGES, SESSION_KEYS } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { fileOf, formOf, uploaded } from '../../components/upload/testkit';
import { browser } from '../../lib/browser';
import { queryOf } from '../../test/portal';
import { renderRoutes } from '../../test/render';
import { adminNotice, createFakeServer, type Handler, platformInfo, systems, userInfo } from '../../test/server';
import { findMessage } from '../engine/testkit';
import { fieldErrorsOf, fieldPath, toNoticeInput } from './NoticeFormDrawer';
import { noticeBodyProblem } from './noticeLinks';

function signIn(roles: string[]) {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-admin');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify(userInfo));
  sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(roles));
}

let notices: AdminNotice[];

const ALL_BUTTONS = ['add', 'edit', 'publish', 'withdraw', 'delete'];

function setup(
  roles: string[] = ['admin'],
  handlers: Record<string, Handler> = {},
  buttons: string[] | null = roles.includes('admin') ? ALL_BUTTONS : null,
) {
  signIn(roles);
  // the request client reads the real location (jsdom: /, which counts as the sign-in page)
  vi.spyOn(browser, 'pathname').mockReturnValue('/system/portalNotices');
  notices = [
    adminNotice(1, { title: '草稿公告', status: 'draft' }),
    adminNotice(2, { title: '已发布公告', status: 'published' }),
    adminNotice(3, { title: '已撤回公告', status: 'withdrawn' }),
  ];
  const byId = (req: TransportRequest) => {
    const id = (JSON.parse(String(req.body)) as { id: string }).id;
    return notices.find((n) => n.id === id)!;
  };
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/auth/v1/authorization/check-login': () => ({ data: { userInfo, roles } }),
    'POST /ks/authority/manager/system-list': () => ({ data: systems }),
    'POST /ks/common/buttons/table-button': () =>
      buttons === null
        ? { status: 403, code: 403, message: '无权限' }
        : { data: buttons.map((code) => ({ code, name: code, color: '#409EFF', show: true })) },
    'GET /ks/portal/v1/admin/notices': (req) => {
      const q = queryOf(req);
      const rows = notices.filter((n) => !q.get('status') || n.status === q.get('status'));
      return { data: { records: rows, total: rows.length } };
    },
    'GET /ks/portal/v1/admin/notices/detail': (req) => ({
      data: notices.find((n) => n.id === queryOf(req).get('id')),
    }),
    'POST /ks/portal/v1/admin/notices/save': (req) => {
      const body = JSON.parse(String(req.body)) as AdminNotice;
      return { data: { ...adminNotice(9), ...body, version: (body.version ?? 0) + 1 }, message: '保存成功' };
    },
    'POST /ks/portal/v1/admin/notices/publish': (req) => {
      const n = byId(req);
      n.status = 'published';
      return { data: n };
    },
    'POST /ks/portal/v1/admin/notices/withdraw': (req) => {
      const n = byId(req);
      n.status = 'withdrawn';
      return { data: n };
    },
    'POST /ks/portal/v1/admin/notices/delete': (req) => {
      const n = byId(req);
      notices = notices.filter((x) => x !== n);
      return { data: null };
    },
    ...handlers,
  });
  configureRequest({ transport: server.transport });
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const render = () => renderRoutes(routes, '/system/portalNotices', { antd: false });
const rowOf = (title: string) => screen.getByText(title).closest('tr') as HTMLElement;
const editorArea = () => screen.getByTestId('notice-body-area');

async function confirmPopover(user: ReturnType<typeof userEvent.setup>) {
  const ok = await screen.findByTestId('confirm-ok');
  await user.click(ok);
}

describe('门户公告管理', () => {
  it('without a grant on the node (403) shows 无权访问 and loads nothing', async () => {
    const server = setup(['user']);
    render();
    expect((await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).textContent).toContain('无权访问');
    expect(document.body.textContent).toContain('403');
    expect(server.callsTo('/ks/portal/v1/admin/notices')).toHaveLength(0);
    expect(JSON.parse(String(server.callsTo('/ks/common/buttons/table-button')[0]?.body))).toEqual({
      gnCoding: 'PORTAL_NOTICE',
      systemCoding: 'PTGL',
    });
  });

  it('a developer sees the menu but not the drafts: holding no function, the page says so without asking for the list', async () => {
    const server = setup(
      ['user'],
      { 'GET /ks/portal/v1/admin/notices': () => ({ status: 403, code: 403, message: '无权进行此操作' }) },
      [],
    );
    render();
    expect((await screen.findByTestId('forbidden', {}, { timeout: 10_000 })).textContent).toContain('无权访问');
    expect(screen.queryByText('草稿公告')).toBeNull();
    expect(currentPrompt()).toBeNull();
    // no refused request either (a browser logs every 403 as a console error)
    expect(server.callsTo('/ks/portal/v1/admin/notices')).toHaveLength(0);
  });

  it('shows only the buttons the server lists for the user', async () => {
    setup(['user'], {}, ['add', 'publish']);
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    expect(screen.getByTestId('notice-create')).toBeTruthy();
    const draft = rowOf('草稿公告');
    expect(within(draft).getByTestId('notice-publish')).toBeTruthy();
    expect(within(draft).queryByTestId('notice-edit')).toBeNull();
    expect(within(draft).queryByTestId('notice-delete')).toBeNull();
    expect(within(rowOf('已发布公告')).queryByTestId('notice-withdraw')).toBeNull();
  });

  it('lists notices with status tags and the actions each status allows', async () => {
    const server = setup();
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      '标题',
      '类别',
      '交易类型',
      '地区',
      '状态',
      '发布时间',
      '操作',
    ]);
    const draft = rowOf('草稿公告');
    expect(within(draft).getByTestId('notice-status').textContent).toBe('草稿');
    expect(within(draft).getByTestId('notice-publish')).toBeTruthy();
    expect(within(draft).getByTestId('notice-delete')).toBeTruthy();
    expect(within(draft).queryByTestId('notice-withdraw')).toBeNull();
    const published = rowOf('已发布公告');
    expect(within(published).getByTestId('notice-status').textContent).toBe('已发布');
    expect(within(published).getByTestId('notice-withdraw')).toBeTruthy();
    expect(within(published).queryByTestId('notice-delete')).toBeNull();
    expect(within(published).getByRole('link', { name: '已发布公告' }).getAttribute('target')).toBe('_blank');
    const withdrawn = rowOf('已撤回公告');
    expect(within(withdrawn).getByTestId('notice-status').textContent).toBe('已撤回');
    expect(within(withdrawn).getByTestId('notice-publish')).toBeTruthy();
    const q = queryOf(server.callsTo('/ks/portal/v1/admin/notices')[0]);
    expect(q.get('pageNum')).toBe('1');
    expect(q.get('pageSize')).toBe('10');
    expect(server.callsTo('/ks/portal/v1/admin/notices')[0].headers.Authorization).toBe('Bearer tok-admin');
  });

  it('the keyword search sends the keyword and starts at page 1', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.type(screen.getByPlaceholderText('公告标题关键字'), '医院{Enter}');
    await waitFor(() =>
      expect(queryOf(server.callsTo('/ks/portal/v1/admin/notices').at(-1)!).get('keyword')).toBe('医院'),
    );
  });

  it('发布 asks for confirmation, then shows 操作成功 and reloads the list', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-publish'));
    expect(server.callsTo('/ks/portal/v1/admin/notices/publish')).toHaveLength(0);
    await confirmPopover(user);
    expect(await screen.findByText('操作成功')).toBeTruthy();
    expect(JSON.parse(String(server.callsTo('/ks/portal/v1/admin/notices/publish')[0].body))).toEqual({
      id: notices[0].id,
    });
    await waitFor(() => expect(within(rowOf('草稿公告')).getByTestId('notice-status').textContent).toBe('已发布'));
  });

  it('撤回 and 删除 work the same way', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByText('已发布公告');
    await user.click(within(rowOf('已发布公告')).getByTestId('notice-withdraw'));
    await confirmPopover(user);
    await waitFor(() => expect(server.callsTo('/ks/portal/v1/admin/notices/withdraw')).toHaveLength(1));
    await waitFor(() => expect(within(rowOf('已发布公告')).getByTestId('notice-status').textContent).toBe('已撤回'));
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-delete'));
    await confirmPopover(user);
    await waitFor(() => expect(screen.queryByText('草稿公告')).toBeNull());
  });

  it('shows a server refusal in the global prompt', async () => {
    const user = userEvent.setup();
    setup(['admin'], {
      'POST /ks/portal/v1/admin/notices/publish': () => ({ status: 409, code: 409, message: '该公告已发布' }),
    });
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-publish'));
    await confirmPopover(user);
    await waitFor(() => expect(currentPrompt()?.message).toBe('该公告已发布'));
  });

  it('编辑 loads the notice into the rich-text editor, previews it sanitised and saves with id and version', async () => {
    const user = userEvent.setup();
    const server = setup();
    notices[0].bodyHtml = '<p>正文</p><img src="https://evil.example/x.png" onerror="window.__y=1">';
    notices[0].projectName = '太原市滨河东路道路改造工程';
    notices[0].sectionName = '施工一标段';
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-edit'));
    const title = await screen.findByTestId('notice-title-input');
    await waitFor(() => expect((title as HTMLInputElement).value).toBe('草稿公告'));
    expect((screen.getByTestId('notice-project-name') as HTMLInputElement).value).toBe('太原市滨河东路道路改造工程');
    expect((screen.getByTestId('notice-section-name') as HTMLInputElement).value).toBe('施工一标段');
    // the body is in the screen-12 editor (its own chunk), with image upload in its toolbar
    await waitFor(() => expect(editorArea().textContent).toContain('正文'), { timeout: 10_000 });
    expect(screen.getByTestId('notice-body-toolbar').querySelector('[data-menu-key="uploadImage"]')).not.toBeNull();

    await user.click(screen.getByTestId('notice-preview-open'));
    const preview = await screen.findByTestId('notice-preview');
    expect(preview.textContent).toBe('正文');
    expect(preview.innerHTML).not.toMatch(/onerror|evil\.example/);
    expect(screen.getByTestId('notice-preview-title').textContent).toBe('草稿公告');
    const modal = screen.getByTestId('notice-preview').closest('.ant-modal') as HTMLElement;
    await user.click(modal.querySelector('.ant-modal-close') as HTMLElement);

    await user.clear(title);
    await user.type(title, '改过的标题');
    await user.click(screen.getByTestId('notice-save'));
    await waitFor(() => expect(server.callsTo('/ks/portal/v1/admin/notices/save')).toHaveLength(1));
    const body = JSON.parse(String(server.callsTo('/ks/portal/v1/admin/notices/save')[0].body));
    expect(body).toMatchObject({
      id: notices[0].id,
      version: 1,
      title: '改过的标题',
      category: notices[0].category,
      tradeType: notices[0].tradeType,
      region: notices[0].region,
      amount: notices[0].amount,
      projectName: '太原市滨河东路道路改造工程',
      sectionName: '施工一标段',
      attachments: notices[0].attachments,
    });
    expect(body.bodyHtml).toContain('正文');
    expect(body.bodyHtml).not.toMatch(/onerror|evil\.example/);
    expect(await screen.findByText('保存成功')).toBeTruthy();
  });

  it('uploads attachments with the attachment uploader to upload-notice and saves their addresses', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const server = setup(['admin'], {
      'POST /ks/common/common/upload-notice': () => ({ data: uploaded(7, '工程量清单.pdf') }),
    });
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-edit'));
    await waitFor(() => expect((screen.getByTestId('notice-title-input') as HTMLInputElement).value).toBe('草稿公告'));
    const box = screen.getByTestId('notice-attachments');
    expect(
      within(box)
        .getAllByTestId('attachment-name')
        .map((n) => n.textContent),
    ).toEqual(['招标文件.pdf']);
    // no address typed by hand: files are chosen and uploaded
    expect(within(box).queryByRole('textbox')).toBeNull();
    await user.upload(box.querySelector('input[type=file]') as HTMLInputElement, fileOf('工程量清单.pdf'));
    await waitFor(() =>
      expect(
        within(box)
          .getAllByTestId('attachment-name')
          .map((n) => n.textContent),
      ).toEqual(['招标文件.pdf', '工程量清单.pdf']),
    );
    const sent = server.callsTo('/ks/common/common/upload-notice');
    expect(sent).toHaveLength(1);
    expect(formOf(sent[0]!).file?.name).toBe('工程量清单.pdf');
    expect(server.callsTo('/ks/common/common/upload/attachment')).toHaveLength(0);
    expect(within(box).getByText(/待保存/)).toBeTruthy();

    // the first one is removed (after a confirmation)
    await user.click(within(box).getAllByTestId('attachment-remove')[0]!);
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(within(box).getAllByTestId('attachment-name')).toHaveLength(1));

    await user.click(screen.getByTestId('notice-save'));
    await waitFor(() => expect(server.callsTo('/ks/portal/v1/admin/notices/save')).toHaveLength(1));
    const body = JSON.parse(String(server.callsTo('/ks/portal/v1/admin/notices/save')[0].body));
    expect(body.attachments).toEqual([{ name: '工程量清单.pdf', url: uploaded(7, '工程量清单.pdf').url }]);
  });

  it('refuses attachment formats a notice does not take, before sending', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const server = setup();
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('notice-create'));
    const box = await screen.findByTestId('notice-attachments');
    await user.upload(box.querySelector('input[type=file]') as HTMLInputElement, fileOf('setup.exe'));
    await findMessage('格式错误，请上传');
    expect(server.callsTo('/ks/common/common/upload-notice')).toHaveLength(0);
  });

  it('shows the field errors of a 400 on the form fields, without a dialog', async () => {
    const user = userEvent.setup();
    setup(['admin'], {
      'POST /ks/portal/v1/admin/notices/save': () => ({
        status: 400,
        code: 400,
        message: '请求参数有误',
        data: { fieldErrors: { title: ['标题已存在'], 'attachments.0.url': ['附件文件不存在或已删除，请重新上传'] } },
      }),
    });
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-edit'));
    await waitFor(() => expect((screen.getByTestId('notice-title-input') as HTMLInputElement).value).toBe('草稿公告'));
    await user.click(screen.getByTestId('notice-save'));
    expect(await screen.findByText('标题已存在')).toBeTruthy();
    // an attachment's error shows on the attachment list, naming the attachment
    expect(screen.getByText('「招标文件.pdf」附件文件不存在或已删除，请重新上传')).toBeTruthy();
    expect(screen.getByTestId('notice-form-error').textContent).toContain('请求参数有误');
    expect(currentPrompt()).toBeNull();
  });

  it('a stale version (409) is reported and the drawer stays open', async () => {
    const user = userEvent.setup();
    setup(['admin'], {
      'POST /ks/portal/v1/admin/notices/save': () => ({
        status: 409,
        code: 409,
        message: '公告已被他人修改，请刷新后重试',
      }),
    });
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(within(rowOf('草稿公告')).getByTestId('notice-edit'));
    await waitFor(() => expect((screen.getByTestId('notice-title-input') as HTMLInputElement).value).toBe('草稿公告'));
    await user.click(screen.getByTestId('notice-save'));
    await waitFor(() => expect(currentPrompt()?.message).toBe('公告已被他人修改，请刷新后重试'));
    expect(screen.getByTestId('notice-form-error').textContent).toContain('公告已被他人修改');
  });

  it('新建公告 checks the required fields before sending anything', async () => {
    const user = userEvent.setup();
    const server = setup();
    render();
    await screen.findByText('草稿公告', {}, { timeout: 15_000 });
    await user.click(screen.getByTestId('notice-create'));
    await user.click(await screen.findByTestId('notice-save'));
    const errors = () => [...document.querySelectorAll('.ant-form-item-explain-error')].map((e) => e.textContent);
    await waitFor(() =>
      expect(errors()).toEqual(['请输入公告标题', '请选择公告类别', '请选择交易类型', '请选择地区', '请填写内容']),
    );
    await user.type(screen.getByTestId('notice-amount'), '12.345');
    expect(await screen.findByText('金额格式有误（元，最多两位小数）')).toBeTruthy();
    expect(server.callsTo('/ks/portal/v1/admin/notices/save')).toHaveLength(0);
  });
});

describe('form helpers', () => {
  it('turns form values into the NoticeInput (blank optional fields as null, attachments as name and address)', () => {
    expect(
      toNoticeInput({
        title: ' 标题 ',
        category: '招标公告',
        tradeType: '工程建设',
        region: '太原市',
        projectCode: ' ',
        projectName: ' 太原市滨河东路道路改造工程 ',
        sectionName: '',
        tenderer: '某单位',
        amount: '',
        bodyHtml: '<p>x</p>',
        attachments: [{ name: 'a.pdf', url: '/ks/common/common/file/download?fileId=1', added: true, fileSize: 3 }],
      }),
    ).toEqual({
      title: '标题',
      category: '招标公告',
      tradeType: '工程建设',
      region: '太原市',
      projectCode: null,
      projectName: '太原市滨河东路道路改造工程',
      sectionName: null,
      tenderer: '某单位',
      amount: null,
      bodyHtml: '<p>x</p>',
      attachments: [{ name: 'a.pdf', url: '/ks/common/common/file/download?fileId=1' }],
    });
  });

  it('maps server field paths to form names, attachments to the list, and ignores unknown fields', () => {
    expect(fieldPath('attachments.0.url')).toEqual(['attachments', 0, 'url']);
    const err = {
      status: 400,
      data: { fieldErrors: { title: ['x'], _: ['y'], id: ['z'], 'attachments.1.url': ['坏'] } },
    };
    expect(
      fieldErrorsOf(err as never, [
        { name: 'a.pdf', url: 'u' },
        { name: 'b.pdf', url: 'v' },
      ]),
    ).toEqual([
      { name: ['title'], errors: ['x'] },
      { name: ['attachments'], errors: ['「b.pdf」坏'] },
    ]);
    expect(fieldErrorsOf({ status: 409, data: null } as never)).toEqual([]);
  });

  it('checks body links and media by the portal rule before saving', () => {
    expect(noticeBodyProblem('<p><a href="https://www.ccgp.gov.cn/">a</a><a href="/transac">b</a></p>')).toBeNull();
    expect(noticeBodyProblem('<a href="/\\evil.example/x">x</a>')).toBe(NOTICE_LINK_MESSAGES.badLink);
    expect(noticeBodyProblem('<a href="//evil.example/x">x</a>')).toBe(NOTICE_LINK_MESSAGES.badLink);
    expect(noticeBodyProblem('<img src="https://evil.example/x.png">')).toBe(NOTICE_LINK_MESSAGES.mediaNotOurs);
    expect(noticeBodyProblem('<img src="/ks/common/common/file/download?fileId=1">')).toBeNull();
  });
});
