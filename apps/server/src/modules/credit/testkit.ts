import { CREDIT_NODE, creditCodeCheckChar, dateIn } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { creditConductRecords, creditStandards, enterprises, users } from '../../db/schema';
import { ENTERPRISE_DETAILS, type TestApp } from '../../test/harness';
import { client, PDF } from '../files/testkit';

/** Helpers of the credit tests (test-only module). */

export const UPLOAD = '/ks/common/common/upload/attachment';
export const P = {
  tree: '/ks/credit/common/left-tree',
  topTitles: '/ks/credit/management/top-titles',
  overview: '/ks/credit/grade-overview',
  list: '/ks/credit/common/list',
  management: '/ks/credit/management/list',
  info: '/ks/credit/common/info',
  records: '/ks/credit/record/list',
  add: '/ks/credit/record/add',
  update: '/ks/credit/record/update',
  remove: '/ks/credit/record/delete',
  submit: '/ks/credit/record/submit',
  revoke: '/ks/credit/record/revoke',
  audit: '/ks/credit/record/audit',
  retrieve: '/ks/credit/record/auto-retrieve',
  description: '/ks/credit/record/description',
  levels: '/ks/credit/level/titles',
  letter: '/ks/credit/credit/letter/lc-info',
  sign: '/ks/credit/credit/letter/sign',
  letters: '/ks/credit/credit/letter/list',
  qyTypes: '/ks/credit/credit/qy-types',
  participated: '/ks/credit/credit/participated-status',
  exportXlsx: '/ks/credit/export',
  selectType: '/ks/credit/admin/select-type',
  entPullDown: '/ks/basic/enterprise/credit/ent/pull-down',
  personnel: '/ks/basic/enterprise/personnel/info',
  personal: '/ks/basic/personal/pull-down',
  costEngineers: '/ks/basic/enterprise/cost-engineers',
  publicList: '/ks/credit/public/list',
  publicLevels: '/ks/credit/public/levels',
} as const;

export function creditClient(t: () => TestApp) {
  const api = client(t);
  return {
    ...api,
    async put(url: string, token: string | null, payload: object) {
      const r = await t().app.inject({
        method: 'PUT',
        url,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        payload,
      });
      return { status: r.statusCode, body: JSON.parse(r.body), res: r };
    },
    /** a PDF uploaded for the credit node by `token`: its file id */
    async evidence(token: string, name = '获奖证书.pdf'): Promise<string> {
      const r = await api.upload(UPLOAD, token, { gnCoding: CREDIT_NODE, systemCoding: 'XYGL' }, [
        { name, data: PDF() },
      ]);
      if (r.status !== 200) throw new Error(`upload failed: ${JSON.stringify(r.body)}`);
      return r.body.data.fileId as string;
    },
  };
}

export async function standardId(db: DbOrTx, code: string): Promise<string> {
  const [s] = await db.select({ id: creditStandards.id }).from(creditStandards).where(eq(creditStandards.code, code));
  if (!s) throw new Error(`no standard ${code}`);
  return s.id;
}

let serial = 0;
/** A new enterprise with complete details and a valid credit code. */
export async function newEnterprise(db: DbOrTx, name: string): Promise<string> {
  serial++;
  const base = `91140100MA0N${String(process.pid % 100).padStart(2, '0')}${String(serial).padStart(3, '0')}`;
  const [e] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name, creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning({ id: enterprises.id });
  return e!.id;
}

/** A passed record written directly (as a reviewer's decision would leave it). */
export async function passedRecord(
  db: DbOrTx,
  enterpriseId: string,
  v: { standardId: string; score: number; startTime: string; endTime: string; status?: string },
) {
  const [admin] = await db.select().from(users).where(eq(users.account, 'admin'));
  const at = new Date();
  const status = v.status ?? 'passed';
  const [r] = await db
    .insert(creditConductRecords)
    .values({
      subjectKind: 'enterprise',
      subjectId: enterpriseId,
      enterpriseId,
      standardId: v.standardId,
      score: String(v.score),
      startTime: v.startTime,
      endTime: v.endTime,
      title: '测试记录',
      source: 'imported',
      status,
      createdByName: '测试',
      submittedAt: at,
      submittedByName: '测试',
      ...(status === 'draft' || status === 'submitted'
        ? {}
        : { auditedAt: at, auditedByName: '测试', auditedBy: admin!.id }),
      ...(status === 'rejected' ? { auditSuggestion: '不符合' } : {}),
      ...(status === 'revoked' ? { revokedAt: at, revokeReason: '撤销' } : {}),
    })
    .returning({ id: creditConductRecords.id });
  return r!.id;
}

/** A calendar day `n` days from `d` in the platform's zone. */
export const dayFrom = (d: Date, n: number) => dateIn(new Date(d.getTime() + n * 86_400_000));
