import {
  EVAL_MSG,
  type EvalBidderOutcome,
  type EvalObjection,
  type EvalOutcome,
  type EvalRoom,
  type EvalSection,
  type OpeningHall,
} from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { dispatchLive } from '../../lib/live';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { setupShell } from '../shell/testData';

/**
 * What follows the evaluation (issue 17): the host's step 中标候选人公示与定标 (publish, answer objections, award,
 * 中标通知书), the overview's 已公示 / 已定标, and the bidders' 评标结果 card in the opening hall.
 */

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };
const T = 60_000;
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const SECTION_ID = uuid(1);
const ROOM = '/ks/trade/review/result';
const OUTCOME = '/ks/trade/review/outcome';
const HALL = '/ks/trade/opening/v1/hall';
const PUBLISH = '/ks/trade/review/publish';
const ANSWER = '/ks/trade/review/objection-answer';
const AWARD = '/ks/trade/review/award';
const OBJECT = '/ks/trade/review/objection';
const NOTICE = '/ks/trade/review/award-notice';
const SECTION = { id: SECTION_ID, code: 'BD-01', name: '施工标段', projectName: '忻州学生公寓楼建设工程' };

const NO_ACTIONS: EvalRoom['actions'] = {
  begin: false,
  method: false,
  declare: false,
  signIn: [],
  vote: false,
  score: [],
  reopen: false,
  clarify: false,
  principal: false,
  render: false,
  sign: false,
  export: false,
  publish: false,
  answer: false,
  award: false,
  awardNotice: false,
};

const CANDIDATES: EvalOutcome['candidates'] = [
  { rank: 1, bidId: uuid(102), enterpriseName: '示例建设工程有限公司2', price: 10_000_000, total: 87.1 },
  { rank: 2, bidId: uuid(101), enterpriseName: '示例建设工程有限公司1', price: 10_234_567.8, total: 78.48 },
  { rank: 3, bidId: uuid(104), enterpriseName: '示例建设工程有限公司4', price: 9_990_000.5, total: 70 },
];

const PUBLICITY = {
  noticeId: uuid(700),
  start: '2026-12-23T02:00:00.000Z',
  end: '2026-12-26T02:00:00.000Z',
  late: false,
  running: true,
};

function objection(n: number, over: Partial<EvalObjection> = {}): EvalObjection {
  return {
    id: uuid(800 + n),
    enterpriseName: `示例建设工程有限公司${n}`,
    userName: `投标员${n}`,
    text: `第一中标候选人的项目经理有在建项目${n}`,
    at: '2026-12-24T03:00:00.000Z',
    answer: null,
    answeredAt: null,
    ...over,
  };
}

function outcome(over: Partial<EvalOutcome> = {}): EvalOutcome {
  return {
    candidates: CANDIDATES,
    publishBy: '2026-12-25T02:00:00.000Z',
    publicity: null,
    objections: [],
    award: null,
    ...over,
  };
}

function room(over: Partial<EvalRoom> = {}): EvalRoom {
  return {
    section: SECTION,
    status: 'done',
    role: 'host',
    now: '2026-12-22T02:00:00.000Z',
    openingClosed: true,
    drawnK: null,
    extraction: null,
    criteria: null,
    members: [],
    me: null,
    bids: [],
    myScores: [],
    allScores: [],
    result: null,
    reopens: [],
    clarifications: [],
    anomalies: [],
    outcome: outcome(),
    supervision: [],
    events: [],
    actions: NO_ACTIONS,
    ...over,
  };
}

const STEP_URL = `/bidStep/bidPublicity?sectionId=${SECTION_ID}`;

function serveRoom(answer: () => EvalRoom, handlers: Record<string, Handler> = {}) {
  return setupShell({ roleType: 'U', handlers: { [`GET ${ROOM}`]: () => ({ data: answer() }), ...handlers } }).server;
}

/** Downloads end in an anchor's click: its blob and name are recorded instead. */
function captureDownloads() {
  const blobs: Blob[] = [];
  Object.defineProperty(URL, 'createObjectURL', {
    configurable: true,
    writable: true,
    value: (b: Blob) => {
      blobs.push(b);
      return 'blob:x';
    },
  });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, writable: true, value: () => undefined });
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return {
    blobs,
    names: () => click.mock.contexts.map((a) => (a as HTMLAnchorElement).download),
    restore: () => {
      click.mockRestore();
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    },
  };
}

describe('中标候选人公示与定标 (the host)', () => {
  it(
    'lists the candidates and the deadline; the publish dialog posts the days and shows the server’s refusal',
    async () => {
      let current = room({ actions: { ...NO_ACTIONS, publish: true } });
      const server = serveRoom(() => current, {
        [`POST ${PUBLISH}`]: (req) => {
          if (json(req).days < 5) return { status: 400, code: 400, message: EVAL_MSG.publicityTooShort(5) };
          current = room({ outcome: outcome({ publicity: PUBLICITY }) });
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, STEP_URL);
      const table = await screen.findByTestId('eval-candidates', {}, SLOW);
      const first = within(table).getByTestId('eval-candidate-1');
      expect(first.textContent).toContain('示例建设工程有限公司2');
      expect(first.textContent).toContain('¥10,000,000.00');
      expect(first.textContent).toContain('87.10');
      expect(within(table).getByTestId('eval-candidate-2').textContent).toContain('¥10,234,567.80');
      expect(within(table).getByTestId('eval-candidate-3').textContent).toContain('¥9,990,000.50');
      expect(screen.getByTestId('eval-publish-by').textContent).toBe('2026-12-25 10:00');
      expect(screen.getByTestId('eval-publicity-none')).toBeTruthy();
      // the step is in the menu, after 评标结果, marked as the host's to do
      const links = within(screen.getByTestId('eval-steps'))
        .getAllByTestId(/^eval-step-link-/)
        .map((l) => l.getAttribute('data-testid'));
      expect(links.indexOf('eval-step-link-bidPublicity')).toBe(links.indexOf('eval-step-link-bidResult') + 1);
      expect(screen.getByTestId('eval-step-link-bidPublicity').textContent).toBe('中标候选人公示与定标');
      expect(screen.getByTestId('eval-step-link-bidPublicity').querySelector('.ant-badge-status-dot')).toBeTruthy();
      // nothing about objections or the award before the publicity
      expect(screen.queryByTestId('eval-objections')).toBeNull();
      expect(screen.queryByTestId('eval-award-card')).toBeNull();

      await user.click(screen.getByTestId('eval-publish'));
      const days = (await screen.findByTestId('eval-publish-days')) as HTMLInputElement;
      expect(days.value).toBe('3');
      expect(screen.getByText('公示期不少于 3 日（法定不少于 3 日）')).toBeTruthy();
      await user.clear(days);
      await user.type(days, '4');
      await user.click(screen.getByTestId('eval-publish-ok'));
      expect((await screen.findByTestId('eval-publish-error')).textContent).toBe(EVAL_MSG.publicityTooShort(5));
      // shown in the dialog (still open), not in the global prompt
      expect(currentPrompt()).toBeNull();
      expect(screen.getByTestId('eval-publish-ok')).toBeTruthy();
      await user.clear(days);
      await user.type(days, '5');
      await user.click(screen.getByTestId('eval-publish-ok'));
      await waitFor(() => expect(screen.getByTestId('eval-publicity-tag').textContent).toBe('公示中'));
      expect(server.callsTo(PUBLISH).map(json)).toEqual([
        { sectionId: SECTION_ID, days: 4 },
        { sectionId: SECTION_ID, days: 5 },
      ]);
      expect(screen.getByTestId('eval-publicity-period').textContent).toBe('2026-12-23 10:00 至 2026-12-26 10:00');
      expect(screen.getByTestId('eval-publicity-notice').getAttribute('href')).toBe(`/transac-news?id=${uuid(700)}`);
      expect(screen.queryByTestId('eval-publish')).toBeNull();
      expect(screen.getByTestId('eval-objections').textContent).toContain('公示期内没有异议');
    },
    T,
  );

  it(
    'an objection is answered in a dialog that posts {id, answer}; no award while one is open',
    async () => {
      const open = objection(1);
      const answered = objection(3, {
        answer: '经核查，该项目经理无在建项目',
        answeredAt: '2026-12-24T05:00:00.000Z',
      });
      const ended = { ...PUBLICITY, running: false };
      let current = room({
        outcome: outcome({ publicity: ended, objections: [open, answered] }),
        actions: { ...NO_ACTIONS, answer: true },
      });
      const server = serveRoom(() => current, {
        [`POST ${ANSWER}`]: (req) => {
          const { answer } = json(req);
          current = room({
            outcome: outcome({
              publicity: ended,
              objections: [{ ...open, answer, answeredAt: '2026-12-26T03:00:00.000Z' }, answered],
            }),
            actions: { ...NO_ACTIONS, award: true },
          });
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, STEP_URL);
      const row = await screen.findByTestId(`eval-objection-${open.id}`, {}, SLOW);
      expect(row.textContent).toContain('示例建设工程有限公司1');
      expect(row.textContent).toContain('投标员1');
      expect(row.textContent).toContain('第一中标候选人的项目经理有在建项目1');
      expect(row.textContent).toContain('2026-12-24 11:00:00');
      const done = screen.getByTestId(`eval-objection-${answered.id}`);
      expect(done.textContent).toContain('经核查，该项目经理无在建项目');
      expect(within(done).queryByTestId(`eval-answer-${answered.id}`)).toBeNull();
      expect(screen.getByTestId('eval-publicity-tag').textContent).toBe('公示期已结束');
      expect(screen.queryByTestId('eval-award')).toBeNull();
      expect(screen.getByTestId('eval-award-waiting').textContent).toBe(EVAL_MSG.openObjections);

      await user.click(within(row).getByTestId(`eval-answer-${open.id}`));
      await user.type(await screen.findByTestId('eval-answer-text'), '已核');
      await user.click(screen.getByTestId('eval-answer-ok'));
      expect(await screen.findByText('答复至少 5 个字')).toBeTruthy();
      expect(server.callsTo(ANSWER)).toHaveLength(0);
      await user.type(screen.getByTestId('eval-answer-text'), '查，不影响中标');
      await user.click(screen.getByTestId('eval-answer-ok'));
      await waitFor(() => expect(server.callsTo(ANSWER)).toHaveLength(1));
      expect(json(server.callsTo(ANSWER)[0])).toEqual({ id: open.id, answer: '已核查，不影响中标' });
      await waitFor(() =>
        expect(screen.getByTestId(`eval-objection-${open.id}`).textContent).toContain('已核查，不影响中标'),
      );
      expect(screen.queryByTestId(`eval-answer-${open.id}`)).toBeNull();
      expect(screen.getByTestId('eval-award')).toBeTruthy();
    },
    T,
  );

  it(
    'a viewer sees neither answer nor award buttons during the publicity',
    async () => {
      serveRoom(() => room({ role: 'viewer', outcome: outcome({ publicity: PUBLICITY, objections: [objection(1)] }) }));
      renderRoutes(routes, STEP_URL);
      const row = await screen.findByTestId(`eval-objection-${uuid(801)}`, {}, SLOW);
      expect(row.textContent).toContain('待答复');
      expect(within(row).queryByRole('button')).toBeNull();
      expect(screen.queryByTestId('eval-award')).toBeNull();
      expect(screen.queryByTestId('eval-publish')).toBeNull();
      expect(screen.getByTestId('eval-award-waiting').textContent).toContain('2026-12-26 10:00');
    },
    T,
  );

  it(
    '确定中标人 asks first, posts the section, then shows the winner, the result notice and the 中标通知书',
    async () => {
      const ended = { ...PUBLICITY, running: false };
      let current = room({ outcome: outcome({ publicity: ended }), actions: { ...NO_ACTIONS, award: true } });
      const server = serveRoom(() => current, {
        [`POST ${AWARD}`]: () => {
          current = room({
            outcome: outcome({
              publicity: ended,
              award: {
                bidId: uuid(102),
                enterpriseName: '示例建设工程有限公司2',
                at: '2026-12-26T03:00:00.000Z',
                resultNoticeId: uuid(701),
              },
            }),
            actions: { ...NO_ACTIONS, awardNotice: true },
          });
          return { data: current };
        },
        [`GET ${NOTICE}`]: () => ({ data: null }),
      });
      const downloads = captureDownloads();
      try {
        const user = userEvent.setup();
        renderRoutes(routes, STEP_URL);
        await user.click(await screen.findByTestId('eval-award', {}, SLOW));
        expect(await screen.findByText('排名第一的中标候选人将被确定为中标人，并发布中标结果公告')).toBeTruthy();
        expect(server.callsTo(AWARD)).toHaveLength(0);
        await user.click(screen.getByTestId('confirm-ok'));
        expect((await screen.findByTestId('eval-winner')).textContent).toBe('示例建设工程有限公司2');
        expect(server.callsTo(AWARD).map(json)).toEqual([{ sectionId: SECTION_ID }]);
        expect(screen.getByTestId('eval-result-notice').getAttribute('href')).toBe(`/transac-news?id=${uuid(701)}`);
        expect(within(screen.getByTestId('eval-candidate-1')).getByText('中标人')).toBeTruthy();
        expect(screen.queryByTestId('eval-award')).toBeNull();
        await user.click(screen.getByTestId('eval-award-notice'));
        await waitFor(() => expect(downloads.names()).toEqual(['中标通知书-BD-01.pdf']));
        expect(server.callsTo(NOTICE).map((c) => c.url)).toEqual([`${NOTICE}?sectionId=${SECTION_ID}`]);
      } finally {
        downloads.restore();
      }
    },
    T,
  );

  it(
    'before the evaluation is done the step says so; the overview labels a late publicity',
    async () => {
      let current = room({ status: 'reporting', outcome: null });
      serveRoom(() => current);
      const { router } = renderRoutes(routes, STEP_URL);
      expect((await screen.findByTestId('eval-outcome-none', {}, SLOW)).textContent).toContain('评标结束后');
      current = room({
        role: 'viewer',
        anomalies: [
          {
            key: 'latePublicity',
            kind: 'latePublicity',
            at: '2026-12-26T02:00:00.000Z',
            text: '中标候选人公示晚于公示期限',
          },
        ],
      });
      act(() => dispatchLive('evaluation', { sectionId: SECTION_ID }));
      await act(() => router.navigate(`/bidStep/bidOverview?sectionId=${SECTION_ID}`));
      const anomaly = await screen.findByTestId('eval-anomaly-0');
      expect(anomaly.textContent).toContain('逾期公示');
      expect(anomaly.textContent).toContain('中标候选人公示晚于公示期限');
    },
    T,
  );
});

describe('评审概览: 已公示 / 已定标', () => {
  it(
    'tags the published and the awarded sections',
    async () => {
      const section = (n: number, over: Partial<EvalSection>): EvalSection => ({
        id: uuid(n),
        code: `BD-0${n}`,
        name: `施工${n}标段`,
        projectName: `示例项目${n}`,
        status: 'done',
        role: 'host',
        members: 5,
        submitted: 5,
        winner: null,
        published: false,
        awarded: false,
        ...over,
      });
      const sections = [
        section(1, {}),
        section(2, { published: true }),
        section(3, { published: true, awarded: true, winner: '示例建设工程有限公司3' }),
      ];
      setupShell({ roleType: 'U', handlers: { 'GET /ks/trade/result-list': () => ({ data: sections }) } });
      renderRoutes(routes, '/bidEvaluationSys/overview');
      await screen.findByTestId(`eval-section-row-${uuid(1)}`, {}, SLOW);
      expect(screen.queryByTestId(`eval-section-outcome-${uuid(1)}`)).toBeNull();
      expect(screen.getByTestId(`eval-section-outcome-${uuid(2)}`).textContent).toBe('已公示');
      expect(screen.getByTestId(`eval-section-outcome-${uuid(3)}`).textContent).toBe('已公示已定标');
    },
    T,
  );
});

// ── the bidders' card in the opening hall ─────────────────────────────────────────────────────────────────────────

const HALL_URL = `/bid/bidMeet?sectionId=${SECTION_ID}`;

function hall(over: Partial<OpeningHall> = {}): OpeningHall {
  return {
    section: { ...SECTION, bidDeadline: '2026-12-21T01:30:00.000Z' },
    status: 'closed',
    now: '2026-12-24T01:00:00.000Z',
    role: 'bidder',
    due: true,
    startedAt: '2026-12-21T01:30:05.000Z',
    decryptMinutes: 30,
    decryptDeadline: '2026-12-21T02:00:05.000Z',
    closedAt: '2026-12-21T03:00:00.000Z',
    failureReason: null,
    seedCommitment: null,
    seed: null,
    benchmarkK: null,
    signedInCount: 3,
    bids: [],
    mine: null,
    events: [],
    actions: {
      signIn: false,
      start: false,
      decrypt: false,
      draw: false,
      read: false,
      respond: false,
      answer: false,
      close: false,
      record: false,
    },
    ...over,
  };
}

function bidderOutcome(over: Partial<EvalBidderOutcome> = {}): EvalBidderOutcome {
  return {
    ...outcome({ publishBy: null }),
    section: SECTION,
    enterpriseName: '示例建设工程有限公司1',
    clarifications: [],
    actions: { object: false, awardNotice: false },
    ...over,
  };
}

function serveHall(answer: () => OpeningHall, outcomeHandler: Handler, handlers: Record<string, Handler> = {}) {
  return setupShell({
    roleType: 'U',
    handlers: { [`GET ${HALL}`]: () => ({ data: answer() }), [`GET ${OUTCOME}`]: outcomeHandler, ...handlers },
  }).server;
}

describe('评标澄清 in the opening hall (a bidder)', () => {
  const CLARIFY_ANSWER = '/ks/trade/review/clarify-answer';
  const asked = {
    id: uuid(900),
    bidId: uuid(101),
    enterpriseName: '示例建设工程有限公司1',
    question: '请说明投标报价中安全文明施工费的计取依据',
    deadline: '2026-12-22T06:00:00.000Z',
    askedBy: '专家1',
    askedAt: '2026-12-22T04:00:00.000Z',
    status: 'asked' as const,
    answer: null,
    answeredAt: null,
    answeredBy: null,
    files: [],
    revokeReason: null,
  };

  it(
    'shows the committee’s question before any publicity and sends the written answer once',
    async () => {
      let current = bidderOutcome({ publicity: null, candidates: [], clarifications: [asked] });
      const server = serveHall(
        () => hall(),
        () => ({ data: current }),
        {
          [`POST ${CLARIFY_ANSWER}`]: (req) => {
            const { answer } = json(req);
            current = {
              ...current,
              clarifications: [
                { ...asked, status: 'answered', answer, answeredAt: '2026-12-22T05:00:00.000Z', answeredBy: '张建国' },
              ],
            };
            return { data: current };
          },
        },
      );
      const user = userEvent.setup();
      renderRoutes(routes, HALL_URL);
      const card = await screen.findByTestId('eval-outcome-card', {}, SLOW);
      expect(within(card).getByTestId('eval-clarify-waiting').textContent).toContain('1 个问题');
      expect(within(card).getByTestId('eval-outcome-unpublished')).toBeTruthy();
      await user.click(within(card).getByTestId(`eval-clarify-reply-${asked.id}`));
      expect((await screen.findByTestId('eval-clarify-answer-question')).textContent).toBe(asked.question);
      // nothing is sent without a text
      await user.click(screen.getByTestId('eval-clarify-answer-ok'));
      expect(await screen.findByText('请填写澄清内容')).toBeTruthy();
      expect(server.callsTo(CLARIFY_ANSWER)).toHaveLength(0);
      await user.type(screen.getByTestId('eval-clarify-answer-text'), '按山西省现行费率计取，未作让利。');
      await user.click(screen.getByTestId('eval-clarify-answer-ok'));
      await waitFor(() => expect(server.callsTo(CLARIFY_ANSWER)).toHaveLength(1));
      expect(json(server.callsTo(CLARIFY_ANSWER)[0])).toEqual({
        id: asked.id,
        answer: '按山西省现行费率计取，未作让利。',
        fileIds: [],
      });
      expect((await within(card).findByTestId(`eval-clarify-answer-${asked.id}`)).textContent).toBe(
        '按山西省现行费率计取，未作让利。',
      );
      expect(within(card).queryByTestId(`eval-clarify-reply-${asked.id}`)).toBeNull();
      expect(within(card).queryByTestId('eval-clarify-waiting')).toBeNull();
    },
    T,
  );
});

describe('评标结果 in the opening hall (a bidder)', () => {
  it(
    'shows the candidates, the period and the own objections, and posts an objection of 5–1000 characters',
    async () => {
      const mine = objection(1, { answer: '经核查，异议不成立', answeredAt: '2026-12-24T05:00:00.000Z' });
      let current = bidderOutcome({
        publicity: PUBLICITY,
        objections: [mine],
        actions: { object: true, awardNotice: false },
      });
      const server = serveHall(
        () => hall(),
        () => ({ data: current }),
        {
          [`POST ${OBJECT}`]: (req) => {
            const { text } = json(req);
            current = {
              ...current,
              objections: [mine, objection(2, { enterpriseName: '示例建设工程有限公司1', text })],
            };
            return { data: current };
          },
        },
      );
      const user = userEvent.setup();
      renderRoutes(routes, HALL_URL);
      const card = await screen.findByTestId('eval-outcome-card', {}, SLOW);
      expect(within(card).getByTestId('eval-candidate-1').textContent).toContain('¥10,000,000.00');
      expect(within(card).getByTestId('eval-publicity-tag').textContent).toBe('公示中');
      expect(within(card).getByTestId('eval-publicity-notice').getAttribute('href')).toBe(
        `/transac-news?id=${uuid(700)}`,
      );
      expect(within(card).getByTestId(`eval-objection-${mine.id}`).textContent).toContain('经核查，异议不成立');
      expect(within(card).queryByTestId('eval-award-notice')).toBeNull();
      expect(within(card).queryByTestId('eval-winner')).toBeNull();
      expect(server.callsTo(OUTCOME)[0].url).toBe(`${OUTCOME}?sectionId=${SECTION_ID}`);

      await user.click(within(card).getByTestId('eval-object'));
      await user.type(await screen.findByTestId('eval-objection-text'), '报价过低');
      await user.click(screen.getByTestId('eval-objection-ok'));
      expect(await screen.findByText('异议内容至少 5 个字')).toBeTruthy();
      expect(server.callsTo(OBJECT)).toHaveLength(0);
      await user.type(screen.getByTestId('eval-objection-text'), '，低于成本');
      await user.click(screen.getByTestId('eval-objection-ok'));
      await waitFor(() => expect(server.callsTo(OBJECT)).toHaveLength(1));
      expect(json(server.callsTo(OBJECT)[0])).toEqual({ sectionId: SECTION_ID, text: '报价过低，低于成本' });
      expect((await within(card).findByTestId(`eval-objection-${uuid(802)}`)).textContent).toContain(
        '报价过低，低于成本',
      );
      expect(within(card).getByTestId(`eval-objection-${uuid(802)}`).textContent).toContain('待答复');
    },
    T,
  );

  it(
    'before the publication says only that; reads again on a live evaluation event; shows the award',
    async () => {
      let current = bidderOutcome();
      const server = serveHall(
        () => hall(),
        () => ({ data: current }),
        { [`GET ${NOTICE}`]: () => ({ data: null }) },
      );
      renderRoutes(routes, HALL_URL);
      const card = await screen.findByTestId('eval-outcome-card', {}, SLOW);
      expect(within(card).getByTestId('eval-outcome-unpublished').textContent).toContain('评标结果尚未公示');
      expect(within(card).queryByTestId('eval-candidates')).toBeNull();
      expect(within(card).queryByTestId('eval-object')).toBeNull();

      current = bidderOutcome({
        publicity: { ...PUBLICITY, running: false },
        award: {
          bidId: uuid(101),
          enterpriseName: '示例建设工程有限公司1',
          at: '2026-12-26T03:00:00.000Z',
          resultNoticeId: uuid(701),
        },
        actions: { object: false, awardNotice: true },
      });
      const before = server.callsTo(OUTCOME).length;
      act(() => dispatchLive('evaluation', { sectionId: uuid(999) }));
      await new Promise((r) => setTimeout(r, 50));
      expect(server.callsTo(OUTCOME)).toHaveLength(before);
      act(() => dispatchLive('evaluation', { sectionId: SECTION_ID }));
      expect((await within(card).findByTestId('eval-winner')).textContent).toContain('示例建设工程有限公司1');
      expect(within(card).getByTestId('eval-publicity-tag').textContent).toBe('公示期已结束');
      expect(within(card).getByTestId('eval-result-notice').getAttribute('href')).toBe(`/transac-news?id=${uuid(701)}`);
      expect(within(card).queryByTestId('eval-object')).toBeNull();
      const downloads = captureDownloads();
      try {
        await userEvent.setup().click(within(card).getByTestId('eval-award-notice'));
        await waitFor(() => expect(downloads.names()).toEqual(['中标通知书-BD-01.pdf']));
      } finally {
        downloads.restore();
      }
    },
    T,
  );

  it(
    'a 404 outcome renders no card and no prompt',
    async () => {
      const server = serveHall(
        () => hall({ signedInCount: 7 }),
        () => ({ status: 404, code: 404, message: EVAL_MSG.sectionMissing }),
      );
      renderRoutes(routes, HALL_URL);
      await screen.findByTestId('opening-status', {}, SLOW);
      await waitFor(() => expect(server.callsTo(OUTCOME)).toHaveLength(1));
      await new Promise((r) => setTimeout(r, 50));
      expect(screen.queryByTestId('eval-outcome-card')).toBeNull();
      expect(screen.queryByText('评标结果')).toBeNull();
      expect(currentPrompt()).toBeNull();
    },
    T,
  );

  it(
    'is not asked for before the opening closes, nor by the host',
    async () => {
      let current = hall({ status: 'confirming' });
      const server = serveHall(
        () => current,
        () => ({ data: bidderOutcome({ publicity: PUBLICITY }) }),
      );
      renderRoutes(routes, HALL_URL);
      expect((await screen.findByTestId('opening-status', {}, SLOW)).textContent).toBe('开标结果确认中');
      current = hall({ role: 'host' });
      act(() => dispatchLive('opening', { sectionId: SECTION_ID }));
      await waitFor(() => expect(screen.getByTestId('opening-status').textContent).toBe('开标结束'));
      await new Promise((r) => setTimeout(r, 50));
      expect(server.callsTo(OUTCOME)).toHaveLength(0);
      expect(screen.queryByTestId('eval-outcome-card')).toBeNull();
    },
    T,
  );
});
