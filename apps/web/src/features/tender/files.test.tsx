import {
  type Clarification,
  type DownloadStatus,
  type OpenSection,
  SESSION_KEYS,
  type TenderDoc,
  type TenderDocs,
} from '@ks/contracts';

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { createFakeServer, userInfo } from '../../test/server';
import FiveInOneDetailPage from './FiveInOneDetailPage';
import RegistrationPage from './RegistrationPage';
import { PROJECT_ID, SECTION_ID, tenderProject } from './testkit';

const ID = PROJECT_ID;
const SECTION = SECTION_ID;
const DOC = '5a1c2d3e-4f50-4a61-8b72-93a4b5c6d7e9';
const PATH = `/fiveInOne/detail?systemCoding=ZBTB&gnCoding=ZBTB_XMDJ&id=${ID}&tab=zswj`;
const SLOW = { timeout: 30_000 };

const project = tenderProject({
  values: { xmmc: '太原市晋源区第二实验小学教学综合楼建设工程', xmbh: 'SXGC-2026-1101' },
});

const doc = (over: Partial<TenderDoc> = {}): TenderDoc => ({
  id: DOC,
  sectionId: SECTION,
  kind: '招标文件',
  name: '第一卷 招标文件（正文）',
  fileId: '6a1c2d3e-4f50-4a61-8b72-93a4b5c6d7e0',
  fileName: '招标文件.pdf',
  fileSize: 204_800,
  uploadedBy: '李慧敏',
  createdAt: '2099-02-27T01:30:00.000Z',
  operations: { delete: true, download: true },
  ...over,
});

const docs = (over: Partial<TenderDocs> = {}): TenderDocs => ({
  sectionId: SECTION,
  sectionCode: 'BD-01',
  sectionName: '施工标段',
  docSaleStart: '2099-03-01',
  docSaleEnd: '2099-03-07',
  saleStartsAt: '2099-02-28T16:00:00.000Z',
  bidDeadline: '2099-03-25T01:30:00.000Z',
  noticePublishedAt: '2099-02-27T01:30:00.000Z',
  role: 'side',
  canEdit: true,
  editProblem: null,
  canDownload: true,
  downloadProblem: null,
  documents: [doc()],
  ...over,
});

const counts: DownloadStatus = {
  sectionId: SECTION,
  visibility: 'counts',
  note: '开标前不公开下载单位，仅显示下载数量',
  opened: false,
  documents: [{ documentId: DOC, name: '第一卷 招标文件（正文）', kind: '招标文件', downloads: 3, enterprises: 2 }],
  totalDownloads: 3,
  totalEnterprises: 2,
  records: [],
};

const clarification = (over: Partial<Clarification>): Clarification => ({
  id: '7a1c2d3e-4f50-4a61-8b72-93a4b5c6d7e1',
  sectionId: SECTION,
  title: '关于第五章工程量清单的澄清（第一号）',
  content: '矩形柱混凝土强度等级由 C30 更正为 C35。',
  fileId: null,
  fileName: null,
  affectsBids: true,
  newDeadline: null,
  oldDeadline: null,
  status: 'draft',
  opinion: null,
  createdBy: '李慧敏',
  createdAt: '2099-03-02T01:30:00.000Z',
  submittedAt: null,
  auditedBy: null,
  auditedAt: null,
  sentBy: null,
  sentAt: null,
  recipients: 0,
  version: 0,
  operations: { edit: true, delete: true, submit: true, revoke: false, audit: false, send: false },
  ...over,
});
const DRAFT = clarification({});
const PASSED = clarification({
  id: '7a1c2d3e-4f50-4a61-8b72-93a4b5c6d7e2',
  title: '关于开标地点的修改',
  status: 'passed',
  auditedBy: '平台管理员',
  auditedAt: '2099-03-03T01:30:00.000Z',
  opinion: '同意发出',
  newDeadline: '2099-04-01T01:30:00.000Z',
  version: 3,
  operations: { edit: false, delete: false, submit: false, revoke: false, audit: false, send: true },
});

function signIn(role = 'U') {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: role }));
}

afterEach(() => {
  configureRequest();
  sessionStorage.clear();
  act(() => resetPrompts());
});

function detailServer(files: TenderDocs, clarifications: Clarification[] = [DRAFT, PASSED]) {
  const s = createFakeServer({
    'GET /ks/xmrc/v1/project': () => ({ data: project }),
    'GET /ks/xmrc/v1/settings': () => ({
      data: {
        settings: { docSaleDays: 5, issueToDeadlineDays: 20, depositMaxPercent: 2, clarifyDays: 15 },
        legal: { docSaleDays: 5, issueToDeadlineDays: 20, depositMaxPercent: 2, clarifyDays: 15 },
      },
    }),
    'POST /ks/common/array/fields': () => ({ data: { fields: [], version: 1, uniqueKeys: [] } }),
    'POST /ks/menu/v1/menus/main-menus': () => ({ data: [] }),
    'POST /ks/trade/file/files': () => ({ data: files }),
    'POST /ks/trade/file/download-status': () => ({ data: counts }),
    'POST /ks/clarify/file/list': () => ({
      data: {
        sectionId: SECTION,
        bidDeadline: '2099-03-25T01:30:00.000Z',
        clarifyDays: 15,
        canCreate: true,
        clarifications,
      },
    }),
    'POST /ks/trade/file/delete': () => ({ data: null }),
    'POST /ks/clarify/file/send': () => ({ data: { ...PASSED, status: 'sent' } }),
  });
  configureRequest({ transport: s.transport });
  return s;
}

describe('the 招标文件 tab (zswj)', () => {
  it('shows the project side its documents, counts only before opening, and the clarifications by state', async () => {
    detailServer(docs());
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    const table = await screen.findByTestId('doc-table', {}, SLOW);
    expect(table.textContent).toContain('第一卷 招标文件（正文）');
    expect(table.textContent).toContain('招标文件.pdf');
    expect(screen.getByTestId('doc-upload')).toBeTruthy();
    // the tab sits between 招标公告 and 专家抽取
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs.indexOf('招标文件')).toBe(tabs.indexOf('招标公告') + 1);
    expect(tabs.indexOf('专家抽取')).toBe(tabs.indexOf('招标文件') + 1);
    // who downloaded stays hidden: counts only
    expect((await screen.findByTestId('download-hidden')).textContent).toContain('开标前不公开下载单位');
    expect(screen.getByTestId('download-counts').textContent).toContain('3');
    expect(screen.queryByTestId('download-records')).toBeNull();
    // clarifications with their state and the actions the server allows
    await waitFor(() => expect(screen.getByTestId(`clarify-status-${DRAFT.id}`).textContent).toBe('草稿'));
    expect(screen.getByTestId(`clarify-status-${PASSED.id}`).textContent).toBe('审核通过');
    expect(screen.getByTestId(`clarify-submit-${DRAFT.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`clarify-send-${DRAFT.id}`)).toBeNull();
    expect(screen.getByTestId(`clarify-send-${PASSED.id}`)).toBeTruthy();
    expect(screen.queryByTestId(`clarify-revoke-${PASSED.id}`)).toBeNull();
    expect(screen.getByTestId('clarify-new')).toBeTruthy();
  });

  it('deletes a document and sends a clarification only after confirming', async () => {
    const user = userEvent.setup();
    const s = detailServer(docs());
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    await user.click(await screen.findByTestId(`doc-delete-${DOC}`, {}, SLOW));
    expect(await screen.findByText('确认删除「第一卷 招标文件（正文）」？删除后不可恢复。')).toBeTruthy();
    expect(s.callsTo('/ks/trade/file/delete')).toHaveLength(0);
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(s.callsTo('/ks/trade/file/delete')).toHaveLength(1));
    expect(JSON.parse(String(s.callsTo('/ks/trade/file/delete')[0]!.body))).toEqual({ id: DOC });

    await user.click(await screen.findByTestId(`clarify-send-${PASSED.id}`));
    expect(await screen.findByText(/投标截止时间顺延至/)).toBeTruthy();
    const oks = await screen.findAllByTestId('confirm-ok');
    await user.click(oks[oks.length - 1]!);
    await waitFor(() => expect(s.callsTo('/ks/clarify/file/send')).toHaveLength(1));
    expect(JSON.parse(String(s.callsTo('/ks/clarify/file/send')[0]!.body))).toEqual({ id: PASSED.id, version: 3 });
  });

  it('says why nothing can be added once on sale, and shows empty states', async () => {
    detailServer(
      docs({ canEdit: false, editProblem: '招标文件已开始发售，不能再增删，如需修改请发出澄清或修改', documents: [] }),
      [],
    );
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    expect((await screen.findByTestId('files-timeline', {}, SLOW)).textContent).toContain('已开始发售');
    expect(screen.queryByTestId('doc-upload')).toBeNull();
    expect(screen.getByTestId('doc-table').textContent).toContain('暂无招标文件');
    await waitFor(() => expect(screen.getByTestId('clarify-table').textContent).toContain('暂无澄清或修改'));
  });
});

describe('/fiveInOne/registration: a registered bidder’s 招标文件', () => {
  const OPEN: OpenSection = {
    sectionId: SECTION,
    projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
    projectCode: 'SXGC-2026-1101',
    tenderee: '太原市晋源区教育局',
    sectionCode: 'BD-01',
    sectionName: '施工标段',
    estimate: 38_500_000,
    deposit: 770_000,
    docSaleStart: '2099-03-01',
    docSaleEnd: '2099-03-07',
    bidDeadline: '2099-03-25T01:30:00.000Z',
    publishedAt: '2099-02-27T01:30:00.000Z',
    qualLabels: '建筑工程施工总承包二级',
    qualRelation: '且',
    perfRequirement: null,
    registeredAt: '2099-03-01T02:00:00.000Z',
  };

  it('downloads through the server, which records it; the bidder sees its own records', async () => {
    const user = userEvent.setup();
    const s = createFakeServer({
      'GET /ks/trade/registrations/sections': () => ({ data: { records: [OPEN] } }),
      'POST /ks/trade/file/files': () => ({
        data: docs({
          role: 'bidder',
          canEdit: false,
          documents: [doc({ operations: { delete: false, download: true } })],
        }),
      }),
      'POST /ks/trade/file/download-status': () => ({
        data: {
          ...counts,
          visibility: 'own',
          note: null,
          totalDownloads: 1,
          totalEnterprises: 1,
          records: [
            {
              id: 'r1',
              sectionId: SECTION,
              sectionLabel: 'SXGC-2026-1101 BD-01 施工标段',
              documentId: DOC,
              documentName: '第一卷 招标文件（正文）',
              kind: '招标文件',
              fileName: '招标文件.pdf',
              userName: '张建国',
              enterpriseName: '示例建设工程有限公司',
              ip: '10.1.2.3',
              downloadedAt: '2099-03-02T02:00:00.000Z',
            },
          ],
        },
      }),
      'POST /ks/clarify/file/list': () => ({
        data: {
          sectionId: SECTION,
          bidDeadline: '2099-03-25T01:30:00.000Z',
          clarifyDays: 15,
          canCreate: false,
          clarifications: [
            clarification({
              status: 'sent',
              sentAt: '2099-03-04T01:30:00.000Z',
              recipients: 3,
              operations: { edit: false, delete: false, submit: false, revoke: false, audit: false, send: false },
            }),
          ],
        },
      }),
      'GET /ks/trade/file/download': () => ({ data: null }),
    });
    configureRequest({ transport: s.transport });
    signIn();
    renderRoutes([{ path: '/fiveInOne/registration', element: <RegistrationPage /> }], '/fiveInOne/registration');
    await user.click(await screen.findByTestId(`files-${SECTION}`, {}, SLOW));
    const drawer = await screen.findByTestId('bidder-files');
    expect(within(drawer).queryByTestId('doc-upload')).toBeNull();
    expect(within(drawer).queryByTestId(`doc-delete-${DOC}`)).toBeNull();
    await waitFor(() => expect(within(drawer).getByTestId('download-records').textContent).toContain('10.1.2.3'));
    await waitFor(() => expect(within(drawer).getByTestId('clarify-table').textContent).toContain('已发出'));
    expect(within(drawer).queryByTestId('clarify-new')).toBeNull();
    await user.click(within(drawer).getByTestId(`doc-download-${DOC}`));
    await waitFor(() => expect(s.callsTo('/ks/trade/file/download')).toHaveLength(1));
    expect(s.callsTo('/ks/trade/file/download')[0]!.url).toContain(`id=${DOC}`);
  });
});
