import {
  EVAL_MSG,
  type EvalBid,
  type EvalCriteria,
  type EvalMember,
  type EvalRoom,
  type EvalSection,
  SESSION_KEYS,
} from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { currentPrompt, resetPrompts } from '../../components/prompt';
import { dispatchLive } from '../../lib/live';
import { guardRedirect, isNodePage } from '../../lib/paths';
import { renderRoutes } from '../../test/render';
import type { Handler } from '../../test/server';
import { setupShell } from '../shell/testData';

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
const SECTIONS = '/ks/trade/result-list';

const CRITERIA: EvalCriteria = {
  method: 'comprehensive',
  qualification: [
    { id: 'q1', name: '营业执照与资质证书有效' },
    { id: 'q2', name: '项目经理具备注册建造师资格' },
  ],
  technical: [
    { id: 't1', name: '施工方案与技术措施', max: 20 },
    { id: 't2', name: '质量管理体系与措施', max: 10 },
  ],
  business: [{ id: 'b1', name: '类似工程业绩', max: 10 }],
  price: { max: 60, benchmark: 'meanDropExtremes', k: 0.95, abovePerPct: 2, belowPerPct: 1 },
  deviation: 0.3,
};

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

const NO_TIMES = { ZS: null, JS: null, SW: null };

function member(n: number, over: Partial<EvalMember> = {}): EvalMember {
  return {
    id: uuid(300 + n),
    name: `专家${n}`,
    specialty: '建筑工程',
    employer: `某某设计院${n}`,
    panels: ['ZS', 'JS'],
    hasAccount: true,
    declaredAt: null,
    recused: false,
    conflict: null,
    signins: NO_TIMES,
    submitted: NO_TIMES,
    chair: false,
    votes: 0,
    reportSignedAt: null,
    dissent: null,
    ...over,
  };
}

function bid(n: number, over: Partial<EvalBid> = {}): EvalBid {
  return {
    bidId: uuid(100 + n),
    enterpriseName: `示例建设工程有限公司${n}`,
    price: 10_000_000 + n * 100_000,
    durationDays: 365,
    quality: '合格',
    manager: `项目经理${n}`,
    readOrder: n,
    fileName: `投标文件${n}.pdf`,
    ...over,
  };
}

function room(over: Partial<EvalRoom> = {}): EvalRoom {
  return {
    section: { id: SECTION_ID, code: 'BD-01', name: '施工标段', projectName: '忻州学生公寓楼建设工程' },
    status: 'scoring',
    role: 'member',
    now: '2026-12-22T02:00:00.000Z',
    openingClosed: true,
    drawnK: null,
    extraction: { id: uuid(50), code: 'CQ-2026-0001', evaluationStartAt: '2026-12-22 09:00' },
    criteria: CRITERIA,
    members: [],
    me: null,
    bids: [],
    myScores: [],
    allScores: [],
    result: null,
    reopens: [],
    clarifications: [],
    anomalies: [],
    outcome: null,
    supervision: [],
    events: [],
    actions: NO_ACTIONS,
    ...over,
  };
}

const roomUrl = (step: string) => `/bidStep/${step}?sectionId=${SECTION_ID}`;

function serve(answer: () => EvalRoom, handlers: Record<string, Handler> = {}) {
  return setupShell({
    roleType: 'U',
    handlers: { [`GET ${ROOM}`]: () => ({ data: answer() }), ...handlers },
  }).server;
}

function section(n: number, over: Partial<EvalSection> = {}): EvalSection {
  return {
    id: uuid(n),
    code: `BD-0${n}`,
    name: `施工${n}标段`,
    projectName: `示例项目${n}`,
    status: 'scoring',
    role: 'member',
    members: 5,
    submitted: 2,
    winner: null,
    published: false,
    awarded: false,
    ...over,
  };
}

describe('评审概览 and the experts’ workbench', () => {
  it(
    'lists the sections with status, role, progress and first candidate, each leading into its room; not pending',
    async () => {
      const sections = [
        section(1),
        section(2, { status: 'done', role: 'host', submitted: 5, winner: '示例建设工程有限公司2' }),
      ];
      setupShell({ roleType: 'U', handlers: { [`GET ${SECTIONS}`]: () => ({ data: sections }) } });
      renderRoutes(routes, '/bidEvaluationSys/overview');
      const row = await screen.findByTestId(`eval-section-row-${uuid(1)}`, {}, SLOW);
      expect(row.textContent).toContain('示例项目1');
      expect(row.textContent).toContain('施工1标段');
      expect(within(row).getByTestId(`eval-section-status-${uuid(1)}`).textContent).toBe('评审打分中');
      expect(row.textContent).toContain('评委');
      expect(within(row).getByTestId(`eval-section-progress-${uuid(1)}`).textContent).toBe('2/5');
      expect(
        within(row)
          .getByTestId(`eval-enter-${uuid(1)}`)
          .getAttribute('href'),
      ).toBe(`/bidStep/bidOverview?sectionId=${uuid(1)}`);
      const done = screen.getByTestId(`eval-section-row-${uuid(2)}`);
      expect(done.textContent).toContain('评标结束');
      expect(done.textContent).toContain('主持');
      expect(done.textContent).toContain('示例建设工程有限公司2');
      expect(screen.queryByTestId('pending-page')).toBeNull();
    },
    T,
  );

  it(
    'says so when there is none; the evaluation paths are node pages that need signing in',
    async () => {
      setupShell({ roleType: 'U', handlers: { [`GET ${SECTIONS}`]: () => ({ data: [] }) } });
      renderRoutes(routes, '/bid/reviewProcess');
      expect(await screen.findByText('暂无评标项目', {}, SLOW)).toBeTruthy();
      expect(screen.queryByTestId('pending-page')).toBeNull();
      for (const p of ['/bidEvaluationSys/overview', '/bidStep/bidSign', '/bidZj/KbZj']) {
        expect(isNodePage(p), p).toBe(true);
        expect(guardRedirect(p, false, null), p).toBe('/');
      }
    },
    T,
  );

  it(
    '待评项目 and 已评项目 show the sections the caller sits on, not ended and ended',
    async () => {
      const sections = [
        section(1),
        section(2, { status: 'done' }),
        section(3, { role: 'host' }),
        section(4, { role: 'viewer', status: 'done' }),
      ];
      setupShell({ roleType: 'U', handlers: { [`GET ${SECTIONS}`]: () => ({ data: sections }) } });
      const { router } = renderRoutes(routes, '/bidZj/KbZj');
      const pending = await screen.findByTestId('eval-expert-pending', {}, SLOW);
      expect(await within(pending).findByTestId(`eval-section-row-${uuid(1)}`, {}, SLOW)).toBeTruthy();
      for (const n of [2, 3, 4]) expect(within(pending).queryByTestId(`eval-section-row-${uuid(n)}`)).toBeNull();
      await act(() => router.navigate('/bidZj/YsZj'));
      const done = await screen.findByTestId('eval-expert-done', {}, SLOW);
      expect(await within(done).findByTestId(`eval-section-row-${uuid(2)}`)).toBeTruthy();
      for (const n of [1, 3, 4]) expect(within(done).queryByTestId(`eval-section-row-${uuid(n)}`)).toBeNull();
    },
    T,
  );

  it(
    'reviewProcess/:bianma opens the room of the section with that code, or says there is none',
    async () => {
      serve(() => room({ role: 'viewer' }), { [`GET ${SECTIONS}`]: () => ({ data: [section(1)] }) });
      const { router } = renderRoutes(routes, '/bidEvaluationSys/reviewProcess/BD-01');
      expect(await screen.findByTestId('eval-step-overview', {}, SLOW)).toBeTruthy();
      expect(screen.getByTestId('eval-project').textContent).toBe('忻州学生公寓楼建设工程');
      await act(() => router.navigate('/bidEvaluationSys/reviewProcess/BD-99'));
      expect((await screen.findByTestId('eval-code-missing')).textContent).toContain('BD-99');
    },
    T,
  );
});

describe('the room: beginning, overview', () => {
  it(
    'the host begins with a confirmed extraction and the method chosen',
    async () => {
      let current = room({
        role: 'host',
        status: 'none',
        criteria: null,
        extraction: null,
        actions: { ...NO_ACTIONS, begin: true },
      });
      const server = serve(() => current, {
        'GET /ks/trade/review/extractions': () => ({
          data: [
            {
              id: uuid(50),
              code: 'CQ-2026-0001',
              projectName: '忻州学生公寓楼建设工程',
              sectionName: '施工标段',
              members: 5,
              evaluationStartAt: '2026-12-22 09:00',
            },
          ],
        }),
        'POST /ks/trade/review/begin': () => {
          current = room({ role: 'host', status: 'signing', members: [member(1), member(2)] });
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidBegin'));
      await user.click(await screen.findByTestId('eval-begin', {}, SLOW));
      const option = await screen.findByTestId(`eval-begin-extraction-${uuid(50)}`);
      expect(option.closest('label')!.textContent).toContain('5 名专家，评标时间 2026-12-22 09:00');
      await user.click(screen.getByTestId('eval-begin-ok'));
      expect(await screen.findByText('请选择专家抽取记录')).toBeTruthy();
      expect(server.callsTo('/ks/trade/review/begin')).toHaveLength(0);
      await user.click(option);
      await user.click(within(screen.getByTestId('eval-begin-method')).getByText('经评审的最低投标价法'));
      await user.click(screen.getByTestId('eval-begin-ok'));
      await waitFor(() => expect(screen.getByTestId('eval-status').textContent).toBe('专家签到与推选组长'));
      expect(server.callsTo('/ks/trade/review/begin').map(json)).toEqual([
        { sectionId: SECTION_ID, extractionId: uuid(50), method: 'lowest' },
      ]);
      expect(screen.queryByTestId('eval-begin')).toBeNull();
    },
    T,
  );

  it(
    'the overview shows the members’ progress, the anomalies and the log',
    async () => {
      serve(() =>
        room({
          role: 'viewer',
          members: [
            member(1, { chair: true, submitted: { ZS: '2026-12-22T02:00:00.000Z', JS: null, SW: null } }),
            member(2, { declaredAt: '2026-12-22T01:05:00.000Z', recused: true, conflict: '与投标人有经济利益关系' }),
          ],
          anomalies: [
            {
              key: 'lateSignin:m1:ZS',
              kind: 'lateSignin',
              at: '2026-12-22T01:40:00.000Z',
              text: '专家1 签到晚于评标开始时间 40 分钟',
            },
            { key: 'recused:m2', kind: 'recused', at: null, text: '专家2 申请回避' },
          ],
          supervision: [
            {
              id: uuid(70),
              verdictLabel: '责令整改',
              rectify: true,
              anomalyText: '专家1 签到晚于评标开始时间 40 分钟',
              opinion: '请招标代理核实迟到原因并书面说明',
              byName: '李振华',
              publishedAt: '2026-12-22T02:10:00.000Z',
            },
          ],
          events: [
            {
              seq: 42,
              at: '2026-12-22T01:00:00.000Z',
              kind: 'evaluation.begin',
              actorName: '招标代理',
              text: '开始评标',
              hash: 'd'.repeat(64),
            },
          ],
        }),
      );
      renderRoutes(routes, roomUrl('bidOverview'));
      const members = await screen.findByTestId('eval-overview-members', {}, SLOW);
      expect(members.textContent).toContain('已提交');
      expect(members.textContent).toContain('已回避');
      expect(screen.getByTestId('eval-anomaly-0').textContent).toContain('迟到签到');
      expect(screen.getByTestId('eval-anomaly-0').textContent).toContain('签到晚于评标开始时间 40 分钟');
      expect(screen.getByTestId('eval-anomaly-1').textContent).toContain('专家回避');
      const log = screen.getByTestId('eval-event-42').textContent;
      expect(log).toContain('招标代理');
      expect(log).toContain('开始评标');
      expect(log).toContain('#42 dddddddddddd…');
      expect(screen.getByTestId('eval-chair-name').textContent).toBe('专家1');
      // the supervisors' published finding
      const opinion = screen.getByTestId('eval-supervision-item').textContent;
      expect(opinion).toContain('责令整改');
      expect(opinion).toContain('请招标代理核实迟到原因并书面说明');
      expect(opinion).toContain('李振华');
    },
    T,
  );
});

describe('确定组长 (update-principal)', () => {
  it(
    'the host names a signed-in member chair with a reason; the request carries both and the room shows the chair',
    async () => {
      const signed = { ZS: '2026-12-22T01:10:00.000Z', JS: null, SW: null };
      let current = room({
        role: 'host',
        status: 'signing',
        members: [
          member(1, { declaredAt: '2026-12-22T01:05:00.000Z', signins: signed }),
          member(2, { declaredAt: '2026-12-22T01:05:00.000Z', signins: signed }),
          member(3, { declaredAt: '2026-12-22T01:05:00.000Z', recused: true, conflict: '曾在投标人处任职' }),
        ],
        actions: { ...NO_ACTIONS, principal: true },
      });
      const server = serve(() => current, {
        'POST /ks/trade/update-principal': (req) => {
          const b = json(req);
          current = room({
            ...current,
            status: 'scoring',
            members: current.members.map((m) => ({ ...m, chair: m.id === b.memberId })),
          });
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('zjInfo'));
      await user.click(await screen.findByTestId('eval-principal', {}, SLOW));
      await user.click(await screen.findByTestId('eval-principal-ok'));
      expect(await screen.findByText('请选择已签到的评委')).toBeTruthy();
      expect(server.callsTo('/ks/trade/update-principal')).toHaveLength(0);
      // the recused member is not offered
      await user.click(
        screen.getByTestId('eval-principal-member').querySelector('.ant-select-selector') ??
          screen.getByTestId('eval-principal-member'),
      );
      expect(await screen.findByText('专家2（建筑工程）')).toBeTruthy();
      expect(screen.queryByText('专家3（建筑工程）')).toBeNull();
      await user.click(screen.getByText('专家2（建筑工程）'));
      await user.type(screen.getByTestId('eval-principal-reason'), '推选未能过半数，由招标人确定');
      await user.click(screen.getByTestId('eval-principal-ok'));
      await waitFor(() => expect(screen.getByTestId('eval-chair').textContent).toContain('专家2'));
      expect(server.callsTo('/ks/trade/update-principal').map(json)).toEqual([
        { sectionId: SECTION_ID, memberId: uuid(302), reason: '推选未能过半数，由招标人确定' },
      ]);
    },
    T,
  );
});

describe('the room: declaration, sign-in, bids', () => {
  it(
    'a member declares before signing in, sees no bids before, and the session keeps the section',
    async () => {
      const bids = [bid(1), bid(2)];
      let me = member(1);
      let current = room({
        status: 'signing',
        members: [me, member(2)],
        me,
        actions: { ...NO_ACTIONS, declare: true },
      });
      const server = serve(() => current, {
        'POST /ks/trade/review/declare': () => {
          me = { ...me, declaredAt: '2026-12-22T01:05:00.000Z' };
          current = { ...current, me, members: [me, member(2)], actions: { ...NO_ACTIONS, signIn: ['ZS', 'JS'] } };
          return { data: current };
        },
        'POST /ks/trade/review/sign-in': (req) => {
          me = { ...me, signins: { ...me.signins, [json(req).panel]: '2026-12-22T01:06:00.000Z' } };
          current = { ...current, me, members: [me, member(2)], bids, actions: { ...NO_ACTIONS, signIn: ['JS'] } };
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidSign'));
      await screen.findByTestId('eval-declare-card', {}, SLOW);
      // no sign-in before the declaration
      expect(screen.queryByTestId('eval-signin-ZS')).toBeNull();
      expect(screen.getByTestId('eval-signin-wait-ZS').textContent).toBe(EVAL_MSG.mustDeclare);
      expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.bidInfo) ?? '{}')).toEqual({
        sectionId: SECTION_ID,
        code: 'BD-01',
        name: '施工标段',
        projectName: '忻州学生公寓楼建设工程',
      });
      expect(JSON.parse(sessionStorage.getItem(SESSION_KEYS.bidSolution) ?? '{}').criteria).toEqual(CRITERIA);

      // and no bids
      await user.click(screen.getByTestId('eval-step-link-bidDoc'));
      expect((await screen.findByTestId('eval-bids-hidden')).textContent).toContain(EVAL_MSG.mustDeclare);
      expect(screen.queryByTestId(`eval-bid-row-${bids[0].bidId}`)).toBeNull();

      // the declaration, confirmed
      await user.click(screen.getByTestId('eval-step-link-bidSign'));
      await user.click(await screen.findByTestId('eval-declare-submit'));
      expect(server.callsTo('/ks/trade/review/declare')).toHaveLength(0);
      await user.click(await screen.findByTestId('confirm-ok'));
      await screen.findByTestId('eval-declared');
      expect(server.callsTo('/ks/trade/review/declare').map(json)).toEqual([
        { sectionId: SECTION_ID, conflict: false },
      ]);

      // then the sign-in, then the bids
      await user.click(await screen.findByTestId('eval-signin-ZS'));
      expect((await screen.findByTestId('eval-signed-ZS')).textContent).toContain('2026-12-22 09:06:00');
      expect(server.callsTo('/ks/trade/review/sign-in').map(json)).toEqual([{ sectionId: SECTION_ID, panel: 'ZS' }]);
      await user.click(screen.getByTestId('eval-step-link-bidDoc'));
      const row = await screen.findByTestId(`eval-bid-row-${bids[0].bidId}`);
      expect(row.textContent).toContain('示例建设工程有限公司1');
      expect(row.textContent).toContain('10,100,000.00');
      expect(screen.queryByTestId('eval-bids-hidden')).toBeNull();
    },
    T,
  );

  it(
    'applying to avoid the section needs a reason of at least 4 characters',
    async () => {
      const me = member(1);
      const server = serve(
        () => room({ status: 'signing', members: [me], me, actions: { ...NO_ACTIONS, declare: true } }),
        { 'POST /ks/trade/review/declare': () => ({ data: room() }) },
      );
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidSign'));
      await user.click(await screen.findByTestId('eval-declare-conflict', {}, SLOW));
      await user.type(await screen.findByTestId('eval-declare-text'), '亲属');
      await user.click(screen.getByTestId('eval-declare-submit'));
      await user.click(await screen.findByTestId('confirm-ok'));
      expect(await screen.findByText('回避事由至少 4 个字')).toBeTruthy();
      expect(server.callsTo('/ks/trade/review/declare')).toHaveLength(0);
      await user.type(screen.getByTestId('eval-declare-text'), '在投标人任职');
      await user.click(screen.getByTestId('eval-declare-submit'));
      await user.click((await screen.findAllByTestId('confirm-ok')).at(-1)!);
      await waitFor(() => expect(server.callsTo('/ks/trade/review/declare')).toHaveLength(1));
      expect(json(server.callsTo('/ks/trade/review/declare')[0])).toEqual({
        sectionId: SECTION_ID,
        conflict: true,
        text: '亲属在投标人任职',
      });
    },
    T,
  );

  it(
    're-reads the room on a live `evaluation` event of its section, not of another',
    async () => {
      const server = serve(() => room({ role: 'viewer' }));
      renderRoutes(routes, roomUrl('bidOverview'));
      await screen.findByTestId('eval-step-overview', {}, SLOW);
      const before = server.callsTo(ROOM).length;
      act(() => dispatchLive('evaluation', { sectionId: uuid(999) }));
      await new Promise((r) => setTimeout(r, 50));
      expect(server.callsTo(ROOM).length).toBe(before);
      act(() => dispatchLive('evaluation', { sectionId: SECTION_ID }));
      await waitFor(() => expect(server.callsTo(ROOM).length).toBe(before + 1));
      expect(server.callsTo(ROOM).at(-1)!.url).toContain(`sectionId=${SECTION_ID}`);
    },
    T,
  );
});

/** A member of ZS and JS, signed in to both, scoring: two bids. */
function scoringRoom(over: Partial<EvalRoom> = {}, meOver: Partial<EvalMember> = {}): EvalRoom {
  const me = member(1, {
    declaredAt: '2026-12-22T01:05:00.000Z',
    signins: { ZS: '2026-12-22T01:06:00.000Z', JS: '2026-12-22T01:06:30.000Z', SW: null },
    ...meOver,
  });
  return room({
    members: [me, member(2), member(3)],
    me,
    bids: [bid(1), bid(2)],
    actions: { ...NO_ACTIONS, score: ['ZS', 'JS'] },
    ...over,
  });
}

describe('scoring', () => {
  it(
    'saves only its panel’s cells with the values typed; a deviation refusal shows the server’s message and the cells',
    async () => {
      const b1 = uuid(101);
      const b2 = uuid(102);
      const current = scoringRoom({
        myScores: [{ bidId: b1, itemId: 'q1', score: null, pass: true, reason: '' }],
      });
      const server = serve(() => current, {
        'POST /ks/trade/review/save-result': () => ({ data: current }),
        // as the server refuses it: the message names the cells, the data lists them
        'POST /ks/trade/review/submit': () => ({
          status: 400,
          code: 400,
          message: `${EVAL_MSG.deviation}：示例建设工程有限公司2「施工方案与技术措施」：您评 2 分，中位数 16 分`,
          data: {
            cells: [
              {
                bidId: b2,
                enterpriseName: '示例建设工程有限公司2',
                itemId: 't1',
                itemName: '施工方案与技术措施',
                score: 2,
                median: 16,
              },
            ],
          },
        }),
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidReview'));
      const js = await screen.findByTestId('eval-grid-JS', {}, SLOW);
      await user.type(within(js).getByTestId(`eval-score-${b1}-t1`), '17.5');
      await user.type(within(js).getByTestId(`eval-score-${b1}-t2`), '8');
      await user.click(within(js).getByTestId(`eval-reason-toggle-${b1}-t2`));
      await user.type(within(js).getByTestId(`eval-reason-${b1}-t2`), '质量措施完整');
      expect(within(js).getByTestId(`eval-total-JS-${b1}`).textContent).toBe('25.50');
      await user.click(within(js).getByTestId('eval-save-JS'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/save-result')).toHaveLength(1));
      expect(json(server.callsTo('/ks/trade/review/save-result')[0])).toEqual({
        sectionId: SECTION_ID,
        panel: 'JS',
        scores: [
          { bidId: b1, itemId: 't1', score: 17.5, reason: '' },
          { bidId: b1, itemId: 't2', score: 8, reason: '质量措施完整' },
        ],
      });

      // 提交 of an incomplete grid is stopped here, naming how many are left
      await user.click(within(js).getByTestId('eval-submit-JS'));
      expect((await within(js).findByTestId('eval-grid-error-JS')).textContent).toContain(EVAL_MSG.incomplete(2));
      expect(server.callsTo('/ks/trade/review/submit')).toHaveLength(0);

      await user.type(within(js).getByTestId(`eval-score-${b2}-t1`), '2');
      await user.type(within(js).getByTestId(`eval-score-${b2}-t2`), '9');
      await user.click(within(js).getByTestId('eval-submit-JS'));
      await user.click(await screen.findByTestId('confirm-ok'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/submit')).toHaveLength(1));
      expect(json(server.callsTo('/ks/trade/review/submit')[0])).toEqual({ sectionId: SECTION_ID, panel: 'JS' });
      // saved first, the JS cells only
      const saved = json(server.callsTo('/ks/trade/review/save-result')[1]);
      expect(saved.panel).toBe('JS');
      expect(saved.scores.map((s: { itemId: string }) => s.itemId).sort()).toEqual(['t1', 't1', 't2', 't2']);
      const alert = await within(js).findByTestId('eval-grid-error-JS');
      expect(alert.textContent).toBe(
        `${EVAL_MSG.deviation}：示例建设工程有限公司2「施工方案与技术措施」：您评 2 分，中位数 16 分`,
      );
      expect(within(js).getByTestId(`eval-cell-${b2}-t1`).closest('td')!.className).toContain('eval-cell-flagged');
      expect(within(js).getByTestId(`eval-cell-${b1}-t1`).closest('td')!.className).not.toContain('eval-cell-flagged');
      expect(within(js).getByTestId(`eval-reason-${b2}-t1`)).toBeTruthy();
      // shown in the grid, not in the global prompt
      expect(currentPrompt()).toBeNull();
      // the ZS grid beside it kept its own saved cell and sent nothing
      const zs = screen.getByTestId('eval-grid-ZS');
      expect(within(zs).getByTestId(`eval-cell-${b1}-q1`).querySelector('input[type=radio]:checked')).toBeTruthy();
    },
    T,
  );

  it(
    'a 不合格 needs its reason before the qualification grid can be submitted',
    async () => {
      const b1 = uuid(101);
      const server = serve(() => scoringRoom(), {
        'POST /ks/trade/review/save-result': () => ({ data: scoringRoom() }),
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidReview'));
      const zs = await screen.findByTestId('eval-grid-ZS', {}, SLOW);
      for (const cell of within(zs).getAllByTestId(/^eval-cell-/)) await user.click(within(cell).getByText('合格'));
      await user.click(within(within(zs).getByTestId(`eval-cell-${b1}-q2`)).getByText('不合格'));
      await user.click(within(zs).getByTestId('eval-submit-ZS'));
      expect((await within(zs).findByTestId('eval-grid-error-ZS')).textContent).toContain(
        EVAL_MSG.failNeedsReason('示例建设工程有限公司1', '项目经理具备注册建造师资格'),
      );
      expect(screen.queryByTestId('confirm-ok')).toBeNull();
      await user.click(within(zs).getByTestId('eval-save-ZS'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/save-result')).toHaveLength(1));
      const sent = json(server.callsTo('/ks/trade/review/save-result')[0]);
      expect(sent.panel).toBe('ZS');
      expect(sent.scores).toContainEqual({ bidId: b1, itemId: 'q2', pass: false, reason: '' });
      expect(sent.scores).toHaveLength(4);
    },
    T,
  );

  it(
    'any other refusal of 提交 is the server’s message in the global prompt',
    async () => {
      const b1 = uuid(101);
      const b2 = uuid(102);
      const full = scoringRoom({
        actions: { ...NO_ACTIONS, score: ['JS'] },
        myScores: [b1, b2].flatMap((bidId) =>
          ['t1', 't2'].map((itemId) => ({ bidId, itemId, score: 5, pass: null, reason: '' })),
        ),
      });
      serve(() => full, {
        'POST /ks/trade/review/save-result': () => ({ data: full }),
        'POST /ks/trade/review/submit': () => ({ status: 409, code: 409, message: EVAL_MSG.notScoring }),
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidReview'));
      await user.click(await screen.findByTestId('eval-submit-JS', {}, SLOW));
      await user.click(await screen.findByTestId('confirm-ok'));
      await waitFor(() => expect(currentPrompt()?.message).toBe(EVAL_MSG.notScoring));
      expect(screen.queryByTestId('eval-grid-error-JS')).toBeNull();
    },
    T,
  );

  it(
    'a submitted panel is read-only with its time; the host sees each member’s progress',
    async () => {
      const b1 = uuid(101);
      serve(() =>
        scoringRoom(
          {
            actions: { ...NO_ACTIONS, score: ['ZS'] },
            myScores: [
              { bidId: b1, itemId: 't1', score: 18, pass: null, reason: '方案合理' },
              { bidId: b1, itemId: 'q1', score: null, pass: true, reason: '' },
            ],
          },
          { submitted: { ZS: null, JS: '2026-12-22T02:30:00.000Z', SW: null } },
        ),
      );
      renderRoutes(routes, roomUrl('bidReview'));
      const js = await screen.findByTestId('eval-grid-JS', {}, SLOW);
      expect(within(js).getByTestId('eval-submitted-JS').textContent).toContain('2026-12-22 10:30:00');
      expect(within(js).queryByTestId('eval-save-JS')).toBeNull();
      expect(within(js).queryByTestId('eval-submit-JS')).toBeNull();
      expect(js.querySelector('input')).toBeNull();
      expect(within(js).getByTestId(`eval-cell-${b1}-t1`).textContent).toContain('18.00');
      expect(within(js).getByTestId(`eval-cell-${b1}-t1`).textContent).toContain('方案合理');
      // the ZS grid is still the member's to score
      expect(within(screen.getByTestId('eval-grid-ZS')).getByTestId('eval-save-ZS')).toBeTruthy();
      expect(within(screen.getByTestId(`eval-progress-JS`)).getByText('已提交')).toBeTruthy();
    },
    T,
  );

  it(
    'the panel view /bidEvaluationSys/SWbidEvaluation is the SW review',
    async () => {
      const me = member(1, {
        panels: ['ZS', 'SW'],
        declaredAt: '2026-12-22T01:05:00.000Z',
        signins: { ZS: null, JS: null, SW: null },
      });
      serve(() => scoringRoom({ me, members: [me], actions: NO_ACTIONS }));
      renderRoutes(routes, `/bidEvaluationSys/SWbidEvaluation?sectionId=${SECTION_ID}`);
      expect((await screen.findByTestId('eval-review-blocked-SW', {}, SLOW)).textContent).toBe(
        EVAL_MSG.notSignedIn('SW'),
      );
      expect(screen.queryByTestId('eval-review-JS')).toBeNull();
      expect(screen.queryByTestId('eval-steps')).toBeNull();
    },
    T,
  );
});

const RESULT: NonNullable<EvalRoom['result']> = {
  method: 'comprehensive',
  benchmark: {
    rule: 'meanDropExtremes',
    prices: [9_800_000, 10_000_000, 10_200_000, 10_400_000, 11_000_000],
    dropped: [9_800_000, 11_000_000],
    mean: 10_200_000,
    k: 0.95,
    value: 9_690_000,
  },
  rows: [
    {
      bidId: uuid(102),
      qualified: true,
      failures: [],
      technical: { totals: {}, dropped: [], value: 25.5 },
      business: { totals: {}, dropped: [], value: 8 },
      price: 10_000_000,
      deviationPct: 3.2,
      priceScore: 53.6,
      total: 87.1,
      rank: 1,
    },
    {
      bidId: uuid(101),
      qualified: true,
      failures: [],
      technical: { totals: {}, dropped: [], value: 22 },
      business: { totals: {}, dropped: [], value: 7 },
      price: 10_200_000,
      deviationPct: 5.26,
      priceScore: 49.48,
      total: 78.48,
      rank: 2,
    },
    {
      bidId: uuid(103),
      qualified: false,
      failures: [
        { itemId: 'q2', name: '项目经理具备注册建造师资格', fails: 2, of: 3, reasons: ['项目经理有在建项目'] },
      ],
      technical: null,
      business: null,
      price: 9_800_000,
      deviationPct: null,
      priceScore: null,
      total: null,
      rank: null,
    },
  ],
};

describe('the result', () => {
  it(
    'shows the ranking, the failures with their reasons and the benchmark’s working',
    async () => {
      serve(() => room({ role: 'viewer', status: 'reporting', bids: [bid(1), bid(2), bid(3)], result: RESULT }));
      renderRoutes(routes, roomUrl('bidResult'));
      const table = await screen.findByTestId('eval-result', {}, SLOW);
      const rows = within(table).getAllByTestId(/^eval-result-row-/);
      expect(rows.map((r) => r.getAttribute('data-testid'))).toEqual([
        `eval-result-row-${uuid(102)}`,
        `eval-result-row-${uuid(101)}`,
        `eval-result-row-${uuid(103)}`,
      ]);
      expect(within(rows[0]).getByTestId('eval-rank').textContent).toBe('1');
      expect(rows[0].textContent).toContain('示例建设工程有限公司2');
      expect(rows[0].textContent).toContain('87.10');
      expect(rows[0].textContent).toContain('+3.20%');
      expect(rows[0].textContent).toContain('53.60');
      expect(rows[2].textContent).toContain('不合格');
      expect(rows[2].textContent).toContain('「项目经理具备注册建造师资格」2/3 人判定不合格：项目经理有在建项目');
      const working = screen.getByTestId('eval-benchmark').textContent;
      expect(working).toContain('有效投标报价（由低到高）：9,800,000.00、10,000,000.00、10,200,000.00');
      expect(working).toContain('去掉最高、最低报价：9,800,000.00、11,000,000.00');
      expect(working).toContain('算术平均值：10,200,000.00 元');
      expect(working).toContain('评标基准价 = 10,200,000.00 × 0.95 = 9,690,000.00 元');
      expect(screen.queryByTestId('eval-result-actions')).toBeNull();
    },
    T,
  );

  it(
    'the chair sees 退回重评 and 汇总评标结果 and uses them',
    async () => {
      const chair = member(1, {
        chair: true,
        declaredAt: '2026-12-22T01:05:00.000Z',
        submitted: { ZS: '2026-12-22T02:00:00.000Z', JS: '2026-12-22T02:10:00.000Z', SW: null },
      });
      const other = member(2, {
        declaredAt: '2026-12-22T01:05:00.000Z',
        submitted: { ZS: '2026-12-22T02:00:00.000Z', JS: '2026-12-22T02:11:00.000Z', SW: null },
      });
      let current = room({
        members: [chair, other],
        me: chair,
        bids: [bid(1), bid(2)],
        actions: { ...NO_ACTIONS, reopen: true, render: true },
      });
      const server = serve(() => current, {
        'POST /ks/trade/review/reopen': () => ({ data: current }),
        'POST /ks/trade/review/render-result': () => {
          current = { ...current, status: 'reporting', result: RESULT, actions: { ...NO_ACTIONS, sign: true } };
          return { data: current };
        },
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidResult'));
      await user.click(await screen.findByTestId('eval-reopen', {}, SLOW));
      fireEvent.mouseDown(within(await screen.findByTestId('eval-reopen-member')).getByRole('combobox'));
      await user.click(await screen.findByTitle('专家2'));
      await user.click(await screen.findByTestId('eval-reopen-panel-JS'));
      await user.type(screen.getByTestId('eval-reopen-reason'), '评分明显');
      await user.click(screen.getByTestId('eval-reopen-ok'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/reopen')).toHaveLength(1));
      expect(json(server.callsTo('/ks/trade/review/reopen')[0])).toEqual({
        sectionId: SECTION_ID,
        memberId: other.id,
        panel: 'JS',
        reason: '评分明显',
      });

      await user.click(screen.getByTestId('eval-render'));
      await user.click(await screen.findByTestId('confirm-ok'));
      await screen.findByTestId('eval-result');
      expect(server.callsTo('/ks/trade/review/render-result').map(json)).toEqual([{ sectionId: SECTION_ID }]);
      expect(screen.queryByTestId('eval-render')).toBeNull();
      expect(screen.getByTestId('eval-sign')).toBeTruthy();
    },
    T,
  );

  it(
    'a member who is not the chair gets neither button',
    async () => {
      const me = member(2, { declaredAt: '2026-12-22T01:05:00.000Z' });
      serve(() => room({ members: [member(1, { chair: true }), me], me, actions: NO_ACTIONS }));
      renderRoutes(routes, roomUrl('bidResult'));
      await screen.findByTestId('eval-step-result', {}, SLOW);
      expect(screen.queryByTestId('eval-reopen')).toBeNull();
      expect(screen.queryByTestId('eval-render')).toBeNull();
      expect(screen.getByTestId('eval-chair-name').textContent).toBe('专家1');
    },
    T,
  );

  it(
    'signing with a dissent needs its reasons',
    async () => {
      const me = member(2, { declaredAt: '2026-12-22T01:05:00.000Z' });
      const server = serve(
        () => room({ status: 'reporting', members: [me], me, result: RESULT, actions: { ...NO_ACTIONS, sign: true } }),
        { 'POST /ks/trade/review/save-report': () => ({ data: room() }) },
      );
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidResult'));
      await user.click(await screen.findByTestId('eval-sign', {}, SLOW));
      await user.click(await screen.findByTestId('eval-sign-dissent-option'));
      await user.click(screen.getByTestId('eval-sign-ok'));
      expect(await screen.findByText(EVAL_MSG.dissentNeedsReason)).toBeTruthy();
      expect(server.callsTo('/ks/trade/review/save-report')).toHaveLength(0);
      await user.type(screen.getByTestId('eval-sign-dissent'), '价格分计算方法不当');
      await user.click(screen.getByTestId('eval-sign-ok'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/save-report')).toHaveLength(1));
      expect(json(server.callsTo('/ks/trade/review/save-report')[0])).toEqual({
        sectionId: SECTION_ID,
        agree: false,
        dissent: '价格分计算方法不当',
      });
    },
    T,
  );
});

describe('the method', () => {
  it(
    'the host edits the method; the problems criteriaProblems finds hold 保存 back',
    async () => {
      const server = serve(() => room({ role: 'host', status: 'signing', actions: { ...NO_ACTIONS, method: true } }), {
        'POST /ks/trade/review/method': (req) => ({ data: room({ criteria: json(req).criteria }) }),
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidMethodSw'));
      expect((await screen.findByTestId('eval-price-formula', {}, SLOW)).textContent).toContain('每高 1% 扣 2 分');
      await user.click(screen.getByTestId('eval-method-edit'));
      // 20 + 10 + 10 + 60 = 100: nothing to say
      await screen.findByTestId('eval-method-drawer');
      expect(screen.queryByTestId('eval-method-problems')).toBeNull();
      const max = screen.getByTestId('eval-method-technical-0-max');
      await user.clear(max);
      await user.type(max, '25');
      expect((await screen.findByTestId('eval-method-problems')).textContent).toContain(
        '技术分、商务分与价格分的满分合计应为 100 分（现为 105 分）',
      );
      expect((screen.getByTestId('eval-method-save') as HTMLButtonElement).disabled).toBe(true);
      await user.clear(screen.getByTestId('eval-method-price-max'));
      await user.type(screen.getByTestId('eval-method-price-max'), '55');
      await waitFor(() => expect(screen.queryByTestId('eval-method-problems')).toBeNull());
      await user.click(screen.getByTestId('eval-method-save'));
      await waitFor(() => expect(server.callsTo('/ks/trade/review/method')).toHaveLength(1));
      const sent = json(server.callsTo('/ks/trade/review/method')[0]);
      expect(sent.sectionId).toBe(SECTION_ID);
      expect(sent.criteria).toEqual({
        ...CRITERIA,
        technical: [{ ...CRITERIA.technical[0], max: 25 }, CRITERIA.technical[1]],
        price: { ...CRITERIA.price, max: 55 },
      });
    },
    T,
  );
});

describe('评标澄清 in the room', () => {
  const CLARIFY = '/ks/trade/review/clarify';
  const REVOKE = '/ks/trade/review/clarify-revoke';

  it(
    'the chair asks a bidder from 投标文件 with a deadline, and withdraws the unanswered question with a reason',
    async () => {
      const chair = member(1, { chair: true, declaredAt: '2026-12-22T01:05:00.000Z' });
      let current = room({
        members: [chair],
        me: chair,
        bids: [bid(1), bid(2)],
        actions: { ...NO_ACTIONS, clarify: true },
      });
      const server = serve(() => current, {
        [`POST ${CLARIFY}`]: (req) => {
          const b = json(req);
          current = {
            ...current,
            clarifications: [
              {
                id: uuid(900),
                bidId: b.bidId,
                enterpriseName: '示例建设工程有限公司2',
                question: b.question,
                deadline: b.deadline,
                askedBy: '专家1',
                askedAt: new Date().toISOString(),
                status: 'asked',
                answer: null,
                answeredAt: null,
                answeredBy: null,
                files: [],
                revokeReason: null,
              },
            ],
          };
          return { data: current };
        },
        [`POST ${REVOKE}`]: () => ({ data: current }),
      });
      const user = userEvent.setup();
      renderRoutes(routes, roomUrl('bidDoc'));
      await user.click(await screen.findByTestId('eval-clarify-ask', {}, SLOW));
      fireEvent.mouseDown(within(await screen.findByTestId('eval-clarify-bid')).getByRole('combobox'));
      await user.click(await screen.findByTitle('示例建设工程有限公司2'));
      await user.type(screen.getByTestId('eval-clarify-question'), '请说明安全文明施工费的计取依据');
      const before = Date.now();
      await user.click(screen.getByTestId('eval-clarify-ask-ok'));
      await waitFor(() => expect(server.callsTo(CLARIFY)).toHaveLength(1));
      const sent = json(server.callsTo(CLARIFY)[0]);
      expect(sent).toMatchObject({
        sectionId: SECTION_ID,
        bidId: bid(2).bidId,
        question: '请说明安全文明施工费的计取依据',
      });
      // the default deadline: two hours ahead, to the minute
      expect(Math.abs(Date.parse(sent.deadline) - before - 2 * 3_600_000)).toBeLessThan(2 * 60_000);

      const row = await screen.findByTestId(`eval-clarify-row-${uuid(900)}`);
      expect(row.textContent).toContain('待答复');
      await user.click(within(row).getByTestId(`eval-clarify-revoke-${uuid(900)}`));
      await user.type(await screen.findByTestId('eval-clarify-revoke-reason'), '已在投标文件中找到依据');
      await user.click(screen.getByTestId('eval-clarify-revoke-ok'));
      await waitFor(() => expect(server.callsTo(REVOKE)).toHaveLength(1));
      expect(json(server.callsTo(REVOKE)[0])).toEqual({ id: uuid(900), reason: '已在投标文件中找到依据' });
    },
    T,
  );

  it(
    'a member who is not the chair reads the questions and answers but cannot ask',
    async () => {
      const me = member(2, {
        declaredAt: '2026-12-22T01:05:00.000Z',
        signins: { ZS: '2026-12-22T01:10:00.000Z', JS: null, SW: null },
      });
      serve(() =>
        room({
          members: [member(1, { chair: true }), me],
          me,
          bids: [bid(1)],
          clarifications: [
            {
              id: uuid(901),
              bidId: bid(1).bidId,
              enterpriseName: '示例建设工程有限公司1',
              question: '请说明工期安排',
              deadline: '2026-12-22T06:00:00.000Z',
              askedBy: '专家1',
              askedAt: '2026-12-22T04:00:00.000Z',
              status: 'answered',
              answer: '冬季施工采取综合蓄热法',
              answeredAt: '2026-12-22T05:00:00.000Z',
              answeredBy: '张建国',
              files: [{ id: uuid(902), name: '工期说明.pdf', size: 1024 }],
              revokeReason: null,
            },
          ],
          actions: NO_ACTIONS,
        }),
      );
      renderRoutes(routes, roomUrl('bidDoc'));
      const card = await screen.findByTestId('eval-clarify-card', {}, SLOW);
      expect(within(card).getByTestId(`eval-clarify-answer-${uuid(901)}`).textContent).toBe('冬季施工采取综合蓄热法');
      expect(within(card).getByTestId(`eval-clarify-file-${uuid(902)}`).textContent).toContain('工期说明.pdf');
      expect(within(card).getByText('已答复')).toBeTruthy();
      expect(screen.queryByTestId('eval-clarify-ask')).toBeNull();
      expect(screen.queryByTestId(`eval-clarify-revoke-${uuid(901)}`)).toBeNull();
    },
    T,
  );
});
