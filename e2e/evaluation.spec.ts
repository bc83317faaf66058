import { EVAL_MSG } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { newClient, type Role, signIn } from './helpers';

/**
 * Issue 17, evaluation and results, on the demo's SXGC-2026-1006 BD-01 (opened two hours before the server seeded; the
 * agent began its evaluation with five confirmed experts — zj1…zj3 房屋建筑工程 in the technical panel, zj4 and zj5 工程造价
 * in the business panel, all in qualification): three experts sign in in their browsers, declare no conflict and
 * score; one deviating score needs a written reason; the chair asks a bidder to clarify, who answers in its hall; the
 * chair reopens another expert's scores with a reason; the
 * chair renders the ranking; the candidates go to the portal; the supervisor follows every step; the log verifies.
 * zj4 and zj5 (and the qualification panel, pass/fail for every bid) act through the API from their signed-in pages.
 */
test.describe.configure({ mode: 'serial', timeout: 900_000 });

const PROJECT = '晋中市榆次区第二人民医院门诊综合楼建设工程';

async function person(browser: Parameters<typeof newClient>[0], account: string, role: Role = 'U') {
  const { context, page } = await newClient(browser);
  await signIn(page, account, role);
  await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
  return { context, page };
}

/** A call of the platform's API as the signed-in user of the page. */
async function api(page: Page, path: string, body?: unknown) {
  return page.evaluate(
    async ({ path, body }) => {
      const raw = sessionStorage.getItem('token');
      const token = raw?.startsWith('"') ? JSON.parse(raw) : raw;
      const r = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    },
    { path, body },
  );
}

interface Room {
  me: { id: string; name: string } | null;
  bids: { bidId: string }[];
  criteria: {
    qualification: { id: string }[];
    technical: { id: string; max: number }[];
    business: { id: string; max: number }[];
  };
}
const roomOf = async (page: Page, sectionId: string) =>
  (await api(page, `/ks/trade/review/result?sectionId=${sectionId}`)).body.data as Room;

/** Fill a panel's grid in the browser: each bid's share of each item's highest score. */
async function fillGrid(page: Page, room: Room, items: { id: string; max: number }[], shares: number[]) {
  for (const [i, b] of room.bids.entries()) {
    for (const it of items) {
      const cell = page.getByTestId(`eval-score-${b.bidId}-${it.id}`);
      const input = cell
        .locator('input')
        .or(cell.and(page.locator('input')))
        .first();
      await input.fill(String(Math.round(it.max * shares[i]! * 100) / 100));
    }
  }
}

const started = Date.now();
const mark = (what: string) =>
  console.info(`[evaluation.spec] ${((Date.now() - started) / 1000).toFixed(1)} s ${what}`);

test('three experts score, a deviation needs a reason, the chair reopens, results rank and go to the portal', async ({
  browser,
}) => {
  // the host's overview (the sidebar's 评审概览) lists the section; the supervisor watches the room
  const agent = await person(browser, 'agent');
  await agent.page.goto('/bidEvaluationSys/overview');
  const row = agent.page.locator('tr', { hasText: PROJECT });
  await expect(row).toContainText('专家签到与推选组长', { timeout: 30_000 });
  await row.getByRole('link').first().click();
  await expect(agent.page).toHaveURL(/\/bidStep\/bidOverview\?sectionId=/);
  const sectionId = new URL(agent.page.url()).searchParams.get('sectionId')!;
  const supervisor = await person(browser, 'supervisor');
  await supervisor.page.goto(`/bidStep/bidOverview?sectionId=${sectionId}`);
  await expect(supervisor.page.getByTestId('eval-events')).toContainText('开始评标', { timeout: 30_000 });

  mark('start');
  // three experts in their browsers: the workbench, the declaration before any bid, then the sign-ins
  const experts = await Promise.all(['zj1', 'zj2', 'zj3'].map((a) => person(browser, a)));
  for (const e of experts) {
    await e.page.goto('/bidZj/KbZj');
    await expect(e.page.getByTestId('eval-expert-pending')).toContainText(PROJECT, { timeout: 30_000 });
    await e.page.goto(`/bidStep/bidDoc?sectionId=${sectionId}`);
    await expect(e.page.getByTestId('eval-bids-hidden')).toBeVisible({ timeout: 30_000 });
    await e.page.goto(`/bidStep/bidSign?sectionId=${sectionId}`);
    await e.page.getByTestId('eval-declare-none').click();
    await e.page.getByTestId('eval-declare-submit').click();
    await e.page.getByTestId('confirm-ok').click();
    await expect(e.page.getByTestId('eval-declared')).toBeVisible({ timeout: 20_000 });
    await e.page.getByTestId('eval-signin-ZS').click();
    await expect(e.page.getByTestId('eval-signed-ZS')).toBeVisible({ timeout: 20_000 });
    await e.page.goto(`/bidStep/bidSignZj?sectionId=${sectionId}`);
    await e.page.getByTestId('eval-signin-JS').click();
    await expect(e.page.getByTestId('eval-signed-JS')).toBeVisible({ timeout: 20_000 });
  }
  mark('experts signed in');
  const [zj1, zj2, zj3] = experts as [typeof agent, typeof agent, typeof agent];
  // now the bids are shown to them
  await zj1.page.goto(`/bidStep/bidDoc?sectionId=${sectionId}`);
  await expect(zj1.page.getByTestId('eval-bids')).toBeVisible({ timeout: 20_000 });

  mark('bids shown');
  // zj4 and zj5 declare and sign in through the API
  const economists = await Promise.all(['zj4', 'zj5'].map((a) => person(browser, a)));
  for (const e of economists) {
    expect((await api(e.page, '/ks/trade/review/declare', { sectionId, conflict: false })).status).toBe(200);
    for (const panel of ['ZS', 'SW']) {
      expect((await api(e.page, '/ks/trade/review/sign-in', { sectionId, panel })).status).toBe(200);
    }
  }

  // the chair: zj1 and zj2 vote in their browsers, zj3 through the API — three of five elect zj1
  const room = await roomOf(zj1.page, sectionId);
  const chairId = room.me!.id;
  for (const e of [zj1, zj2]) {
    await e.page.goto(`/bidStep/zjInfo?sectionId=${sectionId}`);
    await e.page.getByTestId(`eval-vote-${chairId}`).click();
    await e.page.getByTestId('confirm-ok').click();
    await expect(e.page.getByTestId(`eval-vote-${chairId}`))
      .toHaveCount(0, { timeout: 20_000 })
      .catch(() => undefined);
  }
  expect((await api(zj3.page, '/ks/trade/review/vote', { sectionId, memberId: chairId })).status).toBe(200);
  await expect(supervisor.page.getByTestId('eval-chair-name')).not.toHaveText('尚未推选', { timeout: 20_000 });

  mark('chair');
  // qualification: every expert passes every bid (through the API)
  for (const e of [...experts, ...economists]) {
    const scores = room.bids.flatMap((b) =>
      room.criteria.qualification.map((q) => ({ bidId: b.bidId, itemId: q.id, pass: true })),
    );
    expect((await api(e.page, '/ks/trade/review/save-result', { sectionId, panel: 'ZS', scores })).status).toBe(200);
    expect((await api(e.page, '/ks/trade/review/submit', { sectionId, panel: 'ZS' })).status).toBe(200);
  }

  mark('qualification');
  // technical, in the three browsers: zj1 and zj2 alike, zj3 far below them on bid 1's 施工方案
  const shares = [0.8, 0.7, 0.9];
  for (const e of [zj1, zj2]) {
    await e.page.goto(`/bidStep/bidReview?sectionId=${sectionId}`);
    await expect(e.page.getByTestId('eval-grid-JS')).toBeVisible({ timeout: 20_000 });
    await fillGrid(e.page, room, room.criteria.technical, shares);
    await e.page.getByTestId('eval-submit-JS').click();
    await e.page.getByTestId('confirm-ok').click();
    await expect(e.page.getByTestId('eval-submitted-JS')).toBeVisible({ timeout: 20_000 });
  }
  await zj3.page.goto(`/bidStep/bidReview?sectionId=${sectionId}`);
  await expect(zj3.page.getByTestId('eval-grid-JS')).toBeVisible({ timeout: 20_000 });
  await fillGrid(zj3.page, room, room.criteria.technical, shares);
  const first = room.bids[0]!.bidId;
  const t1 = room.criteria.technical[0]!.id;
  const deviant = zj3.page.getByTestId(`eval-score-${first}-${t1}`);
  await deviant
    .locator('input')
    .or(deviant.and(zj3.page.locator('input')))
    .first()
    .fill('2');
  await zj3.page.getByTestId('eval-submit-JS').click();
  await zj3.page.getByTestId('confirm-ok').click();
  await expect(zj3.page.getByTestId('eval-grid-error-JS')).toContainText(EVAL_MSG.deviation, { timeout: 20_000 });
  await expect(zj3.page.getByTestId('eval-submitted-JS')).toHaveCount(0);
  const reason = zj3.page.getByTestId(`eval-reason-${first}-${t1}`);
  if (!(await reason.isVisible())) await zj3.page.getByTestId(`eval-reason-toggle-${first}-${t1}`).click();
  await reason.fill('施工方案未针对门诊楼不停诊施工作专门安排');
  await zj3.page.getByTestId('eval-submit-JS').click();
  await zj3.page.getByTestId('confirm-ok').click();
  await expect(zj3.page.getByTestId('eval-submitted-JS')).toBeVisible({ timeout: 20_000 });

  mark('technical');
  // business: zj4 and zj5 through the API
  for (const [k, e] of economists.entries()) {
    const scores = room.bids.flatMap((b, i) =>
      room.criteria.business.map((it) => ({
        bidId: b.bidId,
        itemId: it.id,
        score: Math.round(it.max * [0.6, 0.9, 0.5][i]! * (k ? 0.9 : 1) * 100) / 100,
      })),
    );
    expect((await api(e.page, '/ks/trade/review/save-result', { sectionId, panel: 'SW', scores })).status).toBe(200);
    expect((await api(e.page, '/ks/trade/review/submit', { sectionId, panel: 'SW' })).status).toBe(200);
  }

  mark('business');
  // 评标澄清: the chair asks bid2 in writing from 投标文件; bid2 answers in its opening hall; the chair reads it live
  const bidder = await person(browser, 'bid2');
  const bidderName = (await api(bidder.page, `/ks/trade/review/outcome?sectionId=${sectionId}`)).body.data
    .enterpriseName as string;
  await zj1.page.goto(`/bidStep/bidDoc?sectionId=${sectionId}`);
  await zj1.page.getByTestId('eval-clarify-ask').click();
  await zj1.page.getByTestId('eval-clarify-bid').click();
  await zj1.page.locator('.ant-select-item-option', { hasText: bidderName }).click();
  await zj1.page.getByTestId('eval-clarify-question').fill('请说明投标报价中安全文明施工费的计取依据');
  await zj1.page.getByTestId('eval-clarify-ask-ok').click();
  const asked = zj1.page.getByTestId('eval-clarifications').locator('tr', { hasText: bidderName });
  await expect(asked).toContainText('待答复', { timeout: 20_000 });
  await bidder.page.goto(`/bid/bidMeet?sectionId=${sectionId}`);
  const outcomeCard = bidder.page.getByTestId('eval-outcome-card');
  await expect(outcomeCard.getByTestId('eval-clarify-waiting')).toBeVisible({ timeout: 30_000 });
  await outcomeCard.locator('[data-testid^="eval-clarify-reply-"]').click();
  await bidder.page
    .getByTestId('eval-clarify-answer-text')
    .fill('安全文明施工费按山西省现行计价依据规定的费率计取，未参与让利。');
  await bidder.page.getByTestId('eval-clarify-answer-ok').click();
  await expect(outcomeCard.getByTestId('eval-clarify-waiting')).toHaveCount(0, { timeout: 20_000 });
  await expect(asked).toContainText('未参与让利', { timeout: 20_000 });
  await expect(asked).toContainText('已答复');
  await zj1.page.screenshot({ path: 'test-results/evaluation-clarify.png', fullPage: true });
  await bidder.context.close();

  mark('clarified');
  // the chair reopens zj2's technical scores with a reason; zj2's grid opens again (live) and is submitted again
  await zj1.page.goto(`/bidStep/bidResult?sectionId=${sectionId}`);
  await zj1.page.getByTestId('eval-reopen').click();
  await zj1.page.getByTestId('eval-reopen-member').click();
  const zj2Name = (await roomOf(zj2.page, sectionId)).me!.name;
  await zj1.page.locator('.ant-select-item-option', { hasText: zj2Name }).click();
  await zj1.page.getByTestId('eval-reopen-panel-JS').click();
  await zj1.page.getByTestId('eval-reopen-reason').fill('请复核质量管理体系的评分依据');
  await zj1.page.getByTestId('eval-reopen-ok').click();
  await expect(zj1.page.getByTestId('eval-reopens')).toContainText('请复核质量管理体系的评分依据', { timeout: 20_000 });
  await expect(zj2.page.getByTestId('eval-submit-JS')).toBeVisible({ timeout: 20_000 });
  await zj2.page.getByTestId('eval-submit-JS').click();
  await zj2.page.getByTestId('confirm-ok').click();
  await expect(zj2.page.getByTestId('eval-submitted-JS')).toBeVisible({ timeout: 20_000 });

  mark('reopened');
  // the chair renders: the bids ranked, the benchmark worked out
  await expect(zj1.page.getByTestId('eval-render')).toBeVisible({ timeout: 20_000 });
  await zj1.page.getByTestId('eval-render').click();
  await zj1.page.getByTestId('confirm-ok').click();
  await expect(zj1.page.getByTestId('eval-result')).toBeVisible({ timeout: 20_000 });
  await expect(zj1.page.getByTestId('eval-rank')).toHaveText(['1', '2', '3']);
  await expect(zj1.page.getByTestId('eval-benchmark')).toContainText('评标基准价');

  mark('rendered');
  // every member signs the report (zj1 in the browser)
  await zj1.page.getByTestId('eval-sign').click();
  await zj1.page.getByTestId('eval-sign-ok').click();
  await expect(zj1.page.getByTestId('eval-sign')).toHaveCount(0, { timeout: 20_000 });
  for (const e of [zj2, zj3, ...economists]) {
    expect((await api(e.page, '/ks/trade/review/save-report', { sectionId, agree: true })).status).toBe(200);
  }

  mark('signed');
  // the host publishes the candidates to the portal
  await agent.page.goto(`/bidStep/bidPublicity?sectionId=${sectionId}`);
  await agent.page.getByTestId('eval-publish').click();
  await agent.page.getByTestId('eval-publish-ok').click();
  await expect(agent.page.getByTestId('eval-publicity-tag').first()).toContainText('公示中', { timeout: 20_000 });
  const portal = await newClient(browser);
  await portal.page.goto('/transac');
  await expect(portal.page.getByText(`${PROJECT}BD-01中标候选人公示`).first()).toBeVisible({ timeout: 30_000 });
  await portal.context.close();

  mark('published');
  // the supervisor saw every step; anomalies name the reopening
  await supervisor.page.goto(`/bidStep/bidOverview?sectionId=${sectionId}`);
  const events = supervisor.page.getByTestId('eval-events');
  for (const text of [
    '签署回避声明',
    '签到技术评审',
    '当选评标委员会组长',
    '提交技术评审评审结果',
    '退回',
    '汇总评标结果',
    '签署评标报告',
    '公示中标候选人',
  ]) {
    await expect(events).toContainText(text, { timeout: 20_000 });
  }
  await expect(supervisor.page.getByTestId('eval-anomalies')).toContainText('请复核质量管理体系的评分依据');

  // 监督台: the section is the supervisor's (the seed assigned it), its reopening pending audit; the supervisor audits it
  await supervisor.page.goto('/bid/monitor');
  await supervisor.page.getByTestId('monitor-pending').check();
  await expect(supervisor.page.getByTestId(`monitor-anomalies-${sectionId}`)).toContainText('待核查', {
    timeout: 20_000,
  });
  await expect(supervisor.page.getByTestId(`monitor-supervisor-${sectionId}`)).toHaveText('李振华');
  await supervisor.page.getByTestId(`monitor-detail-${sectionId}`).click();
  const drawer = supervisor.page.getByTestId('monitor-drawer');
  const reopened = drawer.getByTestId('monitor-anomaly').filter({ hasText: '请复核质量管理体系的评分依据' });
  await reopened.getByTestId('monitor-audit').click();
  await supervisor.page.getByTestId('monitor-opinion').fill('组长退回理由明确，重评过程已记录，程序合规');
  await supervisor.page.getByTestId('monitor-audit-ok').click();
  await expect(reopened.getByTestId('monitor-finding')).toContainText('合规', { timeout: 20_000 });
  await expect(reopened.getByTestId('monitor-audit')).toHaveCount(0);
  // published, the finding reaches the host's room as 监督意见
  await reopened.getByTestId('monitor-publish').click();
  await supervisor.page.locator('.ant-popconfirm').getByRole('button', { name: '发布' }).click();
  await expect(reopened.getByTestId('monitor-finding-published')).toBeVisible({ timeout: 20_000 });
  await agent.page.goto(`/bidStep/bidOverview?sectionId=${sectionId}`);
  await expect(agent.page.getByTestId('eval-supervision-item')).toContainText('组长退回理由明确', {
    timeout: 20_000,
  });

  mark('supervisor');
  // the log verifies
  await supervisor.page.goto('/bid/ledger');
  await expect(supervisor.page.getByTestId('ledger-verdict')).toHaveText('✓ 日志完整，未发现篡改', { timeout: 20_000 });

  for (const p of [agent, supervisor, ...experts, ...economists]) await p.context.close();
});
