import { type FieldDef, REGISTRATION_NODE, REGISTRATION_SYSTEM, STANDARD_BUTTONS } from '@ks/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client';
import { auditLevels, businessSystems, menuNodes, nodeFunctions, users } from '../../db/schema';
import { SYSTEM_ACTOR } from '../../platform/oplog';
import { nodeAccessor } from '../engine/accessor';
import { saveFields } from '../engine/schema.service';

/**
 * The review of enterprise registrations runs on an engine node of the platform system (PTGL): administrators get a
 * to-do per application, open it from the to-do or the node's list (/dynamicPage/dynamicIndex) and decide it there;
 * the decision hooks (registration.service) create the enterprise or record the reason. `ensureRegistrationNode` makes
 * the node, its fields, buttons and review level and the applicant account when they are missing — at start-up (so a
 * production install has them) and in the demo seed; it changes nothing that exists (administrators may reconfigure).
 */

/** The engine fields of 企业注册审核 this module writes (the enterprise name first: to-dos are named by it). */
export const REGISTRATION_FIELDS: FieldDef[] = [
  { code: 'qymc', name: '企业名称', type: 'text', required: 1, length: 200 },
  { code: 'tyshxydm', name: '统一社会信用代码', type: 'text', required: 1, length: 18 },
  { code: 'sqbh', name: '申请编号', type: 'text', length: 32 },
  { code: 'qylx', name: '企业类型', type: 'text', length: 40 },
  { code: 'szdq', name: '所在地区', type: 'text', length: 50 },
  { code: 'xxdz', name: '详细地址', type: 'text', length: 200 },
  { code: 'fddbr', name: '法定代表人', type: 'text', length: 50 },
  { code: 'fddbrsj', name: '法定代表人手机', type: 'text', length: 11 },
  { code: 'lxr', name: '联系人', type: 'text', length: 64 },
  { code: 'lxdh', name: '联系人手机', type: 'text', length: 11 },
  { code: 'glyzh', name: '管理员账号', type: 'text', length: 64 },
  { code: 'sqzt', name: '申请状态', type: 'text', length: 20 },
];

export const qyzc = nodeAccessor(REGISTRATION_NODE, {
  sqbh: z.string().nullable(),
  qymc: z.string().nullable(),
  tyshxydm: z.string().nullable(),
  qylx: z.string().nullable(),
  szdq: z.string().nullable(),
  xxdz: z.string().nullable(),
  fddbr: z.string().nullable(),
  fddbrsj: z.string().nullable(),
  lxr: z.string().nullable(),
  lxdh: z.string().nullable(),
  glyzh: z.string().nullable(),
  sqzt: z.string().nullable(),
});

/**
 * The account that owns anonymous applications and their licence files (engine records and files need an owner). It
 * can never sign in: disabled, and its password hash is no argon2 hash, so no password verifies.
 */
export const APPLICANT_ACCOUNT = 'sys_self_register';
const APPLICANT_NAME = '企业自助注册';

export async function applicantUser(db: DbOrTx): Promise<{ id: string; userName: string }> {
  const [u] = await db
    .select({ id: users.id, userName: users.userName })
    .from(users)
    .where(eq(users.account, APPLICANT_ACCOUNT));
  if (!u) throw new Error('the self-registration applicant account is missing (ensureRegistrationNode)');
  return u;
}

const col = (code: string, name: string, extra: object = {}) => ({
  code,
  name,
  type: 'text',
  show: true,
  isSearch: false,
  isStatus: false,
  listAlignment: '居中',
  width: null,
  ...extra,
});

/** Makes what is missing of the registration review (idempotent; several processes may start at once). */
export async function ensureRegistrationNode(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('ks.register.node'))`);
    await tx
      .insert(users)
      .values({
        account: APPLICANT_ACCOUNT,
        userName: APPLICANT_NAME,
        loginRoleType: 'U',
        passwordHash: '!disabled',
        status: 'disabled',
      })
      .onConflictDoNothing();
    const [system] = await tx.select().from(businessSystems).where(eq(businessSystems.gnCoding, REGISTRATION_SYSTEM));
    if (!system) return;
    let [node] = await tx.select().from(menuNodes).where(eq(menuNodes.gnCoding, REGISTRATION_NODE));
    if (!node) {
      [node] = await tx
        .insert(menuNodes)
        .values({
          systemId: system.id,
          parentId: null,
          gnCoding: REGISTRATION_NODE,
          title: '企业注册审核',
          icon: 'SolutionOutlined',
          itShows: '是',
          nodeProperties: 'list',
          style: 'table',
          sort: 10,
          columns: [
            col('sqbh', '申请编号', { width: 170 }),
            col('qymc', '企业名称', { isSearch: true, listAlignment: '左对齐', width: 240 }),
            col('tyshxydm', '统一社会信用代码', { isSearch: true, width: 190 }),
            col('szdq', '所在地区', { width: 100 }),
            col('fddbr', '法定代表人', { width: 110 }),
            col('sqzt', '申请状态', { width: 100 }),
            col('zt', '状态', { type: 'status', isStatus: true, width: 100 }),
            col('shlc', '审核流程', { type: 'auditFlow' }),
            col('cz', '操作', { type: 'operations', width: 160 }),
          ],
        })
        .returning();
      const buttons = ['detail', 'audit', 'export'];
      await tx.insert(nodeFunctions).values(
        buttons.map((code, j) => {
          const b = STANDARD_BUTTONS.find((x) => x.code === code)!;
          return { nodeId: node!.id, code, name: b.name, color: b.color, kind: b.kind, sort: j };
        }),
      );
    }
    const n = node!;
    const [level] = await tx
      .select()
      .from(auditLevels)
      .where(and(eq(auditLevels.nodeId, n.id)));
    if (!level) {
      await tx.insert(auditLevels).values({
        nodeId: n.id,
        level: 1,
        name: '注册审核',
        way: 'any',
        reviewerRoles: ['admin'],
        reviewerUserIds: [],
      });
    }
    if (n.dataSource === 'engine' && n.fieldsVersion === 0) {
      await saveFields(tx, SYSTEM_ACTOR, REGISTRATION_NODE, REGISTRATION_FIELDS, 0, []);
    }
  });
}
