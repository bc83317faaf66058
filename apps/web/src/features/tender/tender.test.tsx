import { SESSION_KEYS, type TenderProject, type TenderSection } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { createFakeServer, userInfo } from '../../test/server';
import FiveInOneDetailPage from './FiveInOneDetailPage';
import { PROJECT_ID, SECTION_ID, tenderProject, tenderSection } from './testkit';

const ID = PROJECT_ID;
const PATH = `/fiveInOne/detail?systemCoding=ZBTB&gnCoding=ZBTB_XMDJ&id=${ID}`;
const FIELDS = [
  { code: 'xmmc', name: '项目名称', type: 'text' },
  { code: 'xmbh', name: '项目编号', type: 'text' },
  { code: 'xmszd', name: '项目所在地', type: 'cascader', options: { list: [] } },
  { code: 'ztz', name: '项目总投资（元）', type: 'input-number' },
];
const section = tenderSection;

function server(
  project: TenderProject,
  save: (body: unknown) => { status?: number; message?: string; data?: unknown },
  extra: Parameters<typeof createFakeServer>[0] = {},
) {
  let current = project;
  const s = createFakeServer({
    'GET /ks/xmrc/v1/project': () => ({ data: current }),
    'GET /ks/xmrc/v1/settings': () => ({
      data: {
        settings: { docSaleDays: 5, issueToDeadlineDays: 20, depositMaxPercent: 2, clarifyDays: 15 },
        legal: { docSaleDays: 5, issueToDeadlineDays: 20, depositMaxPercent: 2, clarifyDays: 15 },
      },
    }),
    'POST /ks/common/array/fields': () => ({ data: { fields: FIELDS, version: 1, uniqueKeys: [] } }),
    'POST /ks/menu/v1/menus/main-menus': () => ({ data: [] }),
    'GET /ks/xmrc/v1/bd-files': () => ({ data: PROJECT_FILES }),
    'POST /ks/xmrc/v1/bd/save': (req) => {
      const r = save(JSON.parse(String(req.body)));
      if (!r.status || r.status === 200)
        current = { ...current, sections: [...current.sections, r.data as TenderSection] };
      return r;
    },
    ...extra,
  });
  configureRequest({ transport: s.transport });
  return s;
}

function signIn() {
  sessionStorage.setItem(SESSION_KEYS.token, 'tok-m');
  sessionStorage.setItem(SESSION_KEYS.userInfo, JSON.stringify({ ...userInfo, loginRoleType: 'M' }));
}

const project = tenderProject;

const PROJECT_FILES = {
  projectId: ID,
  sections: [
    {
      sectionId: SECTION_ID,
      sectionCode: 'BD-01',
      sectionName: '施工标段',
      attachments: [
        {
          source: 'document',
          id: 'd1',
          kind: '招标文件',
          name: '第一卷 招标文件（正文）',
          fileId: 'f1',
          fileName: '招标文件.pdf',
          fileSize: 2_097_152,
          by: '平台管理员',
          at: '2099-02-20T02:00:00.000Z',
          status: null,
          downloads: 3,
        },
        {
          source: 'clarification',
          id: 'c1',
          kind: '澄清文件',
          name: '关于工程量清单的澄清',
          fileId: 'f2',
          fileName: '澄清.pdf',
          fileSize: 10_240,
          by: '平台管理员',
          at: '2099-03-02T02:00:00.000Z',
          status: 'sent',
          downloads: null,
        },
      ],
    },
  ],
};

afterEach(() => {
  configureRequest();
  sessionStorage.clear();
  act(() => resetPrompts());
});

describe('/fiveInOne/detail', () => {
  it('shows the project’s fields by their names, its review state and its sections', async () => {
    server(project(), () => ({ status: 500 }));
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    expect((await screen.findByTestId('five-title', {}, { timeout: 30_000 })).textContent).toBe(
      '太原市晋源区第二实验小学教学综合楼建设工程',
    );
    expect(screen.getByTestId('five-status').textContent).toBe('已通过');
    const values = await screen.findByTestId('five-values');
    await waitFor(() => expect(values.textContent).toContain('项目编号SXGC-2026-1101'));
    expect(values.textContent).toContain('项目总投资（元）48,600,000');
    const table = screen.getByTestId('section-table');
    expect(table.textContent).toContain('38,500,000.00');
    expect(table.textContent).toContain('770,000.00');
    expect(table.textContent).toContain('2099-03-01 至 2099-03-07');
    expect(screen.getByTestId('section-add')).toBeTruthy();
  });

  it('lists every file of the sections (bd-files): documents with their downloads, clarifications with status', async () => {
    const s = server(project({ canEdit: false }), () => ({ status: 500 }));
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    const table = await screen.findByTestId('project-files', {}, { timeout: 30_000 });
    await waitFor(() => expect(table.textContent).toContain('第一卷 招标文件（正文）'));
    expect(table.textContent).toContain('招标文件.pdf（2.0 MB）');
    expect(table.textContent).toContain('3 次');
    expect(table.textContent).toContain('关于工程量清单的澄清');
    expect(table.textContent).toContain('已发出');
    expect(s.calls.some((c) => c.url.includes(`/ks/xmrc/v1/bd-files?projectId=${ID}`))).toBe(true);
    // read-only: no section buttons, and the record is for viewing
    expect(screen.queryByTestId('section-add')).toBeNull();
    expect(screen.getByTestId('five-record-link').textContent).toBe('查看登记记录（审核流程）');
  });

  it('offers no changes to whoever is not of the project’s side', async () => {
    server(project({ canEdit: false }), () => ({ status: 500 }));
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    await screen.findByTestId('section-table', {}, { timeout: 30_000 });
    expect(screen.queryByTestId('section-add')).toBeNull();
    expect(screen.queryByTestId('section-edit-BD-01')).toBeNull();
  });

  it('puts a refused rule on the field it concerns and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const s = server(project(), () => ({
      status: 400,
      message: '招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日',
      data: { fieldErrors: { docSaleEnd: ['招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日'] } },
    }));
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    await user.click(await screen.findByTestId('section-edit-BD-01', {}, { timeout: 30_000 }));
    const dialog = await screen.findByTestId('section-dialog');
    expect(within(dialog).getByTestId('section-rules').textContent).toContain('招标文件发售期不少于 5 日');
    await waitFor(() =>
      expect((within(dialog).getByTestId('section-name') as HTMLInputElement).value).toBe('施工标段'),
    );
    await user.click(screen.getByTestId('section-save'));
    await waitFor(() => expect(s.callsTo('/ks/xmrc/v1/bd/save')).toHaveLength(1));
    const body = JSON.parse(String(s.callsTo('/ks/xmrc/v1/bd/save')[0]!.body));
    expect(body).toMatchObject({
      id: section().id,
      version: 1,
      code: 'BD-01',
      docSaleStart: '2099-03-01',
      docSaleEnd: '2099-03-07',
    });
    // on the sale period's field (the server's docSaleEnd is the form's one range picker), the dialog still open
    await waitFor(() =>
      expect(dialog.querySelector('.ant-form-item-has-error')?.textContent).toContain(
        '招标文件发售期不得少于 5 日（招标投标法实施条例第十六条），当前为 4 日',
      ),
    );
    expect(dialog.querySelector('.ant-form-item-has-error')?.textContent).toContain('招标文件发售期');
    expect(screen.getByTestId('section-save')).toBeTruthy();
  });
});

describe('/fiveInOne/detail 业绩要求', () => {
  it('sends the performance requirement in yuan (entered in 万元) and shows a refusal on its field', async () => {
    const user = userEvent.setup();
    const s = server(project(), () => ({
      status: 400,
      message: '单项合同金额超出范围',
      data: { fieldErrors: { perfMinAmount: ['单项合同金额超出范围'] } },
    }));
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], PATH);
    await user.click(await screen.findByTestId('section-edit-BD-01', {}, { timeout: 30_000 }));
    const dialog = await screen.findByTestId('section-dialog');
    await waitFor(() => expect((within(dialog).getByTestId('section-perf-years') as HTMLInputElement).value).toBe('3'));
    const years = within(dialog).getByTestId('section-perf-years');
    await user.clear(years);
    await user.type(years, '5');
    const amount = within(dialog).getByTestId('section-perf-amount');
    await user.clear(amount);
    await user.type(amount, '1234.56');
    const n = within(dialog).getByTestId('section-perf-count');
    await user.clear(n);
    await user.type(n, '2');
    await user.click(screen.getByTestId('section-save'));
    await waitFor(() => expect(s.callsTo('/ks/xmrc/v1/bd/save')).toHaveLength(1));
    const body = JSON.parse(String(s.callsTo('/ks/xmrc/v1/bd/save')[0]!.body));
    expect(body).toMatchObject({ perfCount: 2, perfMinAmount: 12_345_600, perfYears: 5 });
    await waitFor(() =>
      expect(dialog.querySelector('.ant-form-item-has-error')?.textContent).toContain('单项合同金额超出范围'),
    );
  });
});

describe('/fiveInOne/detail 专家抽取', () => {
  it('starts an extraction from a section: names, number and opening time filled in, the section sent along', async () => {
    const user = userEvent.setup();
    const created: unknown[] = [];
    server(project(), () => ({ status: 500 }), {
      'POST /ks/expert-extraction/v1/list': () => ({ data: { records: [], total: 0 } }),
      'GET /ks/expert-extraction/v1/options': () => ({
        data: {
          specialties: [
            { value: '房屋建筑工程', category: '技术', available: 40, total: 40 },
            { value: '工程造价', category: '经济', available: 30, total: 30 },
          ],
          regions: ['太原市'],
          recentDays: 30,
          poolSize: 70,
          experts: [],
        },
      }),
      'POST /ks/expert-extraction/v1/create': (req) => {
        created.push(JSON.parse(String(req.body)));
        return { status: 400, message: '测试：不保存' };
      },
    });
    signIn();
    renderRoutes([{ path: '/fiveInOne/detail', element: <FiveInOneDetailPage /> }], `${PATH}&tab=zjcq`);
    await user.click(await screen.findByTestId('expert-tab-create', {}, { timeout: 30_000 }));
    const dialog = await screen.findByTestId('extraction-dialog');
    expect(within(dialog).getByTestId('extraction-section-avoid').textContent).toContain('自动回避');
    await waitFor(() =>
      expect((within(dialog).getByTestId('extraction-project') as HTMLInputElement).value).toBe(
        '太原市晋源区第二实验小学教学综合楼建设工程',
      ),
    );
    expect((within(dialog).getByTestId('extraction-section') as HTMLInputElement).value).toBe('BD-01 施工标段');
    await user.click(screen.getByTestId('extraction-save'));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]).toMatchObject({
      sectionId: section().id,
      projectRef: 'SXGC-2026-1101 BD-01',
      sectionName: 'BD-01 施工标段',
      openingAt: '2099-03-25 09:30',
    });
  });
});
