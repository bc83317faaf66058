import type { Deposit, Guarantee } from '@ks/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest, type TransportRequest } from '../../api/request';
import { routes } from '../../app/routes';
import { resetPrompts } from '../../components/prompt';
import { renderRoutes } from '../../test/render';
import { menu, setupShell } from '../shell/testData';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const json = (req: TransportRequest) => JSON.parse(String(req.body ?? '{}'));
const MENUS = [
  menu({ gnCoding: 'DZBH_BZJ', title: '保证金与保函', systemCoding: 'DZBH', nodeProperties: 'guarantee' }),
];
const URL = '/custom/guarantee?gnCoding=DZBH_BZJ&systemCoding=DZBH';

function deposit(n: number, over: Partial<Deposit> = {}): Deposit {
  return {
    id: null,
    sectionId: uuid(n),
    sectionCode: `BD-0${n}`,
    sectionName: '施工标段',
    projectId: uuid(900),
    projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
    projectCode: 'SXGC-2026-1101',
    enterpriseId: uuid(500),
    enterpriseName: '示例建设工程有限公司',
    amount: 17_000,
    virtualAccount: '1405000000000012345',
    status: 'unpaid',
    secured: false,
    securedBy: null,
    payerAccount: null,
    payerBank: null,
    paidAt: null,
    paidBy: null,
    receivedAt: null,
    receivedBy: null,
    refundedAt: null,
    refundedBy: null,
    refundNote: null,
    dueAt: '2026-12-20T01:30:00.000Z',
    bidDeadline: '2026-12-21T01:30:00.000Z',
    version: 0,
    operations: { pay: true, receive: false, refund: false, applyGuarantee: false },
    ...over,
  };
}
const LETTER: Guarantee = {
  id: uuid(700),
  sectionId: uuid(1),
  sectionCode: 'BD-01',
  sectionName: '施工标段',
  projectName: '太原市晋源区第二实验小学教学综合楼建设工程',
  enterpriseName: '示例建设工程有限公司',
  amount: 770_000,
  status: 'issued',
  issuerName: '晋商银行股份有限公司太原分行',
  guaranteeNo: 'JSBH-2026-110101',
  lastError: null,
  attempts: 1,
  appliedAt: '2026-11-20T02:00:00.000Z',
  appliedBy: '张建国',
  requestedAt: '2026-11-20T03:00:00.000Z',
  issuedAt: '2026-11-20T04:00:00.000Z',
  fileName: '投标保函-BD-01-JSBH-2026-110101.pdf',
  operations: { download: true, retry: false, edit: false },
};

describe('/custom/guarantee', () => {
  it('without an issuer says so plainly, offers cash only, and sends a payment of the fixed amount', async () => {
    let deposits = [
      deposit(1, {
        securedBy: 'guarantee',
        secured: true,
        operations: { pay: false, receive: false, refund: false, applyGuarantee: false },
      }),
      deposit(2, {
        id: uuid(11),
        status: 'received',
        secured: true,
        securedBy: 'cash',
        paidAt: '2026-11-20T02:00:00.000Z',
        paidBy: '张建国',
        receivedAt: '2026-11-20T03:00:00.000Z',
        receivedBy: '平台管理员',
        operations: { pay: false, receive: false, refund: false, applyGuarantee: false },
      }),
      deposit(3, { amount: 476_000 }),
    ];
    const { server } = setupShell({
      roleType: 'U',
      systemCoding: 'DZBH',
      menus: MENUS,
      handlers: {
        'POST /ks/trade/deposit/list': () => ({
          data: { issuer: { configured: false, name: null }, deposits, guarantees: [LETTER] },
        }),
        'POST /ks/trade/deposit/pay': (req) => {
          const b = json(req);
          deposits = deposits.map((d) =>
            d.sectionId === b.sectionId
              ? {
                  ...d,
                  id: uuid(12),
                  status: 'paid' as const,
                  paidAt: '2026-11-21T02:00:00.000Z',
                  paidBy: '张建国',
                  operations: { ...d.operations, pay: false },
                }
              : d,
          );
          return { data: deposits.find((d) => d.sectionId === b.sectionId) };
        },
        'GET /ks/trade/getbaohanfile': () => ({ data: null }),
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, URL);
    const page = await screen.findByTestId('guarantee-page', {}, SLOW);
    expect((await screen.findByTestId('guarantee-issuer-missing')).textContent).toContain('未配置出函机构');
    await waitFor(() => expect(screen.getByTestId('deposit-status-BD-02').textContent).toBe('已到账'));
    expect(page.textContent).toContain('保函替代');
    expect(page.textContent).toContain('476,000.00');
    expect(screen.queryByText('申请保函')).toBeNull();
    // the letter: issuer, number, status, download
    const letters = screen.getByTestId('letter-table');
    expect(letters.textContent).toContain('晋商银行股份有限公司太原分行');
    expect(letters.textContent).toContain('JSBH-2026-110101');
    expect(within(letters).getByTestId('letter-status-BD-01').textContent).toBe('已出函');
    await user.click(screen.getByTestId('letter-download-BD-01'));
    await waitFor(() => expect(server.callsTo('/ks/trade/getbaohanfile')).toHaveLength(1));
    expect(server.callsTo('/ks/trade/getbaohanfile')[0]!.url).toContain(`id=${uuid(700)}`);

    // pay: the amount is the section's, the account and bank are asked for
    await user.click(screen.getByTestId('deposit-pay-BD-03'));
    await user.click(await screen.findByText('确认缴纳'));
    expect(await screen.findByText('付款账号为 8–30 位数字')).toBeTruthy();
    expect(server.callsTo('/ks/trade/deposit/pay')).toHaveLength(0);
    await user.type(screen.getByTestId('deposit-payer-account'), '6222021234567890123');
    await user.type(screen.getByTestId('deposit-payer-bank'), '中国工商银行太原分行');
    await user.click(screen.getByText('确认缴纳'));
    await waitFor(() => expect(server.callsTo('/ks/trade/deposit/pay')).toHaveLength(1));
    expect(json(server.callsTo('/ks/trade/deposit/pay')[0]!)).toEqual({
      sectionId: uuid(3),
      amount: 476_000,
      payerAccount: '6222021234567890123',
      payerBank: '中国工商银行太原分行',
    });
    await waitFor(() => expect(screen.getByTestId('deposit-status-BD-03').textContent).toBe('已缴纳'));
  }, 60_000);

  it('with an issuer offers 申请保函 and shows the server’s refusal as it words it', async () => {
    const { server } = setupShell({
      roleType: 'U',
      systemCoding: 'DZBH',
      menus: MENUS,
      handlers: {
        'POST /ks/trade/deposit/list': () => ({
          data: {
            issuer: { configured: true, name: '晋商担保出函机构' },
            deposits: [deposit(4, { operations: { pay: true, receive: false, refund: false, applyGuarantee: true } })],
            guarantees: [],
          },
        }),
        'POST /ks/trade/guarantee': () => ({
          status: 409,
          code: 409,
          message: '该标段已有电子保函申请（办理中或已出函），不能重复申请',
        }),
      },
    });
    const user = userEvent.setup();
    renderRoutes(routes, URL);
    await screen.findByTestId('guarantee-page', {}, SLOW);
    expect(await screen.findByText('出函机构：晋商担保出函机构。', { exact: false })).toBeTruthy();
    expect(screen.queryByTestId('guarantee-issuer-missing')).toBeNull();
    await user.click(await screen.findByTestId('deposit-apply-BD-04'));
    await waitFor(() => expect(server.callsTo('/ks/trade/guarantee')).toHaveLength(1));
    expect(json(server.callsTo('/ks/trade/guarantee')[0]!)).toEqual({ sectionId: uuid(4) });
    expect((await screen.findByTestId('guarantee-error')).textContent).toContain('不能重复申请');
  }, 60_000);
});
