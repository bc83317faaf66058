import { describe, expect, it } from 'vitest';
import { rfcChangeRecordsRequestSchema, rfcSaveRequestSchema } from './credit-change';
import {
  RFC_MESSAGES,
  rfcCreditProblems,
  rfcMayStartRound,
  rfcOperations,
  rfcRoundTitle,
  rfcSaveProblem,
} from './credit-change-rules';

const base = {
  changeTypeCode: 'info/record',
  kind: 'info' as const,
  logbook: '分值认定有误',
  attachmentCount: 1,
  annexes: [
    { code: 'sqb', name: '变更申请表', required: true },
    { code: 'zm', name: '证明材料', required: true },
    { code: 'qt', name: '其他材料', required: false },
  ],
  annexCodes: ['sqb', 'zm'],
};

describe('change save rules (§5)', () => {
  it('accepts a complete initiate-change card', () => {
    expect(rfcSaveProblem(base)).toBeNull();
  });
  it('asks for the type, the reason and an attachment in that order, verbatim', () => {
    expect(rfcSaveProblem({ ...base, changeTypeCode: '', logbook: '' })?.message).toBe('请选择变更类型！');
    expect(rfcSaveProblem({ ...base, logbook: '  ' })?.message).toBe('请输入变更原因！');
    expect(rfcSaveProblem({ ...base, attachmentCount: 0 })?.message).toBe('请上传附件！');
    expect(rfcSaveProblem({ ...base, kind: null })?.message).toBe(RFC_MESSAGES.typeUnknown);
  });
  it('names every required annex without a file', () => {
    expect(rfcSaveProblem({ ...base, annexCodes: [] })?.message).toBe(
      '附件为必填项，请上传【变更申请表、证明材料】附件！',
    );
    expect(rfcSaveProblem({ ...base, annexCodes: new Set(['sqb']) })?.message).toBe(
      '附件为必填项，请上传【证明材料】附件！',
    );
    // contact and other types have no annex rule
    expect(rfcSaveProblem({ ...base, kind: 'contact', annexCodes: [] })).toBeNull();
  });
});

describe('information change rules (§5)', () => {
  it('refuses an end before the start, a negative score and one above the highest (named)', () => {
    expect(rfcCreditProblems({ start_time: '2026-03-01', end_time: '2026-02-28', score: 3 }, 10)).toEqual({
      end_time: '结束时间不能早于开始时间',
    });
    expect(rfcCreditProblems({ start_time: '2026-03-01', score: -1 }, 10).score).toBe('分值不能为负数');
    expect(rfcCreditProblems({ start_time: '2026-03-01', score: 12.5 }, 10).score).toBe(
      '分值不能超过该信用标准的最高分10分，请作废本次申报后另行添加其他信用标准项！',
    );
    expect(rfcCreditProblems({ start_time: '2026-03-01', score: 12.5 }, 7.5, { review: true }).score).toBe(
      '分值不能超过最高分7.5分',
    );
    expect(rfcCreditProblems({ start_time: '2026-03-01', end_time: '2026-03-01', score: 10 }, 10)).toEqual({});
  });
});

describe('rounds and operations', () => {
  it('starts a round only after the latest is decided', () => {
    expect(rfcMayStartRound(null)).toBe(true);
    expect(rfcMayStartRound('2')).toBe(true);
    expect(rfcMayStartRound('-1')).toBe(true);
    expect(rfcMayStartRound('1')).toBe(false);
    expect(rfcRoundTitle(2)).toBe('第2轮变更');
  });
  it('shows save while editing, 修改 and 提交 once saved, 通过/驳回 to the reviewer once submitted', () => {
    const shown = (r: Parameters<typeof rfcOperations>[0], u: boolean, m: boolean) =>
      rfcOperations(r, { userPermission: u, managerPermission: m })
        .filter((o) => o.show)
        .map((o) => o.code);
    expect(shown(null, true, false)).toEqual(['save', 'closed']);
    expect(shown({ change: '1', saved: true, submitted: false }, true, false)).toEqual(['edit', 'submit', 'closed']);
    expect(shown({ change: '1', saved: true, submitted: true }, false, true)).toEqual(['pass', 'reject', 'closed']);
    expect(shown({ change: '2', saved: true, submitted: true }, true, true)).toEqual(['closed']);
  });
});

describe('request schemas', () => {
  it('defaults the lists and the system', () => {
    const v = rfcSaveRequestSchema.parse({ gnCoding: 'XYGL_XYJL', businessId: '00000000-0000-4000-8000-000000000001' });
    expect(v).toMatchObject({ systemCoding: 'XYGL', dataList: [], fileList: [], attachment: [] });
    expect(
      rfcChangeRecordsRequestSchema.safeParse({ businessId: 'x', gnCoding: 'XYGL_XYJL', systemCoding: 'XYGL' }).success,
    ).toBe(false);
  });
});
