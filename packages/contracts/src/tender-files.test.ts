import { describe, expect, it } from 'vitest';
import { clarifyAuditSchema, clarifyDeadlineProblem, clarifyInputSchema, tenderDocInputSchema } from './tender-files';

const DAY = 86_400_000;
const now = new Date('2026-11-27T02:00:00.000Z');
const at = (days: number) => new Date(now.getTime() + days * DAY).toISOString();

describe('the 15-day rule of clarifications (招标投标法实施条例第二十一条)', () => {
  it('leaves alone what does not affect bids, or leaves 15 days', () => {
    expect(clarifyDeadlineProblem({ affectsBids: false, newDeadline: null }, at(3), now)).toBeNull();
    expect(clarifyDeadlineProblem({ affectsBids: true, newDeadline: null }, at(15), now)).toBeNull();
  });

  it('asks a closer deadline to move at least clarifyDays past sending, naming the rule', () => {
    const p = clarifyDeadlineProblem({ affectsBids: true, newDeadline: null }, at(10), now);
    expect(p).toContain('第二十一条');
    expect(p).toContain('15 日');
    expect(clarifyDeadlineProblem({ affectsBids: true, newDeadline: at(14) }, at(10), now)).not.toBeNull();
    expect(clarifyDeadlineProblem({ affectsBids: true, newDeadline: at(15) }, at(10), now)).toBeNull();
    // a stricter setting counts
    expect(clarifyDeadlineProblem({ affectsBids: true, newDeadline: at(15) }, at(10), now, 20)).toContain('20 日');
  });
});

describe('the inputs', () => {
  it('takes a document of a known kind with a name, and nothing else', () => {
    const ok = { sectionId: crypto.randomUUID(), fileId: crypto.randomUUID(), name: ' 图纸 ', kind: '图纸' };
    expect(tenderDocInputSchema.parse(ok).name).toBe('图纸');
    expect(tenderDocInputSchema.safeParse({ ...ok, kind: '合同' }).success).toBe(false);
    expect(tenderDocInputSchema.safeParse({ ...ok, extra: 1 }).success).toBe(false);
  });

  it('needs a title and text for a clarification, and an opinion to reject one', () => {
    const base = { sectionId: crypto.randomUUID(), title: '澄清', content: '内容' };
    expect(clarifyInputSchema.parse(base)).toMatchObject({ affectsBids: false, newDeadline: null, fileId: null });
    expect(clarifyInputSchema.safeParse({ ...base, content: ' ' }).success).toBe(false);
    const id = crypto.randomUUID();
    expect(clarifyAuditSchema.safeParse({ id, pass: false }).success).toBe(false);
    expect(clarifyAuditSchema.safeParse({ id, pass: false, opinion: '依据不足' }).success).toBe(true);
    expect(clarifyAuditSchema.safeParse({ id, pass: true }).success).toBe(true);
  });
});
