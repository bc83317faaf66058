import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import { storedRound, TYPES } from '../credit-change/testkit';
import { bodyOf, menuOf, renderEngine, setupEngine, storedRecord } from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const URL = '/applyIndex?gnCoding=XYGL_BGSQ&systemCoding=XYGL';
const BUSINESS = storedRound(1).businessId;

describe('信用变更申请 (XYGL_BGSQ): the list of change rounds', () => {
  it('opening a row opens the change dialog of its business record; rounds are not added, submitted or deleted here', async () => {
    const { calls } = setupEngine(
      {
        menus: [menuOf('XYGL_BGSQ', '信用变更申请', { nodeProperties: 'applyList' })],
        records: [
          storedRecord(1, {
            status: 'pending',
            auditLevel: 1,
            values: { xm: '申请人1', ywbm: 'XYGL_XYJL', ywid: BUSINESS },
          }),
          storedRecord(2, { values: { xm: '申请人2', ywbm: 'XYGL_XYJL', ywid: BUSINESS } }),
        ],
      },
      {
        'POST /ks/rfc/change-records': () => ({
          data: [{ ...storedRound(1, { submitted: true }), managerPermission: true }],
        }),
        'POST /ks/rfc/change-types': () => ({ data: TYPES }),
      },
    );
    const user = userEvent.setup();
    renderEngine(URL);
    const row = (await screen.findByText('申请人1')).closest('tr') as HTMLElement;
    expect(screen.queryByTestId('engine-add')).toBeNull();
    const draft = screen.getByText('申请人2').closest('tr') as HTMLElement;
    expect(within(draft).queryByTestId('op-submit')).toBeNull();
    expect(within(draft).queryByTestId('op-delete')).toBeNull();

    await user.click(within(row).getByTestId('op-audit'));
    await screen.findByTestId('rfc-round-1');
    const rounds = calls.filter((c) => c.url === '/ks/rfc/change-records');
    expect(bodyOf(rounds[rounds.length - 1]!)).toEqual({
      change: false,
      businessId: BUSINESS,
      gnCoding: 'XYGL_XYJL',
      systemCoding: 'XYGL',
    });
    // the engine's own review dialog is not used for a change round
    expect(screen.queryByTestId('audit-form')).toBeNull();
    await user.click(screen.getByTestId('rfc-close'));
    await waitFor(() => expect(screen.queryByTestId('rfc-round-1')).toBeNull());
  });
});
