import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { routes } from '../../app/routes';
import { renderRoutes } from '../../test/render';
import { letterParts } from './LetterView';
import { bodyJson, OWN, resetAll, setupLetters, uuid } from './testkit';

afterEach(() => resetAll());

/** The first page of a file loads the app's lazy chunks: slow on a busy machine. */
const SLOW = { timeout: 20_000 };

const NODE = 'gnCoding=XY_LIST&systemCoding=XYGL';

describe('/credit/commitmentbook', () => {
  it('administrators get the list of every enterprise’s book: search, signed filter, paging, open one', async () => {
    const { server } = setupLetters('M');
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, `/credit/commitmentbook?${NODE}`);
    const list = await screen.findByTestId('credit-letter-list', {}, SLOW);
    await waitFor(() => expect(within(list).getAllByTestId('letter-name')).toHaveLength(10));
    expect(list.textContent).toContain('共 25 家企业');
    expect(screen.queryByTestId('letter-sign-button')).toBeNull();

    await user.type(within(screen.getByTestId('letter-keyword')).getByRole('searchbox'), '企业1{Enter}');
    await waitFor(() =>
      expect(bodyJson(server.callsTo('/ks/credit/credit/letter/list').at(-1)!).keyword).toBe('企业1'),
    );
    await waitFor(() => expect(list.textContent).toContain('共 10 家企业'));

    // signed only
    await user.click(within(screen.getByTestId('letter-signed').closest('.ant-select')!).getByRole('combobox'));
    await user.click(await screen.findByText('已签署', { selector: '.ant-select-item-option-content' }));
    await waitFor(() =>
      expect(bodyJson(server.callsTo('/ks/credit/credit/letter/list').at(-1)!)).toMatchObject({
        keyword: '企业1',
        signed: true,
        pageNum: 1,
      }),
    );
    await waitFor(() =>
      expect(
        within(list)
          .getAllByTestId('letter-name')
          .map((a) => a.textContent),
      ).toEqual(['山西企业12有限公司', '山西企业16有限公司']),
    );
    const row = within(list).getByText('山西企业12有限公司').closest('tr')!;
    expect(row.textContent).toContain('已签署');
    expect(row.textContent).toContain('王五');
    expect(row.textContent).toContain('2026-10-01 10:00');

    // open it: the detail keeps the node
    await user.click(within(row).getByTestId('letter-open'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credit/commitmentbookDetail'));
    expect(Object.fromEntries(new URLSearchParams(router.state.location.search))).toEqual({
      gnCoding: 'XY_LIST',
      systemCoding: 'XYGL',
      enterpriseId: uuid(12),
    });
    const detail = await screen.findByTestId('credit-letter-detail', {}, SLOW);
    await waitFor(() => expect(within(detail).getByTestId('letter-status').textContent).toBe('已签署'));
    expect(screen.getByTestId('letter-stamp')).toBeTruthy();
    expect(screen.queryByTestId('letter-sign-button')).toBeNull();
    // what 打印 prints: a copy of the document directly in <body>, the only child a print shows
    const copy = document.body.querySelector(':scope > .ks-letter-print')!;
    expect(copy.textContent).toContain('承诺单位：山西企业12有限公司');
    expect(copy.querySelector('style')!.textContent).toContain(
      'body > *:not(.ks-letter-print) { display: none !important; }',
    );
    // back to the list
    await user.click(screen.getByTestId('letter-back'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/credit/commitmentbook'));
    expect(router.state.location.search).toBe(`?${new URLSearchParams({ systemCoding: 'XYGL', gnCoding: 'XY_LIST' })}`);
  });

  it('developers read the list too (they have no book of their own)', async () => {
    setupLetters('D');
    renderRoutes(routes, `/credit/commitmentbook?${NODE}`);
    expect(await screen.findByTestId('credit-letter-list')).toBeTruthy();
  });

  it('an enterprise user sees their own book and signs it after confirming; it is signed once', async () => {
    const { server, letters } = setupLetters('U');
    const user = userEvent.setup();
    renderRoutes(routes, `/credit/commitmentbook?${NODE}`);
    const detail = await screen.findByTestId('credit-letter-detail', {}, SLOW);
    expect(screen.queryByTestId('credit-letter-list')).toBeNull();
    await waitFor(() => expect(within(detail).getByTestId('letter-status').textContent).toBe('未签署'));
    expect(screen.getByTestId('letter-document').textContent).toContain('本单位示例建设工程有限公司自愿参与');
    expect(bodyJson(server.callsTo('/ks/credit/credit/letter/lc-info')[0]!)).toEqual({});

    // cancelling the confirmation signs nothing
    await user.click(screen.getByTestId('letter-sign-button'));
    await user.click(await screen.findByRole('button', { name: '取消' }));
    expect(server.callsTo('/ks/credit/credit/letter/sign')).toHaveLength(0);

    await user.click(screen.getByTestId('letter-sign-button'));
    expect(await screen.findByText(/确定以本企业名义签署信用承诺书吗/)).toBeTruthy();
    await user.click(screen.getByTestId('letter-sign-confirm'));
    await waitFor(() => expect(within(detail).getByTestId('letter-status').textContent).toBe('已签署'));
    expect(server.callsTo('/ks/credit/credit/letter/sign')).toHaveLength(1);
    expect(letters[0]!.signed).toBe(true);
    expect(screen.queryByTestId('letter-sign-button')).toBeNull();
    expect(screen.getByTestId('letter-meta').textContent).toContain('张三 于 2026-11-26 11:00 在线签署');
  });

  it('an enterprise user opening another enterprise’s book gets the server’s refusal and no 签署', async () => {
    setupLetters('U');
    renderRoutes(routes, `/credit/commitmentbookDetail?enterpriseId=${uuid(5)}&${NODE}`);
    expect(await screen.findByTestId('load-error', {}, SLOW)).toBeTruthy();
    expect(screen.getByTestId('load-error').textContent).toContain('企业不存在');
    expect(screen.queryByTestId('letter-sign-button')).toBeNull();
  });

  it('the own book opened by its id still offers 签署; a malformed id is refused without a call', async () => {
    const { server } = setupLetters('U');
    const { unmount } = renderRoutes(routes, `/credit/commitmentbookDetail?enterpriseId=${OWN}&${NODE}`);
    expect(await screen.findByTestId('letter-sign-button', {}, SLOW)).toBeTruthy();
    unmount();
    renderRoutes(routes, `/credit/commitmentbookDetail?enterpriseId=not-an-id&${NODE}`);
    expect((await screen.findByTestId('load-error')).textContent).toContain('企业不存在');
    expect(
      server.callsTo('/ks/credit/credit/letter/lc-info').every((c) => bodyJson(c).enterpriseId !== 'not-an-id'),
    ).toBe(true);
  });
});

describe('letterParts', () => {
  it('splits the heading, the pledges and the signature block', () => {
    const parts = letterParts(
      '信用承诺书\n本单位…承诺：\n一、守法；\n\n承诺单位：甲\n法定代表人：乙\n日期：2026-11-26',
    );
    expect(parts).toEqual({
      heading: '信用承诺书',
      body: ['本单位…承诺：', '一、守法；'],
      signature: ['承诺单位：甲', '法定代表人：乙', '日期：2026-11-26'],
    });
  });
});
