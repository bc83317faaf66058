import { CREDIT_NODE, dateIn } from '@ks/contracts';
import { and, asc, count, eq, ilike, isNotNull, isNull, or, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { creditLetters, enterprises } from '../../db/schema';
import { conflict, forbidden, notFound } from '../../platform/errors';
import { writeOpLog } from '../../platform/oplog';
import { type CreditCaller, readsAll, requireSide } from './access';
import { likeContains } from './credit.repo';

/**
 * Credit commitment letters (信用承诺书, /credit/commitmentbook): an enterprise signs once, online, before taking part in
 * trading; the text is kept as signed. Enterprises read their own; administrators, reviewers and developers read all.
 */

export const LETTER_GL = '信用承诺书';

type EnterpriseRow = typeof enterprises.$inferSelect;

/** The commitment as the enterprise signs it (its name and code filled in). */
export function letterText(e: Pick<EnterpriseRow, 'name' | 'creditCode' | 'legalPerson'>, day: string): string {
  return [
    '信用承诺书',
    `本单位${e.name}（统一社会信用代码：${e.creditCode}）自愿参与公共资源交易活动，现郑重承诺：`,
    '一、严格遵守《中华人民共和国招标投标法》《中华人民共和国招标投标法实施条例》等法律法规，依法诚信参与交易活动；',
    '二、向平台提交的企业信息、资质、业绩、人员及信用记录等材料真实、准确、完整、有效，不弄虚作假；',
    '三、不串通投标、不以他人名义投标、不出借或借用资质，不以行贿等不正当手段谋取中标；',
    '四、中标后按约履行合同，不转包、不违法分包，按时足额支付农民工工资；',
    '五、信息发生变化时，及时通过平台提交变更申请；',
    '六、如违反上述承诺，自愿接受有关部门依法作出的处理，并同意将失信行为记入信用记录、向社会公开。',
    `承诺单位：${e.name}`,
    `法定代表人：${e.legalPerson ?? ''}`,
    `日期：${day}`,
  ].join('\n');
}

function view(e: EnterpriseRow, letter: typeof creditLetters.$inferSelect | null, now: Date) {
  return {
    enterpriseId: e.id,
    enterpriseName: e.name,
    creditCode: e.creditCode,
    legalPerson: e.legalPerson,
    content: letter?.content ?? letterText(e, dateIn(now)),
    signed: Boolean(letter),
    signedAt: letter ? letter.signedAt.toISOString() : null,
    signerName: letter?.signerName ?? null,
  };
}

export async function letterInfo(db: Db, c: CreditCaller, q: { enterpriseId?: string }, now: Date) {
  const id = q.enterpriseId ?? c.enterpriseId;
  if (!id) throw forbidden('当前账号未关联企业，请指定企业');
  if (id !== c.enterpriseId && !(await readsAll(db, c))) throw notFound('企业不存在');
  const [row] = await db
    .select({ e: enterprises, l: creditLetters })
    .from(enterprises)
    .leftJoin(creditLetters, eq(creditLetters.enterpriseId, enterprises.id))
    .where(eq(enterprises.id, id));
  if (!row) throw notFound('企业不存在');
  return view(row.e, row.l, now);
}

export async function signLetter(db: Db, c: CreditCaller, now: Date) {
  const enterpriseId = requireSide(c);
  await db.transaction(async (tx) => {
    const [e] = await tx.select().from(enterprises).where(eq(enterprises.id, enterpriseId));
    if (!e) throw notFound('企业不存在');
    const signed = await tx
      .insert(creditLetters)
      .values({
        enterpriseId,
        content: letterText(e, dateIn(now)),
        signerId: c.id,
        signerName: c.actor.userName,
        signedAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: creditLetters.enterpriseId });
    if (!signed.length) throw conflict('信用承诺书已签署');
    await writeOpLog(tx, c.actor, {
      glName: LETTER_GL,
      gnCoding: CREDIT_NODE,
      recordId: enterpriseId,
      logbook: `签署信用承诺书：${e.name}`,
    });
  });
  return letterInfo(db, c, {}, now);
}

export async function letterList(
  db: Db,
  c: CreditCaller,
  q: { keyword?: string; signed?: boolean; pageNum: number; pageSize: number },
  now: Date,
) {
  if (!(await readsAll(db, c))) throw forbidden();
  const conds: SQL[] = [];
  if (q.keyword) {
    const p = likeContains(q.keyword);
    conds.push(or(ilike(enterprises.name, p), ilike(enterprises.creditCode, p))!);
  }
  if (q.signed === true) conds.push(isNotNull(creditLetters.enterpriseId));
  if (q.signed === false) conds.push(isNull(creditLetters.enterpriseId));
  const where = conds.length ? and(...conds) : undefined;
  const rows = await db
    .select({ e: enterprises, l: creditLetters })
    .from(enterprises)
    .leftJoin(creditLetters, eq(creditLetters.enterpriseId, enterprises.id))
    .where(where)
    .orderBy(asc(enterprises.name), asc(enterprises.id))
    .limit(q.pageSize)
    .offset((q.pageNum - 1) * q.pageSize);
  const [total] = await db
    .select({ n: count() })
    .from(enterprises)
    .leftJoin(creditLetters, eq(creditLetters.enterpriseId, enterprises.id))
    .where(where);
  return { records: rows.map((r) => view(r.e, r.l, now)), total: Number(total?.n ?? 0) };
}
