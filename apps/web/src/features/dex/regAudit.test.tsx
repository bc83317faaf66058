import type { DexRegDetail, DexRegRow, DexSyncJob } from '@ks/contracts';
import { DEX_MSG } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
});

const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const PATH = '/dexRecords/regAuditLogs';

const reg = (n: number, over: Partial<DexRegRow> = {}): DexRegRow => ({
  id: uuid(n),
  upstreamId: `SXSCJG-140105-2009-00034${n}`,
  name: '山西晋阳路桥建设有限公司',
  creditCode: '91140105MA0GRJ7K2A',
  legalPerson: '王建斌',
  registeredCapital: '120000000.00',
  region: '太原市',
  address: '太原市小店区龙城大街 88 号',
  establishedAt: '2009-04-16',
  entType: '施工企业',
  regType: '设立登记',
  regStatus: '存续',
  upstreamUpdatedAt: '2026-11-28T02:00:00.000Z',
  state: 'pending',
  change: 'new',
  reason: null,
  enterpriseId: null,
  version: 1,
  pulledAt: '2026-11-28T03:00:00.000Z',
  decidedAt: null,
  decidedBy: null,
  canDecide: true,
  ...over,
});

const job = (over: Partial<DexSyncJob> = {}): DexSyncJob => ({
  id: uuid(90),
  status: 'done',
  full: true,
  phase: null,
  pages: 3,
  fetched: 14,
  total: 14,
  counts: { new: 12, changed: 0, unchanged: 0, rejected: 2 },
  error: null,
  since: null,
  startedByName: '平台管理员',
  createdAt: '2026-11-28T03:00:00.000Z',
  startedAt: '2026-11-28T03:00:01.000Z',
  finishedAt: '2026-11-28T03:00:04.000Z',
  ...over,
});

const fresh = reg(1);
const invalid = reg(2, {
  upstreamId: 'SXSCJG-140321-2016-000530',
  name: '阳泉市平定县宏达建筑工程有限公司',
  state: 'invalid',
  change: 'rejected',
  reason: '统一社会信用代码校验位有误（91140321MA0RT2Y8DE）',
  canDecide: false,
});
const changed = reg(3, {
  upstreamId: 'SXSCJG-140602-2008-000217',
  name: '朔州市朔城区安泰电力工程有限公司',
  change: 'changed',
  legalPerson: '白晓燕',
  version: 2,
});

const detailOf = (r: DexRegRow): DexRegDetail => ({
  registration: r,
  diff:
    r.change === 'changed'
      ? [
          { field: 'legalPerson', before: '白俊峰', after: '白晓燕' },
          { field: 'registeredCapital', before: '40000000.00', after: '60000000.00' },
        ]
      : [],
  local: r.change === 'changed' ? { id: uuid(70), name: r.name, creditCode: r.creditCode } : null,
  localDiff: [{ field: 'legalPerson', before: r.change === 'changed' ? '白俊峰' : null, after: r.legalPerson }],
  history: [
    {
      id: uuid(80),
      action: r.change === 'changed' ? 'changed' : 'new',
      diff: [],
      reason: null,
      actorName: '同步任务',
      jobId: uuid(90),
      at: '2026-11-28T03:00:04.000Z',
    },
  ],
  raw: { id: r.upstreamId, name: r.name },
});

describe('/dexRecords/regAuditLogs', () => {
  it('syncs with progress, then reads the list again; the refused one shows its reason', async () => {
    let jobNow: DexSyncJob = job();
    let jobReads = 0;
    const lists: unknown[] = [];
    const starts: unknown[] = [];
    setupShell({
      handlers: {
        'POST /ks/sync/v1/sync/data-list': (req) => {
          lists.push(json(req));
          return { data: { records: [fresh, invalid, changed], total: 3, configured: true } };
        },
        'POST /ks/sync/v1/sync/job': () => {
          jobReads += 1;
          // the started sync: running on its first read after the start, done on the next
          if (jobNow.status === 'queued')
            jobNow = job({ status: 'running', phase: 'fetching', pages: 1, fetched: 5, total: 14, finishedAt: null });
          else if (jobNow.status === 'running' && jobReads > 3)
            jobNow = job({ full: false, counts: { new: 0, changed: 1, unchanged: 1, rejected: 0 }, fetched: 2 });
          return { data: { configured: true, job: jobNow } };
        },
        'POST /ks/sync/v1/sync/data-sync': (req) => {
          starts.push(json(req));
          jobNow = job({
            status: 'queued',
            full: false,
            finishedAt: null,
            startedAt: null,
            pages: 0,
            fetched: 0,
            total: null,
          });
          jobReads = 0;
          return { data: jobNow, message: DEX_MSG.syncStarted };
        },
      },
    });
    renderRoutes(routes, PATH);
    const state = await screen.findByTestId(`reg-state-${invalid.upstreamId}`, {}, SLOW);
    expect(state.textContent).toBe('校验未通过');
    expect(screen.getByTestId(`reg-reason-${invalid.upstreamId}`).textContent).toContain('统一社会信用代码校验位有误');
    expect(screen.getByTestId(`reg-change-${changed.upstreamId}`).textContent).toBe('变更');
    expect(screen.queryByTestId(`reg-approve-${invalid.upstreamId}`)).toBeNull();
    expect(screen.getByTestId('reg-sync-counts').textContent).toContain('新增 12');
    expect(lists[0]).toMatchObject({ pageNum: 1, pageSize: 10 });

    const user = userEvent.setup();
    const button = screen.getByTestId('reg-sync');
    await user.click(button);
    await waitFor(() => expect(starts).toEqual([{ full: false }]));
    // while it runs: the progress, and neither button can start another
    const progress = await screen.findByTestId('reg-sync-progress', {}, SLOW);
    await waitFor(() => expect(progress.textContent).toContain('已拉取 5 / 14 条'), SLOW);
    expect(screen.getByTestId('reg-sync').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('reg-sync-full').hasAttribute('disabled')).toBe(true);
    // done: the counts, the list read again, the buttons back
    await waitFor(() => expect(screen.getByTestId('reg-sync-counts').textContent).toContain('变更 1'), SLOW);
    expect(screen.queryByTestId('reg-sync-progress')).toBeNull();
    await waitFor(() => expect(lists.length).toBeGreaterThan(1));
    expect(screen.getByTestId('reg-sync').hasAttribute('disabled')).toBe(false);
  });

  it('shows the diff of a changed registration and passes it after 确认通过？', async () => {
    const approves: unknown[] = [];
    let row = changed;
    setupShell({
      handlers: {
        'POST /ks/sync/v1/sync/data-list': () => ({ data: { records: [row], total: 1, configured: true } }),
        'POST /ks/sync/v1/sync/job': () => ({ data: { configured: true, job: job() } }),
        'POST /ks/sync/v1/sync/detail': () => ({ data: detailOf(row) }),
        'POST /ks/sync/v1/sync/approve': (req) => {
          approves.push(json(req));
          row = { ...row, state: 'approved', canDecide: false, version: 3, decidedBy: '平台管理员' };
          return { data: row, message: DEX_MSG.approved };
        },
      },
    });
    renderRoutes(routes, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`reg-open-${changed.upstreamId}`, {}, SLOW));
    const diff = await screen.findByTestId('reg-diff', {}, SLOW);
    expect(within(diff).getByText('法定代表人')).toBeTruthy();
    expect(within(diff).getByText('白俊峰')).toBeTruthy();
    expect(within(diff).getByText('白晓燕')).toBeTruthy();
    expect(within(diff).getByText('60,000,000.00 元')).toBeTruthy();
    expect(screen.getByTestId('reg-local-diff')).toBeTruthy();
    expect(screen.getByTestId('reg-history').textContent).toContain('同步变更');
    await user.click(screen.getByTestId('reg-drawer-approve'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(approves).toEqual([{ id: changed.id, version: 2 }]));
    await waitFor(() => expect(screen.getByTestId(`reg-state-${changed.upstreamId}`).textContent).toBe('已通过'));
    await waitFor(() => expect(screen.getByTestId('reg-detail-state').textContent).toBe('已通过'));
    expect(screen.queryByTestId(`reg-approve-${changed.upstreamId}`)).toBeNull();
    expect(screen.queryByTestId('reg-drawer-approve')).toBeNull();
  });

  it('驳回 asks for a reason and sends it', async () => {
    const rejects: unknown[] = [];
    let row = fresh;
    setupShell({
      handlers: {
        'POST /ks/sync/v1/sync/data-list': () => ({ data: { records: [row], total: 1, configured: true } }),
        'POST /ks/sync/v1/sync/job': () => ({ data: { configured: true, job: job() } }),
        'POST /ks/sync/v1/sync/reject': (req) => {
          rejects.push(json(req));
          row = { ...row, state: 'dismissed', reason: json(req).reason, canDecide: false, version: 2 };
          return { data: row, message: DEX_MSG.dismissed };
        },
      },
    });
    renderRoutes(routes, PATH);
    const user = userEvent.setup();
    await user.click(await screen.findByTestId(`reg-reject-${fresh.upstreamId}`, {}, SLOW));
    const dialog = await screen.findByTestId('reg-reject-dialog');
    await user.click(screen.getByTestId('reg-reject-ok'));
    expect(await within(dialog).findByText(DEX_MSG.reasonRequired)).toBeTruthy();
    expect(rejects).toEqual([]);
    await user.type(screen.getByTestId('reg-reject-reason'), '与本平台已登记企业重复');
    await user.click(screen.getByTestId('reg-reject-ok'));
    await waitFor(() => expect(rejects).toEqual([{ id: fresh.id, version: 1, reason: '与本平台已登记企业重复' }]));
    await waitFor(() => expect(screen.getByTestId(`reg-state-${fresh.upstreamId}`).textContent).toBe('已驳回'));
  });

  it('says plainly that no upstream is configured; a developer gets no buttons', async () => {
    setupShell({
      handlers: {
        'POST /ks/sync/v1/sync/data-list': () => ({ data: { records: [], total: 0, configured: false } }),
        'POST /ks/sync/v1/sync/job': () => ({ data: { configured: false, job: null } }),
      },
    });
    renderRoutes(routes, PATH);
    const alert = await screen.findByTestId('reg-unconfigured', {}, SLOW);
    expect(alert.textContent).toContain('未配置上游平台');
    expect(screen.getByTestId('reg-sync').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('reg-table').textContent).toContain('暂无同步的企业登记（未配置上游平台）');
    expect(screen.getByText('尚未同步过企业登记')).toBeTruthy();
  });

  it('a developer reads but may not sync or decide', async () => {
    setupShell({
      roleType: 'D',
      handlers: {
        'POST /ks/sync/v1/sync/data-list': () => ({
          data: { records: [{ ...fresh, canDecide: false }], total: 1, configured: true },
        }),
        'POST /ks/sync/v1/sync/job': () => ({ data: { configured: true, job: job() } }),
      },
    });
    renderRoutes(routes, PATH);
    await screen.findByTestId(`reg-state-${fresh.upstreamId}`, {}, SLOW);
    expect(screen.queryByTestId('reg-sync')).toBeNull();
    expect(screen.queryByTestId(`reg-approve-${fresh.upstreamId}`)).toBeNull();
    expect(screen.queryByTestId(`reg-reject-${fresh.upstreamId}`)).toBeNull();
  });

  it('a failed load shows the failure instead of an empty table', async () => {
    setupShell({
      handlers: {
        'POST /ks/sync/v1/sync/data-list': () => ({ status: 500, code: 500, message: '服务器内部错误' }),
        'POST /ks/sync/v1/sync/job': () => ({ data: { configured: true, job: null } }),
      },
    });
    renderRoutes(routes, PATH);
    const err = await screen.findByTestId('load-error', {}, SLOW);
    expect(err.textContent).toContain('同步的企业登记加载失败');
  });
});
