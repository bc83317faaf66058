import type { MonitorRow, MonitorView } from '@ks/contracts';
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

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const SECTION_ID = uuid(1);
const SUPERVISOR = { id: uuid(9), userName: '李振华' };

function row(over: Partial<MonitorRow> = {}): MonitorRow {
  return {
    sectionId: SECTION_ID,
    code: 'BD-01',
    name: '施工标段',
    projectNo: 'SXGC-2026-1006',
    projectName: '晋中市榆次区第二人民医院门诊综合楼建设工程',
    bidDeadline: '2026-11-28T02:53:00.000Z',
    stage: 'evaluating',
    openingStatus: 'closed',
    evaluationStatus: 'scoring',
    bids: 3,
    anomalies: 1,
    pendingAnomalies: 1,
    findings: 0,
    supervisor: SUPERVISOR,
    lastEventAt: '2026-11-28T03:20:00.000Z',
    ...over,
  };
}

function view(over: Partial<MonitorView> = {}): MonitorView {
  return {
    row: row(),
    anomalies: [
      {
        key: 'recused:m5',
        kind: 'recused',
        at: '2026-11-28T03:10:00.000Z',
        text: '王建平 申请回避：本人近三年曾在投标人处任职',
        finding: null,
      },
    ],
    findings: [],
    assignments: [
      {
        supervisor: SUPERVISOR,
        assignedByName: '系统管理员',
        assignedAt: '2026-11-28T03:00:00.000Z',
        revokedAt: null,
        revokedByName: null,
        revokeReason: null,
      },
    ],
    candidates: [SUPERVISOR],
    actions: { assign: true, revoke: true, audit: true, publish: [] },
    ...over,
  };
}

describe('/bid/monitor', () => {
  it('lists the sections with stage, anomalies pending audit and supervisor, filters on the server, and re-reads live', async () => {
    const bodies: Record<string, unknown>[] = [];
    let rows = [
      row(),
      row({ sectionId: uuid(2), projectNo: 'SXGC-2026-1005', stage: 'opening', supervisor: null, anomalies: 0 }),
    ];
    setupShell({
      roleType: 'U',
      handlers: {
        'POST /ks/monitor/table-list': (req) => {
          bodies.push(json(req));
          return { data: { records: rows, total: rows.length } };
        },
      },
    });
    renderRoutes(routes, '/bid/monitor');
    const table = await screen.findByTestId('monitor-table', {}, SLOW);
    await within(table).findByText('SXGC-2026-1006', {}, SLOW);
    expect(screen.getByTestId(`monitor-stage-${SECTION_ID}`).textContent).toBe('评标评审打分中');
    expect(screen.getByTestId(`monitor-anomalies-${SECTION_ID}`).textContent).toContain('待核查 1');
    expect(screen.getByTestId(`monitor-supervisor-${SECTION_ID}`).textContent).toBe('李振华');
    expect(screen.getByTestId(`monitor-supervisor-${uuid(2)}`).textContent).toBe('未指派');
    expect(screen.getByText('共 2 个标段')).toBeTruthy();

    await userEvent.click(screen.getByTestId('monitor-pending'));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ pending: true, pageNum: 1 }));
    await userEvent.click(screen.getByTestId('monitor-mine'));
    await waitFor(() => expect(bodies.at(-1)).toMatchObject({ pending: true, mine: true }));

    // another supervisor's finding elsewhere: the list re-reads
    rows = [row({ pendingAnomalies: 0, findings: 1 })];
    const before = bodies.length;
    act(() => dispatchLive('monitor', { sectionId: SECTION_ID }));
    await waitFor(() => expect(bodies.length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByTestId(`monitor-anomalies-${SECTION_ID}`).textContent).toContain('已核查'));
  }, 60_000);

  it('audits an anomaly in the drawer: the verdict and opinion go to the server, the finding shows', async () => {
    let current = view();
    const audits: Record<string, unknown>[] = [];
    const publishes: Record<string, unknown>[] = [];
    setupShell({
      roleType: 'U',
      handlers: {
        'POST /ks/monitor/table-list': () => ({ data: { records: [current.row], total: 1 } }),
        'POST /ks/monitor/get-view-list': () => ({ data: current }),
        'GET /ks/trade/overview-status': () => ({
          data: {
            sectionId: SECTION_ID,
            current: 'evaluation',
            stages: [
              {
                key: 'notice',
                title: '招标公告',
                status: 'finish',
                at: '2026-10-29T02:00:00.000Z',
                detail: '2026-10-29 发布',
              },
              {
                key: 'bids',
                title: '投标文件递交',
                status: 'finish',
                at: null,
                detail: '报名 3 家，递交投标文件 3 份',
              },
              { key: 'opening', title: '开标', status: 'finish', at: null, detail: '3 份投标文件解密并唱标，开标结束' },
              { key: 'evaluation', title: '评标', status: 'process', at: null, detail: '评标评审打分中' },
              {
                key: 'publicity',
                title: '中标候选人公示',
                status: 'wait',
                at: null,
                detail: '评标结束后公示中标候选人',
              },
              { key: 'award', title: '定标', status: 'wait', at: null, detail: '公示期满后确定中标人' },
            ],
          },
        }),
        'POST /ks/monitor/publish': (req) => {
          publishes.push(json(req));
          const a = current.anomalies[0]!;
          current = view({
            ...current,
            actions: { ...current.actions, publish: [] },
            anomalies: [
              {
                ...a,
                finding: { ...a.finding!, publishedAt: '2026-11-28T03:35:00.000Z', publishedByName: '李振华' },
              },
            ],
          });
          return { data: current };
        },
        'POST /ks/monitor/audit': (req) => {
          const body = json(req);
          audits.push(body);
          if (String(body.opinion).length < 4) return { status: 400, code: 400, message: '核查意见至少 4 个字' };
          current = view({
            actions: { assign: true, revoke: true, audit: true, publish: [uuid(50)] },
            row: row({ pendingAnomalies: 0, findings: 1 }),
            anomalies: [
              {
                ...current.anomalies[0]!,
                finding: {
                  id: uuid(50),
                  anomalyKey: 'recused:m5',
                  anomalyText: current.anomalies[0]!.text,
                  verdict: body.verdict,
                  opinion: body.opinion,
                  byName: '李振华',
                  at: '2026-11-28T03:30:00.000Z',
                  publishedAt: null,
                  publishedByName: null,
                },
              },
            ],
          });
          return { data: current };
        },
      },
    });
    renderRoutes(routes, `/bid/monitor?sectionId=${SECTION_ID}`);
    const drawer = await screen.findByTestId('monitor-drawer', {}, SLOW);
    await within(drawer).findByText(/王建平 申请回避/, {}, SLOW);
    expect(within(drawer).getByTestId('monitor-current').textContent).toBe('李振华');
    // where the section stands: the trade's stages
    expect((await within(drawer).findByTestId('trade-stage-evaluation')).textContent).toBe('评标评审打分中');
    expect(within(drawer).getByTestId('trade-stage-opening').textContent).toContain('开标结束');
    await userEvent.click(within(drawer).getByTestId('monitor-audit'));
    // the opinion is required
    await userEvent.click(await screen.findByTestId('monitor-audit-ok'));
    expect(await screen.findByText('请填写核查意见')).toBeTruthy();
    expect(audits).toHaveLength(0);
    await userEvent.click(screen.getByLabelText('责令整改'));
    await userEvent.type(screen.getByTestId('monitor-opinion'), '回避申请未附书面说明，请补充');
    await userEvent.click(screen.getByTestId('monitor-audit-ok'));
    await waitFor(() => expect(audits).toHaveLength(1));
    expect(audits[0]).toEqual({
      sectionId: SECTION_ID,
      anomalyKey: 'recused:m5',
      verdict: 'rectify',
      opinion: '回避申请未附书面说明，请补充',
    });
    const finding = await within(drawer).findByTestId('monitor-finding');
    expect(finding.textContent).toContain('责令整改');
    expect(finding.textContent).toContain('回避申请未附书面说明');
    expect(within(drawer).queryByTestId('monitor-audit')).toBeNull();
    // internal until published: 发布 asks first, then the finding shows 已发布
    await userEvent.click(within(drawer).getByTestId('monitor-publish'));
    await waitFor(() => expect(screen.getAllByRole('button', { name: '发布' }).length).toBeGreaterThan(1));
    await userEvent.click(screen.getAllByRole('button', { name: '发布' }).find((b) => !b.dataset.testid)!);
    await waitFor(() => expect(publishes).toEqual([{ sectionId: SECTION_ID, id: uuid(50) }]));
    expect(await within(drawer).findByTestId('monitor-finding-published')).toBeTruthy();
    expect(within(drawer).queryByTestId('monitor-publish')).toBeNull();
  }, 60_000);

  it('revokes the assignment with a reason, and offers no audit to a supervisor not in charge', async () => {
    let current = view();
    const revokes: Record<string, unknown>[] = [];
    setupShell({
      roleType: 'U',
      handlers: {
        'POST /ks/monitor/table-list': () => ({ data: { records: [current.row], total: 1 } }),
        'POST /ks/monitor/get-view-list': () => ({ data: current }),
        'POST /ks/monitor/revoke': (req) => {
          revokes.push(json(req));
          current = view({
            row: row({ supervisor: null }),
            assignments: [
              {
                ...current.assignments[0]!,
                revokedAt: '2026-11-28T03:40:00.000Z',
                revokedByName: '李振华',
                revokeReason: '工作调整，另行指派',
              },
            ],
            actions: { assign: true, revoke: false, audit: false, publish: [] },
          });
          return { data: current };
        },
      },
    });
    renderRoutes(routes, `/bid/monitor?sectionId=${SECTION_ID}`);
    const drawer = await screen.findByTestId('monitor-drawer', {}, SLOW);
    await userEvent.click(await within(drawer).findByTestId('monitor-revoke', {}, SLOW));
    await userEvent.type(await screen.findByTestId('monitor-revoke-reason'), '工作调整，另行指派');
    await userEvent.click(screen.getByTestId('monitor-revoke-ok'));
    await waitFor(() => expect(revokes).toEqual([{ sectionId: SECTION_ID, reason: '工作调整，另行指派' }]));
    await waitFor(() => expect(within(drawer).getByTestId('monitor-current').textContent).toBe('未指派'));
    expect(within(drawer).queryByTestId('monitor-audit')).toBeNull();
    expect(within(drawer).getByText('该标段尚未指派监督人员：指派后由负责人记录核查意见')).toBeTruthy();
    expect(within(drawer).getByTestId('monitor-assignments').textContent).toContain('撤回：工作调整，另行指派');
  }, 60_000);
});
