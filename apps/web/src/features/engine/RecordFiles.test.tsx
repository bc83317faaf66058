import type { Annex, AttachmentType } from '@ks/contracts';
import { SESSION_KEYS } from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { fid, fileOf, formOf, uploaded } from '../../components/upload/testkit';
import { col, inputOf, pick } from '../../engine/form/test-utils';
import DynamicDetailPage from './DynamicDetailPage';
import { bodyOf, findMessage, listRoutes, renderEngine, rid, setupEngine, storedRecord } from './testkit';

/** The typed attachments of a record on the engine's detail and form pages (issue 6). */

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const routes: RouteObject[] = [{ path: '/dynamicPage/dynamicDetail', element: <DynamicDetailPage /> }, ...listRoutes];
const url = (extra: string) => `/dynamicPage/dynamicDetail?gnCoding=ZYZC&systemCoding=XYGL${extra}`;

const TYPES: AttachmentType[] = [
  {
    annexNo: '01',
    annexName: '身份证（正反面）',
    annexFormat: 'jpg,jpeg,png,pdf',
    annexSize: 5,
    isRequired: true,
    fileType: 'image',
    template: null,
    templateName: null,
  },
  {
    annexNo: '03',
    annexName: '执业注册申请表（盖章）',
    annexFormat: 'pdf',
    annexSize: 10,
    isRequired: true,
    fileType: 'pdf',
    template: '/ks/common/common/att-template?name=zyzc-sqb.pdf',
    templateName: 'zyzc-sqb.pdf',
  },
  {
    annexNo: '04',
    annexName: '其他证明材料',
    annexFormat: 'pdf,jpg,png,webp',
    annexSize: 20,
    isRequired: false,
    fileType: 'pdf',
    template: null,
    templateName: null,
  },
];

const annex = (n: number, t: AttachmentType, fileName: string): Annex => ({
  annexName: t.annexName,
  annexNo: t.annexNo,
  isRequired: t.isRequired,
  fileType: t.fileType,
  url: `/ks/common/common/file/download?fileId=${fid(n)}`,
  fileId: fid(n),
  fileName,
  fileSize: 2048,
  preview: fileName.endsWith('.pdf') ? 'pdf' : 'image',
  fileOperationType: '',
});

/** The files endpoints beside the engine fake: types, the record's annex rows, uploads, operations. */
function filesOf(initial: Annex[]) {
  let rows = initial;
  let next = 700;
  const ops: { id: string; fileList: { fileId: string; fileNo?: string; fileOperationType: string }[] }[] = [];
  const handlers = {
    'GET /ks/common/common/att-description': () => ({ data: { list: TYPES, template: TYPES[1].template } }),
    'GET /ks/common/common/attachment/list': () => ({ data: rows }),
    'GET /ks/common/common/file/preview-url': (req: TransportRequest) => ({
      data: { url: `${req.url.replace('preview-url', 'download')}&inline=1&exp=1&sig=s`, expiresAt: '' },
    }),
    'POST /ks/upload/v1/file-upload': (req: TransportRequest) => {
      const f = formOf(req);
      return { data: uploaded(next++, f.file?.name ?? 'x.pdf', { fileNo: f.fields.fileNo ?? null }) };
    },
    'POST /ks/common/common/upload/file-attachment': (req: TransportRequest) => {
      const b = bodyOf<(typeof ops)[number]>(req);
      ops.push(b);
      rows = b.fileList
        .filter((f) => f.fileOperationType !== 'del')
        .map((f, i) =>
          annex(Number(f.fileId.slice(-4)), TYPES.find((t) => t.annexNo === f.fileNo) ?? TYPES[2], `f${i}.pdf`),
        );
      return { data: rows, message: '保存成功' };
    },
    'POST /ks/common/common/attachment/delete': () => ({ data: null, message: '删除成功' }),
  };
  return { handlers, ops };
}

const asOwner = () => sessionStorage.setItem(SESSION_KEYS.roles, JSON.stringify(['user']));
const row = (annexNo: string) => screen.getByTestId(`annex-row-${annexNo}`);
const fileInput = (annexNo: string) => row(annexNo).querySelector('input[type=file]') as HTMLInputElement;

describe('record attachments', () => {
  it('the detail view lists the types (required markers, template) and the files read-only', async () => {
    const files = filesOf([annex(1, TYPES[0], '身份证.png')]);
    setupEngine({ records: [storedRecord(1)] }, files.handlers);
    asOwner();
    renderEngine(url(`&id=${rid(1)}`), routes);
    const card = await screen.findByTestId('record-attachments');
    expect(card.getAttribute('data-readonly')).toBe('1');
    expect(within(row('01')).getByTestId('annex-required')).toBeTruthy();
    expect(within(row('04')).queryByTestId('annex-required')).toBeNull();
    expect(within(row('03')).getByTestId('annex-template-03').getAttribute('href')).toBe(
      '/ks/common/common/att-template?name=zyzc-sqb.pdf',
    );
    expect(within(row('01')).getByTestId('attachment-name').textContent).toBe('身份证.png');
    expect(within(card).queryByTestId('attachment-upload')).toBeNull();
    expect(within(card).queryByTestId('attachment-remove')).toBeNull();
    expect(within(row('03')).getByTestId('attachment-none').textContent).toBe('未上传');
  });

  it('提交 from the detail names the required types without a file and sends nothing', async () => {
    const files = filesOf([annex(1, TYPES[0], '身份证.png')]);
    const { calls } = setupEngine({ records: [storedRecord(1)] }, files.handlers);
    asOwner();
    const user = userEvent.setup();
    renderEngine(url(`&id=${rid(1)}`), routes);
    await screen.findByTestId('record-attachments');
    await user.click(screen.getByTestId('detail-op-submit'));
    await findMessage('附件为必填项，请上传【执业注册申请表（盖章）】附件！');
    expect(calls.filter((c) => c.url === '/ks/engine/v1/records/submit')).toHaveLength(0);
  });

  it("edit: uploads and removals wait for 保存, which sends them as add / del / '' operations", async () => {
    const files = filesOf([annex(1, TYPES[0], '身份证.png'), annex(2, TYPES[2], '旧材料.pdf')]);
    const { calls } = setupEngine({ records: [storedRecord(1)] }, files.handlers);
    asOwner();
    const user = userEvent.setup({ applyAccept: false });
    const { router } = renderEngine(url(`&id=${rid(1)}&mode=edit`), routes);
    await screen.findByTestId('record-attachments');
    await waitFor(() => expect(inputOf('xm').value).toBe('申请人1'));
    expect(screen.getByTestId('record-attachments').getAttribute('data-readonly')).toBe('0');

    // the type's own rules before anything is sent
    await user.upload(fileInput('03'), fileOf('申请表.png'));
    await findMessage('格式错误，请上传【pdf】格式');
    await user.upload(fileInput('03'), fileOf('申请表.pdf'));
    await waitFor(() => expect(within(row('03')).getByTestId('attachment-name').textContent).toBe('申请表.pdf'));
    const sent = formOf(calls.filter((c) => c.url === '/ks/upload/v1/file-upload')[0]);
    expect(sent.fields).toEqual({ fileType: 'pdf', gnCoding: 'ZYZC', systemCoding: 'XYGL', fileNo: '03' });
    expect(screen.getByTestId('form-dirty')).toBeTruthy();

    // remove a stored file (confirmed); nothing is sent yet
    await user.click(within(row('04')).getByTestId('attachment-remove'));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(within(row('04')).queryByTestId('attachment-file')).toBeNull());
    expect(files.ops).toHaveLength(0);

    // 提交 while changed: 请先保存！
    await user.click(screen.getByTestId('form-submit'));
    await findMessage('请先保存！');

    await act(() => new Promise((r) => setTimeout(r, 1000)));
    await user.click(screen.getByTestId('form-save'));
    await findMessage('保存成功');
    expect(files.ops).toHaveLength(1);
    expect(files.ops[0].id).toBe(rid(1));
    expect(files.ops[0].fileList).toEqual([
      { fileId: fid(1), fileNo: '01', fileOperationType: '' },
      { fileId: fid(700), fileNo: '03', fileOperationType: 'add' },
      { fileId: fid(2), fileOperationType: 'del' },
    ]);
    // only the attachments changed: the record's values were not saved again
    expect(calls.filter((c) => c.url === '/ks/engine/v1/records/save')).toHaveLength(0);
    await waitFor(() => expect(router.state.location.search).not.toContain('mode=edit'));
  }, 30_000);

  it('new record: files chosen before the first save are attached to it once it is saved', async () => {
    const files = filesOf([]);
    const { calls, state } = setupEngine({ records: [] }, files.handlers);
    asOwner();
    const user = userEvent.setup({ applyAccept: false });
    renderEngine(url('&mode=edit'), routes);
    await screen.findByTestId('record-attachments');
    await user.upload(fileInput('01'), fileOf('身份证.png'));
    await waitFor(() => expect(within(row('01')).getByTestId('attachment-name').textContent).toBe('身份证.png'));
    // removed again before saving: deleted at once, never attached
    await user.upload(fileInput('04'), fileOf('多余.pdf'));
    await waitFor(() => expect(within(row('04')).queryByTestId('attachment-file')).toBeTruthy());
    await user.click(within(row('04')).getByTestId('attachment-remove'));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.url === '/ks/common/common/attachment/delete').map((c) => bodyOf(c))).toEqual([
        { fileId: fid(701) },
      ]),
    );

    fireEvent.change(inputOf('xm'), { target: { value: '王五' } });
    await user.click(within(col('xb')).getByText('女'));
    await pick('zclb', '二级注册建造师');
    await act(() => new Promise((r) => setTimeout(r, 1000)));
    await user.click(screen.getByTestId('form-save'));
    await findMessage('保存成功');
    const saveAt = calls.findIndex((c) => c.url === '/ks/engine/v1/records/save');
    const opsAt = calls.findIndex((c) => c.url === '/ks/common/common/upload/file-attachment');
    expect(saveAt).toBeGreaterThanOrEqual(0);
    expect(opsAt).toBeGreaterThan(saveAt);
    expect(files.ops[0]).toEqual({
      gnCoding: 'ZYZC',
      id: state.records[0].id,
      fileList: [{ fileId: fid(700), fileNo: '01', fileOperationType: 'add' }],
    });
  }, 30_000);

  it('administrators see the attachments read-only, also in the form', async () => {
    const files = filesOf([annex(1, TYPES[0], '身份证.png')]);
    setupEngine({ records: [storedRecord(1)] }, files.handlers); // signed in as an administrator
    renderEngine(url(`&id=${rid(1)}&mode=edit`), routes);
    const card = await screen.findByTestId('record-attachments');
    expect(card.getAttribute('data-readonly')).toBe('1');
    expect(within(card).queryByTestId('attachment-upload')).toBeNull();
    expect(within(card).queryByTestId('attachment-remove')).toBeNull();
    expect(await within(card).findAllByTestId('attachment-download')).toHaveLength(1);
    expect(within(card).getByTestId('attachment-preview')).toBeTruthy();
  });

  it('a node without attachment types shows no attachments card', async () => {
    setupEngine({ records: [storedRecord(1)] });
    renderEngine(url(`&id=${rid(1)}`), routes);
    await screen.findByTestId('detail-status');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.queryByTestId('record-attachments')).toBeNull();
  });
});
