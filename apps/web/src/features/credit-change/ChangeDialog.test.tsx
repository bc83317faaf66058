import { RFC_MESSAGES } from '@ks/contracts';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { configureRequest } from '../../api/request';
import { resetPrompts } from '../../components/prompt';
import {
  BUSINESS_ID,
  confirmDialog,
  file,
  findMessage,
  lastBody,
  PATHS,
  renderDialog,
  setupRfc,
  storedRound,
  type User,
} from './testkit';

afterEach(() => {
  configureRequest();
  act(() => resetPrompts());
  sessionStorage.clear();
});

/** The 1 s lock of the dialog's buttons (§9) passes. */
const unlock = () => act(() => new Promise((r) => setTimeout(r, 1050)));

async function chooseType(user: User, ...labels: string[]) {
  const cascader = screen.getByTestId('rfc-type');
  await user.click(cascader.querySelector('.ant-select-content, .ant-select-selector') ?? cascader);
  for (const label of labels) {
    const item = await waitFor(() => {
      const hit = Array.from(document.querySelectorAll('.ant-cascader-menu-item')).find((e) => e.textContent === label);
      if (!hit) throw new Error(`no cascader item ${label}`);
      return hit as HTMLElement;
    });
    await user.click(item);
  }
}

const buttons = () =>
  Array.from(screen.getByTestId('rfc-buttons').querySelectorAll('button')).map((b) => b.textContent);

describe('the change dialog (screen 1)', () => {
  it('a new round starts in edit mode: type, reason and attachment are checked in order before anything is sent', async () => {
    const { calls } = setupRfc({ role: 'U' });
    const user = userEvent.setup();
    renderDialog();
    const round = await screen.findByTestId('rfc-round-1');
    expect(screen.getByTestId('rfc-tab-1').textContent).toBe('第1轮变更');
    expect(round.querySelector('[data-testid="rfc-initiate"]')?.getAttribute('data-editing')).toBe('1');
    expect(screen.getByTestId('rfc-reason').getAttribute('rows')).toBe('2');
    expect(screen.getByTestId('rfc-suggestion-text').getAttribute('rows')).toBe('5');
    // a round not saved yet: 保存 and 关闭 (submit needs a saved round)
    expect(buttons()).toEqual(['保存', '关闭']);

    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.typeRequired);
    await unlock();
    await chooseType(user, '信息变更', '信用记录信息');
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.reasonRequired);
    await unlock();
    await user.type(screen.getByTestId('rfc-reason'), '分值认定有误');
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.attachmentRequired);
    expect(calls.filter((c) => c.url === PATHS.save)).toHaveLength(0);
    // the before/after form of the chosen type: old values read-only beside the new ones
    expect(screen.getByTestId('rfc-old-score').textContent).toBe('3');
    expect(screen.getByTestId('rfc-old-standard').textContent).toBe('合同履约良好');
    expect(screen.getByTestId('rfc-template').getAttribute('href')).toBe(
      '/ks/rfc/template?gnCoding=XYGL_XYJL&changeTypeCode=info%2Frecord',
    );
  });

  it('a saved round is read-only until 修改; submit while editing says 请先保存！; required annexes by name', async () => {
    const { calls } = setupRfc({
      role: 'U',
      rounds: [storedRound(1, { files: [file(1, null)] })],
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByTestId('rfc-round-1');
    expect(screen.getByTestId('rfc-initiate').getAttribute('data-editing')).toBe('0');
    expect(screen.getByTestId('rfc-type-text').textContent).toBe('信息变更/信用记录信息');
    expect(screen.getByTestId('rfc-data-score').textContent).toContain('4');
    expect(buttons()).toEqual(['修改', '提交', '关闭']);

    await user.click(screen.getByTestId('rfc-edit'));
    expect(screen.getByTestId('rfc-initiate').getAttribute('data-editing')).toBe('1');
    expect(buttons()).toEqual(['保存', '提交', '关闭']);
    await user.click(screen.getByTestId('rfc-submit'));
    await findMessage(RFC_MESSAGES.saveFirst);
    expect(calls.filter((c) => c.url === PATHS.submit)).toHaveLength(0);

    await screen.findByTestId('rfc-form');
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage('附件为必填项，请上传【信用变更申请表】附件！');
    expect(calls.filter((c) => c.url === PATHS.save)).toHaveLength(0);
  });

  it('§5 information changes: end before start, a score above the highest and a negative score are refused and cleared', async () => {
    setupRfc({ role: 'U', rounds: [storedRound(1)] });
    const user = userEvent.setup();
    renderDialog();
    await user.click(await screen.findByTestId('rfc-edit'));
    await screen.findByTestId('rfc-form');

    const end = within(screen.getByTestId('rfc-row-end_time')).getByRole('textbox');
    await user.clear(end);
    await user.type(end, '2025-06-30{Enter}');
    await findMessage(RFC_MESSAGES.endBeforeStart);
    await waitFor(() => expect((end as HTMLInputElement).value).toBe(''));
    expect(screen.getByTestId('rfc-error-end_time').textContent).toBe(RFC_MESSAGES.endBeforeStart);

    const score = within(screen.getByTestId('rfc-row-score')).getByRole('spinbutton');
    await user.clear(score);
    await user.type(score, '9');
    fireEvent.blur(score);
    const above = '分值不能超过该信用标准的最高分5分，请作废本次申报后另行添加其他信用标准项！';
    await findMessage(above);
    await waitFor(() => expect((score as HTMLInputElement).value).toBe(''));

    await user.type(score, '-1');
    fireEvent.blur(score);
    await findMessage(RFC_MESSAGES.scoreNegative);
    await waitFor(() => expect((score as HTMLInputElement).value).toBe(''));

    // the form's failure message when a required value is missing at save
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.formInvalid);
    expect(screen.getByTestId('rfc-error-score').textContent).toBe('分值必填');
  });

  it('save sends the changed values, ends edit mode and reloads read-only; submit is confirmed and closes the dialog', async () => {
    const { calls } = setupRfc({ role: 'U', rounds: [storedRound(1)] });
    const user = userEvent.setup();
    const { onClose } = renderDialog();
    await user.click(await screen.findByTestId('rfc-edit'));
    await screen.findByTestId('rfc-form');
    const score = within(screen.getByTestId('rfc-row-score')).getByRole('spinbutton');
    await user.clear(score);
    await user.type(score, '4.5');
    fireEvent.blur(score);
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.saved);
    expect(lastBody(calls, PATHS.save)).toEqual({
      gnCoding: 'XYGL_XYJL',
      systemCoding: 'XYGL',
      businessId: BUSINESS_ID,
      id: storedRound(1).id,
      version: 1,
      dataList: [{ changeField: 'score', newValue: '4.5', dataType: 'number' }],
      fileList: [{ fileId: file(2, 'sqb').fileId, code: 'sqb' }],
      attachment: [file(1, null).fileId],
      changeType: '信息变更/信用记录信息',
      changeTypeCode: 'info/record',
      logbook: '认定结果复核后分值调整',
    });
    await waitFor(() => expect(screen.getByTestId('rfc-initiate').getAttribute('data-editing')).toBe('0'));
    await waitFor(() => expect(screen.getByTestId('rfc-data-score').textContent).toContain('4.5'));
    expect(buttons()).toEqual(['修改', '提交', '关闭']);

    await unlock();
    await user.click(screen.getByTestId('rfc-submit'));
    await confirmDialog(user, RFC_MESSAGES.submitConfirm);
    await findMessage(RFC_MESSAGES.submitted);
    expect(lastBody(calls, PATHS.submit)).toEqual({ id: storedRound(1).id, version: 2 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('an administrator: reject needs a suggestion; the decision is confirmed; afterwards everything is read-only', async () => {
    const { calls } = setupRfc({
      role: 'M',
      rounds: [storedRound(1, { submitted: true, sbTime: '2026-11-20T02:00:00.000Z', auditLevel: 1 })],
    });
    const user = userEvent.setup();
    renderDialog({ change: false });
    await screen.findByTestId('rfc-round-1');
    expect(buttons()).toEqual(['驳回', '通过', '关闭']);
    // the enterprise's files: links only, no upload control
    expect(screen.getByTestId('rfc-attachments').querySelector('input[type="file"]')).toBeNull();
    expect(screen.getByTestId('rfc-suggestion').getAttribute('rows')).toBe('5');

    await user.click(screen.getByTestId('rfc-reject'));
    await findMessage(RFC_MESSAGES.suggestionRequired);
    expect(calls.filter((c) => c.url === PATHS.audit)).toHaveLength(0);

    await unlock();
    await user.type(screen.getByTestId('rfc-suggestion'), '申请表未加盖公章');
    await user.click(screen.getByTestId('rfc-reject'));
    await confirmDialog(user, '确认不通过？');
    await findMessage(RFC_MESSAGES.rejected);
    expect(lastBody(calls, PATHS.audit)).toEqual({
      id: storedRound(1).id,
      version: 1,
      pass: false,
      auditRecord: '申请表未加盖公章',
    });
    await waitFor(() => expect(screen.getByTestId('rfc-status').textContent).toBe('变更驳回'));
    expect(buttons()).toEqual(['关闭']);
    expect(screen.getByTestId('rfc-suggestion-text').textContent).toBe('申请表未加盖公章');
    expect(screen.getByTestId('rfc-decided').textContent).toContain('已驳回');
  });

  it('one tab per round, the latest shown; after a rejection the enterprise starts the next round', async () => {
    setupRfc({
      role: 'U',
      rounds: [
        storedRound(1, {
          change: '-1',
          changeStatus: '变更驳回',
          submitted: true,
          auditRecord: '证明材料不清晰',
          czTime: '2026-11-21T03:00:00.000Z',
        }),
      ],
    });
    const user = userEvent.setup();
    renderDialog();
    await screen.findByTestId('rfc-round-2');
    expect(screen.getByTestId('rfc-tab-1').textContent).toBe('第1轮变更');
    expect(screen.getByTestId('rfc-tab-2').textContent).toBe('第2轮变更');
    expect(screen.getByTestId('rfc-round-2').querySelector('[data-editing="1"]')).not.toBeNull();

    await user.click(screen.getByTestId('rfc-tab-1'));
    const first = await screen.findByTestId('rfc-round-1');
    expect(within(first).getByTestId('rfc-status').textContent).toBe('变更驳回');
    expect(within(first).getByTestId('rfc-suggestion-text').textContent).toBe('证明材料不清晰');
    expect(within(first).queryByTestId('rfc-edit')).toBeNull();
    expect(within(first).queryByTestId('rfc-save')).toBeNull();
  });

  it('buttons come only from the operations the server lists', async () => {
    setupRfc({
      role: 'U',
      rounds: [storedRound(1)],
      handlers: {
        [`POST ${PATHS.rounds}`]: () => ({
          data: [
            {
              ...storedRound(1),
              userPermission: true,
              operations: [
                { code: 'edit', name: '修改', color: '#1677ff', show: false },
                { code: 'submit', name: '提交', color: '#52c41a', show: false },
                { code: 'closed', name: '关闭', color: '#8c8c8c', show: true },
              ],
            },
          ],
        }),
      },
    });
    renderDialog();
    await screen.findByTestId('rfc-round-1');
    expect(buttons()).toEqual(['关闭']);
  });

  it('a 409 (someone else decided first) shows the server’s words and reloads the rounds', async () => {
    const { calls } = setupRfc({
      role: 'M',
      rounds: [storedRound(1, { submitted: true })],
      handlers: {
        [`POST ${PATHS.audit}`]: () => ({ status: 409, code: 409, message: RFC_MESSAGES.decidedAlready }),
      },
    });
    const user = userEvent.setup();
    renderDialog({ change: false });
    await user.click(await screen.findByTestId('rfc-pass'));
    await confirmDialog(user, '确认通过？');
    await findMessage(RFC_MESSAGES.decidedAlready);
    await waitFor(() => expect(calls.filter((c) => c.url === PATHS.rounds).length).toBeGreaterThan(1));
  });

  it('length 1 is the contact-person mode: contact types only, and the contact selector', async () => {
    setupRfc({
      role: 'U',
      fields: {
        map: { contact: null },
        fields: [
          {
            code: 'contact',
            bianma: 'contact',
            name: '联系人',
            type: 'contact',
            readonly: false,
            required: true,
            col: 24,
          },
        ],
        list: [],
        fjList: [],
      },
    });
    const user = userEvent.setup();
    renderDialog({ length: 1, gnCoding: 'XYGL_QYXX' });
    await screen.findByTestId('rfc-round-1');
    expect(screen.getByTestId('rfc-dialog').textContent).toContain('联系人变更');
    await chooseType(user, '联系人变更', '企业联系人');
    // only the contact types were offered
    expect(Array.from(document.querySelectorAll('.ant-cascader-menu-item')).map((e) => e.textContent)).not.toContain(
      '信息变更',
    );
    const row = await screen.findByTestId('rfc-row-contact');
    expect(row.textContent).toContain('未填写');
    await user.click(within(row).getByRole('combobox'));
    await user.click(await screen.findByText('李晓燕（13903510002）'));
  });

  it('an enterprise whose information is incomplete saves its information round without attachments', async () => {
    const { calls } = setupRfc({
      role: 'U',
      fields: {
        map: {
          legal_person: null,
          region: '太原市',
          address: '太原市小店区长治路 227 号',
          registered_capital: '80000000',
          established_at: '2008-06-18',
        },
        fields: [
          {
            code: 'legal_person',
            bianma: 'legal_person',
            name: '法定代表人',
            type: 'text',
            readonly: false,
            required: true,
            col: 12,
          },
        ],
        list: [],
        fjList: [{ code: 'yyzz', name: '营业执照', required: true, formats: ['pdf'], maxSizeMb: 20 }],
      },
      handlers: { [`POST ${PATHS.save}`]: () => ({ data: storedRound(1), message: RFC_MESSAGES.saved }) },
    });
    const user = userEvent.setup();
    renderDialog({ gnCoding: 'XYGL_QYXX' });
    await screen.findByTestId('rfc-round-1');
    await chooseType(user, '信息变更', '信用记录信息');
    await user.type(await screen.findByTestId('rfc-new-legal_person'), '李明华');
    await user.type(screen.getByTestId('rfc-reason'), '补充法定代表人');
    expect(screen.getByTestId('rfc-waived').textContent).toContain('无需上传附件');
    await user.click(screen.getByTestId('rfc-save'));
    await findMessage(RFC_MESSAGES.saved);
    expect(lastBody(calls, PATHS.save)).toMatchObject({
      gnCoding: 'XYGL_QYXX',
      attachment: [],
      fileList: [],
      dataList: [{ changeField: 'legal_person', newValue: '李明华', dataType: 'text' }],
    });
  });
});
