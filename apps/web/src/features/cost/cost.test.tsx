import type { CostDetection, CostParseData, CostPublicity, CostResults, CostStatus, CostTreeRow } from '@ks/contracts';
import { COST_SETTINGS_DEFAULT } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { dispatchLive } from '../../lib/live';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const SECTION = uuid(1);
const [A, B, C] = [uuid(11), uuid(12), uuid(13)];
const [FA, FB, FC] = [uuid(21), uuid(22), uuid(23)];

const file = (id: string, enterpriseId: string, enterpriseName: string) => ({
  id,
  enterpriseId,
  enterpriseName,
  fileName: `${enterpriseName}-投标报价.xml`,
  size: 10_240,
  sha256: 'a'.repeat(64),
  bidPrice: 14_573_418.33,
  controlPrice: 15_739_291.8,
  lineCount: 38,
  uploadedAt: '2026-11-27T02:00:00.000Z',
  uploadedByName: '系统管理员',
});

const detection = (over: Partial<CostDetection> = {}): CostDetection => ({
  id: uuid(31),
  status: 'running',
  progress: 1,
  total: 4,
  attempts: 1,
  createdAt: '2026-11-28T02:00:00.000Z',
  startedAt: '2026-11-28T02:00:01.000Z',
  finishedAt: null,
  error: null,
  publishedAt: null,
  startedByName: '系统管理员',
  stale: false,
  ...over,
});

function status(over: Partial<CostStatus> = {}): CostStatus {
  return {
    section: {
      id: SECTION,
      code: 'BD-01',
      name: '施工标段',
      projectName: '晋中市榆次区第二人民医院门诊综合楼建设工程',
    },
    files: [file(FA, A, '示例建设工程有限公司'), file(FB, B, '山西四建集团有限公司')],
    bidders: [
      { enterpriseId: A, name: '示例建设工程有限公司', hasFile: true },
      { enterpriseId: B, name: '山西四建集团有限公司', hasFile: true },
      { enterpriseId: C, name: '山西建工集团有限公司', hasFile: false },
    ],
    detection: null,
    canManage: true,
    ...over,
  };
}

const results: CostResults = {
  settings: COST_SETTINGS_DEFAULT,
  medianBid: 14_573_418.33,
  bidders: [
    {
      fileId: FA,
      enterpriseId: A,
      enterpriseName: '示例建设工程有限公司',
      fileName: 'a.xml',
      bidPrice: 1,
      risk: 'medium',
      findings: [
        {
          check: 'safetyRate',
          risk: 'medium',
          text: '安全文明施工费低于费率：1 个单位工程',
          evidence: ['0101 学生公寓楼-建筑工程：安全文明施工费为分部分项工程费的 2.00%'],
          nodeIds: ['1.1.1'],
        },
      ],
    },
    {
      fileId: FB,
      enterpriseId: B,
      enterpriseName: '山西四建集团有限公司',
      fileName: 'b.xml',
      bidPrice: 1,
      risk: 'low',
      findings: [],
    },
  ],
  pairs: [{ a: FA, b: FB, score: 12.5, sameLines: 5, risk: 'low', findings: [] }],
};

describe('/fileAnalysis/index', () => {
  it('lists the sections, opens one, uploads a missing file, starts a detection with a confirmation and shows its progress and findings', async () => {
    let st = status();
    const started: unknown[] = [];
    const uploads: TransportRequest[] = [];
    setupShell({
      handlers: {
        'POST /ks/file/directories': () => ({
          data: {
            records: [
              {
                sectionId: SECTION,
                code: 'BD-01',
                name: '施工标段',
                projectName: '晋中市榆次区第二人民医院门诊综合楼建设工程',
                bidDeadline: '2026-11-28T02:00:00.000Z',
                files: st.files.length,
                detection: st.detection,
              },
            ],
            total: 1,
          },
        }),
        'POST /ks/file/status': () => ({ data: st }),
        'POST /ks/file/cost-upload': (req) => {
          uploads.push(req);
          st = status({
            files: [...st.files, file(FC, C, '山西建工集团有限公司')],
            bidders: st.bidders.map((b) => ({ ...b, hasFile: true })),
          });
          return { data: st };
        },
        'POST /ks/file/detection': (req) => {
          started.push(json(req));
          st = { ...st, detection: detection() };
          return { data: st };
        },
        'POST /ks/file/achievement': () => ({ data: { detection: st.detection!, results } }),
        'POST /ks/file/detection/score': () => ({
          data: {
            files: [
              { id: FA, enterpriseName: '示例建设工程有限公司' },
              { id: FB, enterpriseName: '山西四建集团有限公司' },
            ],
            score: [
              [100, 12.5],
              [12.5, 100],
            ],
          },
        }),
      },
    });
    renderRoutes(routes, '/fileAnalysis/index');
    await screen.findByTestId('cost-card', {}, SLOW);
    await userEvent.click(await screen.findByTestId(`cost-open-${SECTION}`, {}, SLOW));
    const files = await screen.findByTestId('cost-files', {}, SLOW);
    expect(within(files).getByText('未上传')).toBeTruthy();
    expect(screen.getByText('该标段尚未检测')).toBeTruthy();

    // the third bidder's file
    const input = screen.getByTestId(`cost-file-${C}`) as HTMLInputElement;
    await userEvent.upload(input, new File(['<工程造价文件/>'], '建工.xml', { type: 'text/xml' }));
    await waitFor(() => expect(uploads).toHaveLength(1));
    await screen.findByTestId(`cost-has-file-${C}`, {}, SLOW);

    await userEvent.click(screen.getByTestId('cost-start'));
    await userEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(started).toEqual([{ sectionId: SECTION }]));
    expect((await screen.findByTestId('cost-detection')).textContent).toContain('检测中');
    expect(screen.getByTestId('cost-progress')).toBeTruthy();
    expect(screen.getByText(/已读取 1 \/ 3 份造价文件/)).toBeTruthy();

    // the job ends: the page hears it and shows the findings
    st = { ...st, detection: detection({ status: 'done', progress: 4, finishedAt: '2026-11-28T02:04:00.000Z' }) };
    act(() => dispatchLive('cost', { sectionId: SECTION }));
    await screen.findByTestId('cost-results', {}, SLOW);
    expect(screen.getByTestId(`cost-risk-${A}`).textContent).toBe('中风险');
    expect(screen.getByTestId(`cost-findings-${A}`).textContent).toContain('安全文明施工费低于费率');
    expect(screen.getByTestId(`cost-risk-${B}`).textContent).toBe('低风险');
    expect((await screen.findByTestId('cost-score-0-1')).textContent).toBe('12.5%');
  });

  it('lets a developer read but neither upload nor start', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/file/directories': () => ({ data: { records: [], total: 0 } }),
        'POST /ks/file/status': () => ({ data: status({ canManage: false }) }),
      },
    });
    renderRoutes(routes, `/fileAnalysis/index?sectionId=${SECTION}`);
    await screen.findByTestId('cost-files', {}, SLOW);
    expect(screen.queryByTestId('cost-start')).toBeNull();
    expect(screen.queryByTestId(`cost-upload-${C}`)).toBeNull();
  });
});

const publicity = (over: Partial<CostPublicity> = {}): CostPublicity => ({
  section: status().section,
  detectionId: uuid(31),
  finishedAt: '2026-11-28T02:04:00.000Z',
  publishedAt: null,
  settings: COST_SETTINGS_DEFAULT,
  bidders: [
    { enterpriseName: '示例建设工程有限公司', risk: 'medium', checks: [{ check: 'safetyRate', count: 1 }] },
    { enterpriseName: '山西四建集团有限公司', risk: 'low', checks: [] },
  ],
  pairs: [],
  own: null,
  canManage: true,
  ...over,
});

describe('公示', () => {
  it('previews the summary, publishes it with the bidders told, and withdraws it after a confirmation', async () => {
    let st = status({ detection: detection({ status: 'done', progress: 4, finishedAt: '2026-11-28T02:04:00.000Z' }) });
    const acts: unknown[] = [];
    setupShell({
      handlers: {
        'POST /ks/file/directories': () => ({ data: { records: [], total: 0 } }),
        'POST /ks/file/status': () => ({ data: st }),
        'POST /ks/file/achievement': () => ({ data: { detection: st.detection!, results } }),
        'POST /ks/file/detection/score': () => ({ data: { files: [], score: [] } }),
        'POST /ks/file/publicity/summary': () => ({ data: publicity() }),
        'POST /ks/file/publicity': (req) => {
          const body = json(req) as { publish: boolean };
          acts.push(body);
          const at = body.publish ? '2026-11-28T03:00:00.000Z' : null;
          st = { ...st, detection: { ...st.detection!, publishedAt: at } };
          return { data: publicity({ publishedAt: at }) };
        },
      },
    });
    renderRoutes(routes, `/fileAnalysis/index?sectionId=${SECTION}`);
    await userEvent.click(await screen.findByTestId('cost-publish', {}, SLOW));
    const preview = await screen.findByTestId('cost-publicity', {}, SLOW);
    expect(within(preview).getByTestId('cost-publicity-bidders').textContent).toContain('安全文明施工费低于费率');
    expect(preview.textContent).toContain('未公示');
    expect(preview.textContent).toContain('投标人之间未发现雷同或相同的编制信息');
    await userEvent.click(screen.getByTestId('cost-publish-ok'));
    await waitFor(() => expect(acts).toEqual([{ sectionId: SECTION, publish: true }]));
    expect((await screen.findByTestId('cost-published', {}, SLOW)).textContent).toBe('已公示');

    await userEvent.click(screen.getByTestId('cost-withdraw'));
    await userEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(acts).toHaveLength(2));
    expect(acts[1]).toEqual({ sectionId: SECTION, publish: false });
    await screen.findByTestId('cost-publish', {}, SLOW);
  });

  it('does not publish results older than the files', async () => {
    setupShell({
      handlers: {
        'POST /ks/file/directories': () => ({ data: { records: [], total: 0 } }),
        'POST /ks/file/status': () => ({
          data: status({ detection: detection({ status: 'done', progress: 4, stale: true }) }),
        }),
        'POST /ks/file/achievement': () => ({ data: { detection: detection({ status: 'done' }), results } }),
        'POST /ks/file/detection/score': () => ({ data: { files: [], score: [] } }),
        'POST /ks/file/publicity/summary': () => ({ data: publicity() }),
      },
    });
    renderRoutes(routes, `/fileAnalysis/index?sectionId=${SECTION}`);
    await userEvent.click(await screen.findByTestId('cost-publish', {}, SLOW));
    await screen.findByTestId('cost-publicity', {}, SLOW);
    expect(screen.getByText('造价文件在检测后已更换，请重新检测后再公示')).toBeTruthy();
    expect((screen.getByTestId('cost-publish-ok') as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows a bidder the published summary with its own findings, and says when nothing is published', async () => {
    let published = true;
    setupShell({
      roleType: 'U',
      handlers: {
        'POST /ks/file/publicity/summary': () =>
          published
            ? {
                data: publicity({
                  publishedAt: '2026-11-28T03:00:00.000Z',
                  canManage: false,
                  pairs: [
                    {
                      a: '山西四建集团有限公司',
                      b: '山西建工集团有限公司',
                      score: 100,
                      risk: 'high',
                      checks: ['identicalFile'],
                    },
                  ],
                  own: {
                    enterpriseName: '示例建设工程有限公司',
                    risk: 'medium',
                    findings: results.bidders[0]!.findings,
                  },
                }),
              }
            : { status: 404, code: 404, message: '该标段的检测结果尚未公示', data: null },
      },
    });
    const view = renderRoutes(routes, `/fileAnalysis/publicity?sectionId=${SECTION}`);
    const own = await screen.findByTestId('cost-publicity-own', {}, SLOW);
    expect(own.textContent).toContain('安全文明施工费低于费率');
    expect(own.textContent).toContain('证据（1）');
    expect(screen.getByTestId('cost-publicity-pairs').textContent).toContain('造价文件完全相同');
    expect(screen.getByTestId('cost-publicity-published')).toBeTruthy();
    expect(screen.queryByText('返回文件分析')).toBeNull();
    view.unmount();
    published = false;
    renderRoutes(routes, `/fileAnalysis/publicity?sectionId=${uuid(2)}`);
    expect((await screen.findByTestId('cost-publicity-none', {}, SLOW)).textContent).toContain('尚未公示');
  });
});

const row = (id: string, level: CostTreeRow['level'], name: string, children?: CostTreeRow[]): CostTreeRow => ({
  id,
  level,
  code: id,
  name,
  zy: level === 'unit' ? '建筑工程' : '',
  zzj: 1000,
  fbfxf: 800,
  csxmf: 60,
  aqwmsgf: 16,
  qtxmf: 40,
  gf: 20,
  sj: 80,
  zzsxxse: 80,
  stated: [],
  line: 4,
  lineCount: 0,
  ...(children ? { children } : {}),
});

describe('/fileAnalysis/deatil', () => {
  it('shows the cost tree expanded, collapses and expands it, and lists the file’s findings', async () => {
    const data: CostParseData = {
      file: file(FA, A, '示例建设工程有限公司'),
      sectionId: SECTION,
      standard: 'GB/T 50500-2013',
      meta: {
        software: '广联达云计价平台 GCCP6.0',
        softwareVersion: '6.4',
        serial: 'GLD-1',
        machineCode: 'MC-1',
        createdAt: '2026-11-20T09:30:00+08:00',
        modifiedAt: '',
        author: '',
      },
      tree: [
        row('1', 'project', '学生公寓楼建设工程', [
          row('1.1', 'single', '学生公寓楼', [row('1.1.1', 'unit', '学生公寓楼-建筑工程')]),
        ]),
      ],
    };
    setupShell({
      handlers: {
        'POST /ks/file/parse-data': () => ({ data }),
        'POST /ks/file/achievement': () => ({ data: { detection: detection({ status: 'done' }), results } }),
      },
    });
    renderRoutes(routes, `/fileAnalysis/deatil?id=${FA}&sectionId=${SECTION}`);
    const tree = await screen.findByTestId('cost-tree', {}, SLOW);
    await within(tree).findByText('学生公寓楼-建筑工程', {}, SLOW);
    expect(within(tree).getAllByText('1,000.00').length).toBeGreaterThan(0);
    expect((await screen.findByTestId('cost-tree-findings')).textContent).toContain('安全文明施工费低于费率');
    await userEvent.click(screen.getByTestId('cost-tree-collapse'));
    await waitFor(() => expect(within(tree).queryByText('学生公寓楼-建筑工程')).toBeNull());
    await userEvent.click(screen.getByTestId('cost-tree-expand'));
    await within(tree).findByText('学生公寓楼-建筑工程');
  });
});

describe('检测参数', () => {
  const defaults = COST_SETTINGS_DEFAULT;
  it('shows the rates in percent and saves them as shares', async () => {
    const saved: unknown[] = [];
    setupShell({
      handlers: {
        'POST /ks/file/directories': () => ({ data: { records: [], total: 0 } }),
        'GET /ks/file/detection/settings': () => ({ data: { settings: defaults, defaults } }),
        'POST /ks/file/detection/settings': (req) => {
          saved.push(json(req));
          return { data: json(req) };
        },
      },
    });
    renderRoutes(routes, '/fileAnalysis/index');
    await userEvent.click(await screen.findByTestId('cost-settings', {}, SLOW));
    const rate = (await screen.findByTestId('cost-setting-safetyRateMin', {}, SLOW)) as HTMLInputElement;
    expect(rate.value).toBe('3.0');
    await userEvent.clear(rate);
    await userEvent.type(rate, '4');
    await userEvent.click(screen.getByTestId('cost-settings-save'));
    await waitFor(() => expect(saved).toEqual([{ ...defaults, safetyRateMin: 0.04 }]));
  });

  it('is read-only for a developer', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/file/directories': () => ({ data: { records: [], total: 0 } }),
        'GET /ks/file/detection/settings': () => ({ data: { settings: defaults, defaults } }),
      },
    });
    renderRoutes(routes, '/fileAnalysis/index');
    await userEvent.click(await screen.findByTestId('cost-settings', {}, SLOW));
    const rate = (await screen.findByTestId('cost-setting-safetyRateMin', {}, SLOW)) as HTMLInputElement;
    expect(rate.disabled).toBe(true);
    expect(screen.queryByTestId('cost-settings-save')).toBeNull();
  });
});
