import { CREDIT_MESSAGES } from '@ks/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { levelFormProblem } from './LevelSettingsDialog';
import { formProblems } from './RecordFormDialog';
import { treeFilter, treeNodes } from './SubjectCredit';
import {
  bodyOf,
  creditRecord,
  REVIEW_OPS,
  renderCredit,
  resetAll,
  SIDE_DRAFT_OPS,
  STANDARD_GOOD,
  setupCreditServer,
  tree,
} from './testkit';

afterEach(resetAll);

const rowOf = (text: string) => screen.getByText(text).closest('tr') as HTMLElement;
const leaf = tree.children[0]!.children[0]!;

describe('the form rules (§5, creditRecordProblems of the contracts)', () => {
  const base = { standard: ['g', STANDARD_GOOD] as [string, string], files: [{} as never] };
  it('a score above the highest names it; a negative one is refused; an end before the start is refused', () => {
    expect(formProblems({ ...base, score: 7, start: dayjs('2026-03-01') }, leaf).score).toBe(
      '分值不能超过该信用标准的最高分6分，请作废本次申报后另行添加其他信用标准项！',
    );
    expect(formProblems({ ...base, score: -1, start: dayjs('2026-03-01') }, leaf).score).toBe(
      CREDIT_MESSAGES.scoreNegative,
    );
    expect(
      formProblems({ ...base, score: 3, start: dayjs('2026-03-01'), end: dayjs('2026-02-01') }, leaf).endTime,
    ).toBe(CREDIT_MESSAGES.endBeforeStart);
    // the item's validity (12 months) bounds the end
    expect(
      formProblems({ ...base, score: 3, start: dayjs('2026-03-01'), end: dayjs('2027-03-01') }, leaf).endTime,
    ).toBe('有效期不能超过该信用标准规定的12个月（最晚至2027-02-28）');
    expect(formProblems({ ...base, score: 3, start: dayjs('2026-03-01'), end: dayjs('2027-02-28') }, leaf)).toEqual({});
    expect(formProblems({ score: 3, start: dayjs('2026-03-01'), files: [] }, leaf).fileIds).toBe('请上传附件！');
  });

  it('the level settings: ordered floors, the last 0, a base score in range', () => {
    const levels = [
      { title: 'AAA', minScore: 90 },
      { title: 'AA', minScore: 0 },
    ];
    expect(levelFormProblem({ baseScore: 80, levels })).toBeNull();
    expect(levelFormProblem({ baseScore: -1, levels })).toBe(CREDIT_MESSAGES.baseScore);
    expect(
      levelFormProblem({
        baseScore: 80,
        levels: [
          { title: 'AAA', minScore: 80 },
          { title: 'AA', minScore: 85 },
          { title: 'C', minScore: 0 },
        ],
      }),
    ).toBe('等级须按分数线从高到低排列，且分数线不能重叠：AA');
    expect(levelFormProblem({ baseScore: 80, levels: [{ title: 'AAA', minScore: 0 }] })).toBe(
      CREDIT_MESSAGES.levelsCount,
    );
  });

  it('the tree: groups and items with signed scores; a group filters by conduct and grouping, an item by standard', () => {
    const nodes = treeNodes(tree);
    expect(nodes[0]).toMatchObject({ xxGrouping: '安全文明施工', badge: 2, score: '3' });
    expect(nodes[0]!.children![0]).toMatchObject({ primaryKey: STANDARD_GOOD, score: '3' });
    expect(treeFilter(tree, 'good:安全文明施工')).toEqual({ conduct: 'good', xxGrouping: '安全文明施工' });
    expect(treeFilter(tree, STANDARD_GOOD)).toEqual({ standardId: STANDARD_GOOD });
    expect(treeFilter(tree, null)).toEqual({});
  });
});

describe('信用记录 /credit/companyInfo — an enterprise user', () => {
  it('shows its grade, the left tree with badges and scores, its records and the 企业中心 button', async () => {
    const user = userEvent.setup();
    setupCreditServer('U', { records: [creditRecord(1, { operations: SIDE_DRAFT_OPS })] });
    const view = renderCredit();
    expect((await screen.findByTestId('grade-level')).textContent).toContain('AA');
    expect(screen.getByTestId('grade-score').textContent).toContain('88.5');
    expect(screen.getByTestId('grade-valid-until').textContent).toContain('2026-12-31');
    expect((await screen.findByTestId('credit-tree-header')).textContent).toContain('示例建设工程有限公司88.5分');
    expect(screen.getByTestId(`left-node-${STANDARD_GOOD}`).textContent).toContain('3分');
    expect(await screen.findByText('记录1')).toBeTruthy();
    expect(screen.queryByTestId('company-library')).toBeNull();
    expect(screen.queryByTestId('levels-open')).toBeNull();
    await user.click(screen.getByTestId('company-centre'));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/system/companyInfo'));
  });

  it('a draft is edited with its values and files and saved with its version; errors from the server go onto fields', async () => {
    const user = userEvent.setup();
    const server = setupCreditServer('U', {
      records: [creditRecord(1, { operations: SIDE_DRAFT_OPS })],
      handlers: {
        'POST /ks/credit/record/update': () => ({
          status: 400,
          code: 400,
          message: CREDIT_MESSAGES.formInvalid,
          data: { fieldErrors: { endTime: ['有效期不能超过该信用标准规定的12个月（最晚至2027-02-28）'] } },
        }),
      },
    });
    renderCredit();
    await screen.findByText('记录1');
    await user.click(within(rowOf('记录1')).getByTestId(`record-${creditRecord(1).id}-edit`));
    const form = await screen.findByTestId('record-form');
    await waitFor(() => expect((within(form).getByTestId('record-title') as HTMLInputElement).value).toBe('记录1'));
    expect(within(form).getByText('证书.pdf')).toBeTruthy();
    await user.click(screen.getByTestId('record-save'));
    await waitFor(() => expect(server.callsTo('/ks/credit/record/update')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/credit/record/update')[0]!)).toMatchObject({
      id: creditRecord(1).id,
      version: 1,
      standardId: STANDARD_GOOD,
      score: 3,
      startTime: '2026-03-01',
      endTime: '2027-02-28',
      fileIds: [creditRecord(1).files[0]!.fileId],
    });
    expect(await within(form).findByText('有效期不能超过该信用标准规定的12个月（最晚至2027-02-28）')).toBeTruthy();
  });

  it('a score above the highest is said with the highest and cleared; a negative one too', async () => {
    const user = userEvent.setup();
    setupCreditServer('U', { records: [creditRecord(1, { operations: SIDE_DRAFT_OPS })] });
    renderCredit();
    await screen.findByText('记录1');
    await user.click(within(rowOf('记录1')).getByTestId(`record-${creditRecord(1).id}-edit`));
    const form = await screen.findByTestId('record-form');
    const score = within(form).getByTestId('record-score') as HTMLInputElement;
    await waitFor(() => expect(score.value).toBe('3.00'));
    await user.clear(score);
    await user.type(score, '7');
    fireEvent.blur(score);
    expect(
      await within(form).findByText('分值不能超过该信用标准的最高分6分，请作废本次申报后另行添加其他信用标准项！'),
    ).toBeTruthy();
    await waitFor(() => expect(score.value).toBe(''));
    await user.type(score, '-2');
    fireEvent.blur(score);
    expect(await within(form).findByText(CREDIT_MESSAGES.scoreNegative)).toBeTruthy();
    await waitFor(() => expect(score.value).toBe(''));
  });

  it('自动获取 says what it found and what it left out', async () => {
    const user = userEvent.setup();
    const server = setupCreditServer('U');
    renderCredit();
    await screen.findByText('记录1');
    await user.click(screen.getByTestId('record-retrieve'));
    const result = await screen.findByTestId('retrieve-result');
    expect(within(result).getByTestId('retrieve-message').textContent).toContain(
      '找到 2 条已公开的认定结果，新增 1 条待审核记录，1 条未新增',
    );
    expect(within(result).getByText('获评市级文明工地')).toBeTruthy();
    expect(within(result).getByText('已于 2025-01-01 到期，不再计分')).toBeTruthy();
    expect(bodyOf(server.callsTo('/ks/credit/record/auto-retrieve')[0]!)).toEqual({ subjectKind: 'enterprise' });
  });

  it('变更 is offered on passed records only when the change dialog is wired in', async () => {
    const passed = creditRecord(2, { status: 'passed', statusText: '已通过', counting: true });
    setupCreditServer('U', { records: [passed] });
    const first = renderCredit();
    await screen.findByText('记录2');
    expect(screen.queryByTestId(`record-${passed.id}-change`)).toBeNull();
    first.unmount();

    const user = userEvent.setup();
    const onChange = vi.fn();
    renderCredit({ onChange });
    await screen.findByText('记录2');
    await user.click(screen.getByTestId(`record-${passed.id}-change`));
    expect(onChange).toHaveBeenCalledWith(expect.objectContaining({ id: passed.id }));
  });
});

describe('信用记录 /credit/companyInfo — administrators and reviewers', () => {
  it('lists subjects with grade, score and validity; filters by level and keyword; 企业信息库 for administrators', async () => {
    const user = userEvent.setup();
    const server = setupCreditServer('M');
    const view = renderCredit();
    expect(await screen.findByTestId('credit-top-titles')).toBeTruthy();
    expect(await screen.findByText('晋中路桥建设有限公司1')).toBeTruthy();
    expect(within(rowOf('示例建设工程有限公司')).getByTestId('credit-level').textContent).toContain('AA');
    expect(rowOf('示例建设工程有限公司').textContent).toContain('2026-12-31');
    const level = within(screen.getByTestId('subjects-level').closest('.ant-select') as HTMLElement).getByRole(
      'combobox',
    );
    await user.click(level);
    await user.click(await screen.findByText('B', { selector: '.ant-select-item-option-content' }));
    await waitFor(() => expect(bodyOf(server.callsTo('/ks/credit/common/list').at(-1)!)).toMatchObject({ level: 'B' }));
    await waitFor(() => expect(screen.queryByText('示例建设工程有限公司')).toBeNull());
    const kw = screen.getByTestId('subjects-keyword');
    await user.type(kw.tagName === 'INPUT' ? kw : (kw.querySelector('input') as HTMLElement), '晋中{Enter}');
    await waitFor(() =>
      expect(bodyOf(server.callsTo('/ks/credit/common/list').at(-1)!)).toMatchObject({ keyword: '晋中', level: 'B' }),
    );
    await user.click(screen.getByTestId('company-library'));
    await waitFor(() => expect(view.router.state.location.pathname).toBe('/system/companyInfo'));
  });

  it('a rejection needs 请填写审核建议 and sends nothing; a pass is confirmed and sent with the version', async () => {
    const user = userEvent.setup();
    const waiting = creditRecord(3, { status: 'submitted', statusText: '待审核', operations: REVIEW_OPS });
    const server = setupCreditServer('M', { records: [waiting] });
    renderCredit();
    await user.click(await screen.findByRole('tab', { name: /信用记录审核/ }));
    await screen.findByText('记录3');
    expect(bodyOf(server.callsTo('/ks/credit/management/list').at(-1)!)).toMatchObject({ status: 'submitted' });
    await user.click(screen.getByTestId(`record-${waiting.id}-audit`));
    const dialog = await screen.findByTestId('credit-audit');
    await user.click(within(dialog).getByTestId('audit-reject'));
    expect(await within(dialog).findByText(CREDIT_MESSAGES.rejectNeedsSuggestion)).toBeTruthy();
    expect(server.callsTo('/ks/credit/record/audit')).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 1050));
    await user.click(within(dialog).getByTestId('audit-pass'));
    await user.click(await screen.findByRole('button', { name: '确定' }));
    await waitFor(() => expect(server.callsTo('/ks/credit/record/audit')).toHaveLength(1));
    expect(bodyOf(server.callsTo('/ks/credit/record/audit')[0]!)).toEqual({
      id: waiting.id,
      version: 1,
      pass: true,
    });
  });

  it('等级设置: an overlapping floor is named and cannot be saved', async () => {
    const user = userEvent.setup();
    const server = setupCreditServer('M');
    renderCredit();
    await user.click(await screen.findByTestId('levels-open'));
    const min1 = await screen.findByTestId('levels-min-1');
    await waitFor(() => expect((min1 as HTMLInputElement).value).toBe('80.00'));
    await user.clear(min1);
    await user.type(min1, '95');
    expect((await screen.findByTestId('levels-problem')).textContent).toContain(
      '等级须按分数线从高到低排列，且分数线不能重叠：AA',
    );
    expect((screen.getByTestId('levels-save') as HTMLButtonElement).disabled).toBe(true);
    expect(server.callsTo('/ks/credit/level/titles').filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('a user granted review (no enterprise) gets the management view, without 企业中心', async () => {
    setupCreditServer('U', { reviewer: true });
    renderCredit();
    expect(await screen.findByTestId('credit-top-titles')).toBeTruthy();
    expect(screen.queryByTestId('company-centre')).toBeNull();
    expect(screen.queryByTestId('levels-open')).toBeNull();
  });

  it('an enterprise user gets the own view: told apart by the left tree, no call that would be refused', async () => {
    const server = setupCreditServer('U');
    renderCredit();
    expect(await screen.findByTestId('grade-card')).toBeTruthy();
    expect(server.callsTo('/ks/credit/admin/select-type')).toHaveLength(0);
    expect(server.callsTo('/ks/credit/management/top-titles')).toHaveLength(0);
    expect(bodyOf(server.callsTo('/ks/credit/common/left-tree')[0]!)).toEqual({});
    expect(screen.queryByTestId('credit-top-titles')).toBeNull();
    expect(bodyOf(server.callsTo('/ks/credit/common/info')[0]!)).toEqual({ subjectKind: 'enterprise' });
  });
});
