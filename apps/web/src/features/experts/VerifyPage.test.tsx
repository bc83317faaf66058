import {
  type DrawConditions,
  type ExtractionVerify,
  type PoolExpert,
  runDraw,
  seedCommitment,
  snapshotHash,
  sortPool,
  toHex,
} from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { browser } from '../../lib/browser';
import { renderRoutes } from '../../test/render';
import { createFakeServer, platformInfo } from '../../test/server';

/** The public verification page re-runs the draw in the browser and compares it with the recorded list. */

const ID = '0d5c7f38-8e8e-4c57-9a0b-5f1d3a0e0a01';
const seed = toHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));

function published(tamper = false): ExtractionVerify {
  const experts: PoolExpert[] = Array.from({ length: 40 }, (_, i) => ({
    id: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`,
    specialty: i % 2 ? '工程造价' : '房屋建筑工程',
    region: '太原市',
    employer: i % 5 === 0 ? '示例建设工程有限公司' : `单位${i}`,
    available: true,
    lastDrawnAt: null,
  }));
  const snapshot = { takenAt: '2026-11-27T01:00:00.000Z', experts: sortPool(experts) };
  const conditions: DrawConditions & ExtractionVerify['conditions'] & object = {
    tendereeReps: 1,
    lines: [
      { specialty: '房屋建筑工程', count: 4 },
      { specialty: '工程造价', count: 2 },
    ],
    regions: [],
    avoidEmployers: ['示例建设工程有限公司'],
    avoidExpertIds: [],
    recentDays: 30,
  };
  const members = runDraw(seed, snapshot, conditions).flatMap((l, line) =>
    l.ids.map((expertId, seq) => ({
      line,
      seq,
      expertId,
      name: `专家${line}${seq}`,
      specialty: l.specialty,
      answer: '确认参加',
    })),
  );
  if (tamper) members[1] = { ...members[1]!, expertId: experts[0]!.id };
  return {
    id: ID,
    code: 'CQ20261127-0001',
    projectName: '太原市滨河东路综合管廊工程',
    sectionName: '第一标段',
    status: 'confirmed',
    statusLabel: '已确认',
    evaluationStartAt: '2026-11-28 09:30',
    seedHash: seedCommitment(seed),
    committedAt: '2026-11-27 09:00',
    poolHash: snapshotHash(snapshot),
    seed,
    hiddenReason: null,
    snapshot,
    conditions,
    members,
    outcome: { seedMatches: true, poolMatches: true, listMatches: !tamper, problems: [] },
  };
}

function setup(answer: ExtractionVerify) {
  vi.spyOn(browser, 'pathname').mockReturnValue('/expertExtraction/verify');
  const server = createFakeServer({
    'GET /ks/portal/v1/home/platform': () => ({ data: platformInfo }),
    'GET /ks/expert-extraction/v1/verify': () => ({ data: answer }),
  });
  configureRequest({ transport: server.transport });
  renderRoutes(routes, `/expertExtraction/verify?id=${ID}`, { antd: false });
  return server;
}

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

describe('抽取验证', () => {
  it('re-runs the draw from the revealed seed and finds the recorded list, row by row', async () => {
    setup(published());
    const result = await screen.findByTestId('verify-result', {}, { timeout: 10_000 });
    expect(result.textContent).toContain('验证通过');
    expect(screen.getByTestId('verify-seed-ok').textContent).toContain('种子与承诺一致');
    expect(screen.getByTestId('verify-list-ok').textContent).toContain('名单一致');
    const rows = within(screen.getByTestId('verify-table')).getAllByText('一致');
    expect(rows).toHaveLength(6);
  });

  it('says so when the recorded list is not what the seed gives', async () => {
    setup(published(true));
    const result = await screen.findByTestId('verify-result', {}, { timeout: 10_000 });
    expect(result.textContent).toContain('验证未通过');
    expect(screen.getByTestId('verify-list-ok').textContent).toContain('名单不一致');
    expect(within(screen.getByTestId('verify-table')).getAllByText('不一致')).toHaveLength(1);
  });

  it('shows the commitment and why the seed is not public yet', async () => {
    setup({
      ...published(),
      seed: null,
      snapshot: null,
      conditions: null,
      members: [],
      outcome: null,
      hiddenReason: '抽取种子将在名单确认且评标开始（2026-11-28 09:30）后公开',
    });
    await waitFor(() => expect(screen.getByTestId('verify-hidden').textContent).toContain('评标开始'));
    expect(screen.getByTestId('verify-seed-hash').textContent).toBe(seedCommitment(seed));
    expect(screen.queryByTestId('verify-result')).toBeNull();
  });
});
