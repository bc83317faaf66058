import type { BidKey, BidSummary, OpeningBid, OpeningHall, OpeningSection } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrapForOpening } from '../../api/opening';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import {
  decryptSummary,
  encryptFile,
  encryptSummary,
  fromBase64,
  importPublicKey,
  makePassphraseKey,
} from '../../lib/bidCrypto';
import { dispatchLive } from '../../lib/live';
import { guardRedirect } from '../../lib/paths';
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
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const SECTION_ID = uuid(1);
const HALL = '/ks/trade/opening/v1/hall';
const PASS = '投标口令 correct horse';
const SUMMARY: BidSummary = { price: 37_680_000.5, durationDays: 365, quality: '合格', manager: '张建国' };
const NO_ACTIONS: OpeningHall['actions'] = {
  signIn: false,
  start: false,
  decrypt: false,
  draw: false,
  read: false,
  respond: false,
  answer: false,
  close: false,
  record: false,
};

function bid(n: number, over: Partial<OpeningBid> = {}): OpeningBid {
  return {
    bidId: uuid(100 + n),
    enterpriseId: uuid(200 + n),
    enterpriseName: `示例建设工程有限公司${n}`,
    status: 'decrypted',
    decryptedAt: '2026-12-21T01:40:00.000Z',
    reason: null,
    signedIn: true,
    order: n,
    reading: null,
    responses: [],
    ...over,
  };
}

function hall(over: Partial<OpeningHall> = {}): OpeningHall {
  return {
    section: {
      id: SECTION_ID,
      code: 'BD-01',
      name: '施工标段',
      projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
      bidDeadline: '2026-12-21T01:30:00.000Z',
    },
    status: 'waiting',
    now: '2026-12-21T01:00:00.000Z',
    role: 'bidder',
    due: false,
    startedAt: null,
    decryptMinutes: null,
    decryptDeadline: null,
    closedAt: null,
    failureReason: null,
    seedCommitment: null,
    seed: null,
    benchmarkK: null,
    signedInCount: 0,
    bids: [],
    mine: null,
    events: [],
    actions: NO_ACTIONS,
    ...over,
  };
}

const HALL_URL = `/bid/bidMeet?sectionId=${SECTION_ID}`;

function serve(answer: () => OpeningHall, handlers: Record<string, Handler> = {}, roleType = 'U') {
  return setupShell({
    roleType: roleType as 'U' | 'M',
    handlers: { [`GET ${HALL}`]: () => ({ data: answer() }), ...handlers },
  }).server;
}

describe('/bid/overview', () => {
  it('lists the sections the caller may enter, with the opening time in the centre’s zone and a way in', async () => {
    const sections: OpeningSection[] = [
      {
        id: SECTION_ID,
        code: 'BD-01',
        name: '施工标段',
        projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
        bidDeadline: '2026-12-21T01:30:00.000Z',
        status: 'reading',
        role: 'host',
      },
    ];
    setupShell({ roleType: 'U', handlers: { 'GET /ks/trade/opening/v1/sections': () => ({ data: sections }) } });
    renderRoutes(routes, '/bid/overview');
    const row = (await screen.findByText('BD-01', {}, SLOW)).closest('tr')!;
    expect(row.textContent).toContain('2026-12-21 09:30');
    expect(row.textContent).toContain('主持人');
    expect(within(row).getByTestId(`opening-section-status-${SECTION_ID}`).textContent).toBe('唱标中');
    expect(within(row).getByTestId(`opening-enter-${SECTION_ID}`).getAttribute('href')).toBe(HALL_URL);
  }, 60_000);

  it('says so when there is none', async () => {
    setupShell({ roleType: 'U', handlers: { 'GET /ks/trade/opening/v1/sections': () => ({ data: [] }) } });
    renderRoutes(routes, '/bid/overview');
    expect(await screen.findByText('暂无可进入的开标项目', {}, SLOW)).toBeTruthy();
  }, 60_000);

  it('needs signing in, unlike the public log verification', () => {
    expect(guardRedirect('/bid/bidMeet', false, null)).toBe('/');
    expect(guardRedirect('/bid/overview', false, null)).toBe('/');
    expect(guardRedirect('/bid/ledger', false, null)).toBeNull();
  });
});

/**
 * A bidder's hall while decrypting (a real passphrase key, a sealed summary): the bidder tries a wrong passphrase, then
 * the right one, and sees its 开标一览表; `answer` is what the server says to the key handed over.
 */
async function unwrapInHall(answer: (decrypted: () => OpeningHall) => ReturnType<Handler>) {
  const made = await makePassphraseKey(PASS, 310_000, 2048);
  const key: BidKey = {
    id: uuid(50),
    kind: 'passphrase',
    algorithm: 'RSA-OAEP-256',
    publicKey: made.publicKey,
    fingerprint: 'ab'.repeat(32),
    encryptedPrivateKey: made.encryptedPrivateKey,
    iv: made.iv,
    kdf: made.kdf,
    caBindingId: null,
    caHolder: null,
    caCertFingerprint: null,
    createdAt: '2026-11-20T02:00:00.000Z',
  };
  const enc = await encryptFile(new Blob(['%PDF-1.7 bid']), await importPublicKey(key.publicKey));
  await enc.chunk(0);
  const sealed = await enc.summary(SUMMARY);
  const own = {
    id: uuid(101),
    fileName: '投标文件.pdf',
    keyId: key.id,
    wrappedKey: enc.wrappedKey,
    summary: sealed,
    plainSha256: enc.plainSha256(),
    cipherSha256: 'c'.repeat(64),
  };
  const decrypting = (status: 'pending' | 'decrypted') =>
    hall({
      status: 'decrypting',
      due: true,
      startedAt: '2026-12-21T01:30:05.000Z',
      decryptMinutes: 30,
      decryptDeadline: '2026-12-21T02:00:05.000Z',
      bids: [bid(1, { bidId: own.id, status, order: null })],
      mine: { enterpriseName: '某某建设工程有限公司', signedIn: true, bid: own, status },
      actions: { ...NO_ACTIONS, decrypt: status === 'pending' },
    });
  let current = decrypting('pending');
  const server = serve(() => current, {
    'GET /ks/trade/bid/v1/key/detail': () => ({ data: key }),
    'GET /ks/ca/config': () => ({ data: { enabled: false, agentUrl: null, message: '未配置' } }),
    'POST /ks/trade/opening/v1/decrypt': () =>
      answer(() => {
        current = decrypting('decrypted');
        return current;
      }),
  });
  renderRoutes(routes, HALL_URL);
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('opening-decrypt', {}, SLOW));
  await user.type(await screen.findByTestId('opening-passphrase'), '不对的口令');
  await user.click(screen.getByTestId('opening-unwrap'));
  expect((await screen.findByTestId('opening-unwrap-error', {}, SLOW)).textContent).toContain('口令不正确');
  expect((screen.getByTestId('opening-submit-key') as HTMLButtonElement).disabled).toBe(true);
  await user.clear(screen.getByTestId('opening-passphrase'));
  await user.type(screen.getByTestId('opening-passphrase'), PASS);
  await user.click(screen.getByTestId('opening-unwrap'));
  const summary = await screen.findByTestId('opening-own-summary', {}, SLOW);
  expect(summary.textContent).toContain('37,680,000.50');
  expect(summary.textContent).toContain('张建国');
  return { server, user, own, sealed };
}

describe('/bid/bidMeet', () => {
  it('shows the reading, prices with separators, the drawn seed, and only the buttons its actions allow', async () => {
    const read = bid(1, { reading: { ...SUMMARY, readAt: '2026-12-21T02:00:00.000Z' } });
    const last = bid(2, {
      reading: {
        price: 1234.5,
        durationDays: 300,
        quality: '优良',
        manager: '李四',
        readAt: '2026-12-21T02:01:00.000Z',
      },
    });
    const late = bid(3, { status: 'late', order: null, reason: '逾期未解密（不予唱标）' });
    serve(() =>
      hall({
        status: 'confirming',
        due: true,
        startedAt: '2026-12-21T01:30:05.000Z',
        decryptMinutes: 30,
        seedCommitment: 'a'.repeat(64),
        seed: 'b'.repeat(64),
        benchmarkK: { candidates: [0.92, 0.95, 0.98], value: 0.95 },
        signedInCount: 3,
        bids: [late, last, read],
        events: [
          {
            seq: 7,
            at: '2026-12-21T01:30:05.000Z',
            kind: 'opening.start',
            actorName: '招标代理',
            text: '开标',
            hash: 'c'.repeat(64),
          },
        ],
        actions: { ...NO_ACTIONS, respond: true },
      }),
    );
    renderRoutes(routes, HALL_URL);
    expect((await screen.findByTestId('opening-status', {}, SLOW)).textContent).toBe('开标结果确认中');
    const row = screen.getByTestId(`opening-bid-row-${read.bidId}`);
    expect(within(row).getByTestId(`opening-price-${read.bidId}`).textContent).toBe('37,680,000.50');
    expect(row.textContent).toContain('张建国');
    // the bid read out last is the one highlighted, and the 唱标 card shows it
    expect(screen.getByTestId(`opening-bid-row-${last.bidId}`).className).toContain('opening-row-current');
    expect(row.className).not.toContain('opening-row-current');
    expect(screen.getByTestId('opening-reading-current').textContent).toContain('1,234.50');
    expect(screen.getByTestId(`opening-bid-row-${late.bidId}`).textContent).toContain('逾期未解密（不予唱标）');
    expect(screen.getByTestId('opening-seed').textContent).toBe('b'.repeat(64));
    expect(screen.getByTestId('opening-k').textContent).toBe('0.95（备选 0.92、0.95、0.98）');
    expect(screen.getByTestId('opening-events').textContent).toContain('招标代理');
    expect(screen.getByTestId('opening-events').textContent).toContain('#7 cccccccccccc');
    for (const id of ['opening-confirm', 'opening-object']) expect(screen.getByTestId(id)).toBeTruthy();
    for (const id of [
      'opening-signin',
      'opening-start',
      'opening-decrypt',
      'opening-draw',
      'opening-read',
      'opening-close',
      'opening-record',
    ]) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
  }, 60_000);

  it('a failed opening says why', async () => {
    serve(() => hall({ status: 'failed', due: true, failureReason: '递交投标文件的投标人少于 3 家，不得开标' }));
    renderRoutes(routes, HALL_URL);
    expect((await screen.findByTestId('opening-failed', {}, SLOW)).textContent).toContain('少于 3 家');
    expect(screen.queryByTestId('opening-actions')).toBeNull();
  }, 60_000);

  it('the host starts the opening with the decryption time entered', async () => {
    let current = hall({ role: 'host', due: true, signedInCount: 3, actions: { ...NO_ACTIONS, start: true } });
    const server = serve(
      () => current,
      {
        'POST /ks/trade/opening/v1/start': (req) => {
          const body = json(req);
          current = hall({
            role: 'host',
            status: 'decrypting',
            due: true,
            startedAt: '2026-12-21T01:30:05.000Z',
            decryptMinutes: body.decryptMinutes,
            decryptDeadline: '2026-12-21T02:15:05.000Z',
            seedCommitment: 'a'.repeat(64),
            bids: [bid(1, { status: 'pending', order: null }), bid(2, { status: 'pending', order: null })],
            actions: { ...NO_ACTIONS, draw: false },
          });
          return { data: current };
        },
      },
      'M',
    );
    const user = userEvent.setup();
    renderRoutes(routes, HALL_URL);
    await user.click(await screen.findByTestId('opening-start', {}, SLOW));
    const minutes = await screen.findByTestId('opening-start-minutes');
    expect((minutes as HTMLInputElement).value).toBe('30');
    await user.clear(minutes);
    await user.type(minutes, '45');
    await user.click(screen.getByTestId('opening-start-ok'));
    await waitFor(() => expect(screen.getByTestId('opening-status').textContent).toBe('投标文件解密中'));
    expect(server.callsTo('/ks/trade/opening/v1/start').map(json)).toEqual([
      { sectionId: SECTION_ID, decryptMinutes: 45 },
    ]);
    expect(screen.queryByTestId('opening-start')).toBeNull();
    expect(screen.getByTestId('opening-countdown')).toBeTruthy();
  }, 60_000);

  it('reads the hall again on a live `opening` event of its section, not of another', async () => {
    const server = serve(() => hall({ signedInCount: 1 }));
    renderRoutes(routes, HALL_URL);
    await screen.findByTestId('opening-status', {}, SLOW);
    const before = server.callsTo(HALL).length;
    act(() => dispatchLive('opening', { sectionId: uuid(999) }));
    await new Promise((r) => setTimeout(r, 50));
    expect(server.callsTo(HALL).length).toBe(before);
    act(() => dispatchLive('opening', { sectionId: SECTION_ID }));
    await waitFor(() => expect(server.callsTo(HALL).length).toBe(before + 1));
    expect(server.callsTo(HALL).at(-1)!.url).toContain(`sectionId=${SECTION_ID}`);
  }, 60_000);

  it('the bidder unwraps the file key with the passphrase, sees its 开标一览表, and hands the key over', async () => {
    const { server, user, own, sealed } = await unwrapInHall((decrypted) => ({ data: decrypted() }));
    expect(server.callsTo('/ks/trade/opening/v1/decrypt')).toHaveLength(0);
    await user.click(screen.getByTestId('opening-submit-key'));
    await waitFor(() => expect(screen.queryByTestId('opening-decrypt')).toBeNull());
    const [sent] = server.callsTo('/ks/trade/opening/v1/decrypt').map(json);
    expect(sent.bidId).toBe(own.id);
    expect(sent.fileKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    // the key handed over is the file key: it opens the sealed summary
    expect(await decryptSummary(fromBase64(sent.fileKey), sealed)).toEqual(SUMMARY);
    expect(screen.getByTestId('opening-mine').textContent).toContain('已解密');
  }, 60_000);

  it('a key handed over after the decryption time is refused, and the dialog closes itself', async () => {
    const { server, user } = await unwrapInHall(() => ({
      status: 403,
      code: 403,
      message: '解密时间已过：该投标文件未在规定时间内解密，不予唱标，本次操作已记录',
    }));
    await user.click(screen.getByTestId('opening-submit-key'));
    await waitFor(() => expect(screen.queryByTestId('opening-submit-key')).toBeNull());
    expect(server.callsTo('/ks/trade/opening/v1/decrypt')).toHaveLength(1);
    expect(screen.getByTestId('opening-mine').textContent).not.toContain('已解密');
  }, 60_000);
});

describe('unwrapForOpening', () => {
  it('opens the summary with the file key, tells a bid without one, and refuses one that is not a 开标一览表', async () => {
    const made = await makePassphraseKey(PASS, 310_000, 2048);
    const key = { ...made, id: uuid(60), caCertFingerprint: null, caHolder: null };
    setupShell({ roleType: 'U', handlers: { 'GET /ks/trade/bid/v1/key/detail': () => ({ data: key }) } });
    const enc = await encryptFile(new Blob(['x']), await importPublicKey(made.publicKey));
    const bidOf = (summary: string | null) => ({ keyId: key.id, wrappedKey: enc.wrappedKey, summary });
    const opened = await unwrapForOpening(bidOf(await enc.summary(SUMMARY)), { passphrase: PASS });
    expect(opened.summary).toEqual(SUMMARY);
    expect(fromBase64(opened.fileKey)).toHaveLength(32);
    expect((await unwrapForOpening(bidOf(null), { passphrase: PASS })).summary).toBeNull();
    const bad = await encryptSummary(fromBase64(opened.fileKey), { ...SUMMARY, price: -1 });
    await expect(unwrapForOpening(bidOf(bad), { passphrase: PASS })).rejects.toThrow(
      '开标一览表的内容不完整或格式有误',
    );
    await expect(unwrapForOpening(bidOf(null), { passphrase: '不对的口令' })).rejects.toThrow('口令不正确');
  }, 60_000);
});
