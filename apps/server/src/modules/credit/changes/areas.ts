import {
  appToday,
  CAPITAL_PATTERN,
  CREDIT_NODE,
  creditRecordProblems,
  ENTERPRISE_MESSAGES,
  isValidDate,
  REGIONS,
  RFC_AREAS,
  RFC_ATTACHMENT_DATA_TYPE,
  RFC_MESSAGES,
  type RfcArea,
  type RfcChangeTypeNode,
  type RfcField,
  type RfcKind,
  rfcCreditProblems,
  rfcMessage,
  scoreText,
} from '@ks/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../../db/client';
import { enterprises, files, type RfcDataRow, users } from '../../../db/schema';
import { conflict } from '../../../platform/errors';
import type { Actor } from '../../../platform/oplog';
import * as repo from '../credit.repo';
import { reviseRecord } from '../records.service';

/**
 * The business records change rounds are opened on (RFC_AREAS), each with its change types, its form fields, its
 * annexes, the rules of its values and what a passed round writes.
 */

export interface Business {
  id: string;
  enterpriseId: string;
  enterpriseName: string;
  /** the record's title in lists and to-dos */
  name: string;
  /** raw values by field code */
  values: Record<string, string | null>;
  /** what the dialog shows by field code */
  texts: Record<string, string | null>;
  /** why no round may start on it now (null: it may) */
  refusal: string | null;
}

export interface AnnexDef {
  code: string;
  name: string;
  required: boolean;
  formats: string[];
  maxSizeMb: number;
}

interface FieldDef extends Omit<RfcField, 'readonly' | 'options' | 'highest'> {}

export interface Area {
  gnCoding: RfcArea;
  label: string;
  types: RfcChangeTypeNode[];
  load(db: DbOrTx, id: string, lock?: boolean): Promise<Business | null>;
  fieldDefs: FieldDef[];
  /** the fields a kind may change */
  editable(kind: RfcKind): string[];
  options(db: DbOrTx, business: Business): Promise<Record<string, RfcField['options']>>;
  /** the score's highest (credit records) for the form */
  highest?(db: DbOrTx, values: Record<string, string | null>): Promise<number | null>;
  annexes(kind: RfcKind | null): AnnexDef[];
  /** field problems of the values a round asks for (all fields: the current value where unchanged) */
  problems(
    db: DbOrTx,
    business: Business,
    values: Record<string, string | null>,
    opts: { review?: boolean },
  ): Promise<Record<string, string>>;
  /** display texts of raw values */
  textsOf(
    db: DbOrTx,
    business: Business,
    values: Record<string, string | null>,
  ): Promise<Record<string, string | null>>;
  /** write a passed round's values, in the decision's transaction */
  apply(
    tx: DbOrTx,
    actor: Actor,
    round: { id: string; dataList: RfcDataRow[]; annexFileIds: string[] },
    business: Business,
    now: Date,
  ): Promise<string>;
}

const PDF_IMG = ['pdf', 'jpg', 'jpeg', 'png'];
const ANNEX_FORM: AnnexDef = { code: 'bgsqb', name: '变更申请表', required: true, formats: PDF_IMG, maxSizeMb: 20 };
const ANNEX_PROOF: AnnexDef = { code: 'zmcl', name: '证明材料', required: true, formats: PDF_IMG, maxSizeMb: 50 };
const ANNEX_LICENSE: AnnexDef = { code: 'yyzz', name: '营业执照', required: true, formats: PDF_IMG, maxSizeMb: 20 };
const ANNEX_OTHER: AnnexDef = {
  code: 'qtcl',
  name: '其他材料',
  required: false,
  formats: [...PDF_IMG, 'doc', 'docx', 'xls', 'xlsx', 'zip'],
  maxSizeMb: 50,
};

const num = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? null : Number(v));

// ── 信用记录 ────────────────────────────────────────────────────────────────

const creditRecordArea: Area = {
  gnCoding: RFC_AREAS.creditRecord,
  label: '信用记录',
  types: [
    {
      value: 'info',
      label: '信息变更',
      kind: 'info',
      children: [{ value: 'record', label: '信用记录信息', kind: 'info' }],
    },
    {
      value: 'time',
      label: '时间变更',
      kind: 'time',
      children: [{ value: 'validity', label: '有效期', kind: 'time' }],
    },
  ],
  fieldDefs: [
    { code: 'xx_grouping', bianma: 'xx_grouping', name: '信用分组', type: 'select', required: true, col: 12 },
    { code: 'standard', bianma: 'standard_id', name: '信用标准', type: 'select', required: true, col: 12 },
    { code: 'score', bianma: 'score', name: '分值', type: 'number', required: true, col: 12 },
    { code: 'start_time', bianma: 'start_time', name: '开始时间', type: 'date', required: true, col: 12 },
    { code: 'end_time', bianma: 'end_time', name: '结束时间', type: 'date', required: true, col: 12 },
    { code: 'enclosure', bianma: 'enclosure', name: '证明材料', type: 'file', required: false, col: 24 },
  ],
  editable: (kind) =>
    kind === 'info'
      ? ['xx_grouping', 'standard', 'score', 'start_time', 'end_time']
      : kind === 'time'
        ? ['start_time', 'end_time']
        : [],
  async load(db, id, lock) {
    if (lock) await repo.lockRecord(db, id);
    const j = await repo.recordById(db, id);
    if (!j) return null;
    const r = j.r;
    const evidence = (await repo.filesOfRecords(db, [r.id])).get(r.id) ?? [];
    const subject = r.subjectKind === 'person' ? (j.personName ?? '') : j.enterpriseName;
    const values = {
      xx_grouping: j.xxGrouping,
      standard: r.standardId,
      score: scoreText(Number(r.score)),
      start_time: r.startTime,
      end_time: r.endTime,
      enclosure: evidence.map((f) => f.id).join(',') || null,
    };
    return {
      id: r.id,
      enterpriseId: r.enterpriseId,
      enterpriseName: j.enterpriseName,
      name: `${subject}·${j.standardName}`,
      values,
      texts: {
        ...values,
        standard: j.standardName,
        enclosure: evidence.map((f) => f.fileName).join('；') || null,
      },
      refusal: r.status === 'passed' ? null : RFC_MESSAGES.notChangeable,
    };
  },
  async options(db) {
    const standards = await repo.standardsOf(db, { enabledOnly: true });
    const groups = [...new Set(standards.map((s) => s.xxGrouping))];
    return {
      xx_grouping: groups.map((g) => ({ value: g, label: g })),
      standard: standards.map((s) => ({
        value: s.id,
        label: s.name,
        group: s.xxGrouping,
        highest: Number(s.highest),
      })),
    };
  },
  async highest(db, values) {
    const s = values.standard ? await repo.standardById(db, values.standard) : undefined;
    return s ? Number(s.highest) : null;
  },
  annexes: (kind) => (kind === 'info' || kind === 'time' ? [ANNEX_FORM, ANNEX_PROOF, ANNEX_OTHER] : [ANNEX_OTHER]),
  async problems(db, business, v, opts) {
    const s = v.standard ? await repo.standardById(db, v.standard) : undefined;
    const out: Record<string, string> = {};
    if (!s || (!s.enabled && v.standard !== business.values.standard)) out.standard = RFC_MESSAGES.standardRequired;
    else if (v.xx_grouping && v.xx_grouping !== s.xxGrouping) out.xx_grouping = '信用分组与信用标准不一致';
    const score = num(v.score);
    Object.assign(
      out,
      rfcCreditProblems(
        { start_time: v.start_time, end_time: v.end_time, score: Number.isNaN(score) ? null : score },
        s ? Number(s.highest) : null,
        opts,
      ),
    );
    if (!v.end_time) out.end_time ??= '请选择结束时间';
    if (s && !Object.keys(out).length) {
      const more = creditRecordProblems(
        { score, startTime: v.start_time, endTime: v.end_time },
        { highest: Number(s.highest), validityMonths: s.validityMonths },
        opts,
      );
      if (more.endTime) out.end_time = more.endTime;
    }
    for (const k of ['start_time', 'end_time'] as const) {
      if (v[k] && !isValidDate(v[k])) out[k] = '日期格式有误，请重新输入';
    }
    return out;
  },
  async textsOf(db, _b, v) {
    const s = v.standard ? await repo.standardById(db, v.standard) : undefined;
    return { ...v, standard: s?.name ?? v.standard };
  },
  async apply(tx, actor, round, business, now) {
    const v = { ...business.values };
    for (const d of round.dataList) if (d.dataType !== RFC_ATTACHMENT_DATA_TYPE) v[d.changeField] = d.newValue;
    const g = await reviseRecord(
      tx,
      actor,
      {
        id: business.id,
        standardId: v.standard!,
        score: Number(v.score),
        startTime: v.start_time!,
        endTime: v.end_time!,
      },
      now,
    );
    // the round's annexes become the record's evidence (copies of the stored files: the round keeps its own)
    if (round.annexFileIds.length) {
      await repo.unbindFiles(tx, business.id);
      await tx.execute(sql`
        insert into ${files} (storage_key, file_name, file_size, md5, mime, extension, owner_id, enterprise_id,
          gn_coding, record_id, annex_no, file_type, visibility, source)
        select storage_key, file_name, file_size, md5, mime, extension, owner_id, enterprise_id,
          ${CREDIT_NODE}, ${business.id}, null, file_type, visibility, source
        from ${files} where id in (${sql.join(
          round.annexFileIds.map((id) => sql`${id}`),
          sql`, `,
        )}) order by created_at, id`);
    }
    return `重新评定：${scoreText(g.score)} 分（${g.level}）`;
  },
};

// ── 企业信息 ────────────────────────────────────────────────────────────────

export const ENTERPRISE_FIELD_CODES = {
  legal_person: 'legalPerson',
  region: 'region',
  address: 'address',
  registered_capital: 'registeredCapital',
  established_at: 'establishedAt',
} as const;

const enterpriseArea: Area = {
  gnCoding: RFC_AREAS.enterprise,
  label: '企业信息',
  types: [
    {
      value: 'info',
      label: '信息变更',
      kind: 'info',
      children: [{ value: 'basic', label: '企业基本信息', kind: 'info' }],
    },
    {
      value: 'contact',
      label: '联系人变更',
      kind: 'contact',
      children: [{ value: 'contact', label: '企业联系人', kind: 'contact' }],
    },
  ],
  fieldDefs: [
    { code: 'legal_person', bianma: 'legal_person', name: '法定代表人', type: 'text', required: true, col: 12 },
    { code: 'region', bianma: 'region', name: '所在地区', type: 'select', required: true, col: 12 },
    { code: 'address', bianma: 'address', name: '注册地址', type: 'text', required: true, col: 24 },
    {
      code: 'registered_capital',
      bianma: 'registered_capital',
      name: '注册资本（元）',
      type: 'number',
      required: true,
      col: 12,
    },
    { code: 'established_at', bianma: 'established_at', name: '成立日期', type: 'date', required: true, col: 12 },
    { code: 'contact', bianma: 'contact_user_id', name: '联系人', type: 'contact', required: true, col: 24 },
  ],
  editable: (kind) => (kind === 'info' ? Object.keys(ENTERPRISE_FIELD_CODES) : kind === 'contact' ? ['contact'] : []),
  async load(db, id, lock) {
    const q = db.select().from(enterprises).where(eq(enterprises.id, id));
    const [e] = lock ? await q.for('update') : await q;
    if (!e) return null;
    const values: Record<string, string | null> = {
      legal_person: e.legalPerson,
      region: e.region,
      address: e.address,
      registered_capital: e.registeredCapital === null ? null : String(Number(e.registeredCapital)),
      established_at: e.establishedAt,
      contact: e.contactUserId,
    };
    return {
      id: e.id,
      enterpriseId: e.id,
      enterpriseName: e.name,
      name: e.name,
      values,
      texts: {
        ...values,
        contact: e.contactName ? `${e.contactName}${e.contactPhone ? `（${e.contactPhone}）` : ''}` : null,
      },
      refusal: null,
    };
  },
  async options() {
    return { region: REGIONS.map((r) => ({ value: r, label: r })) };
  },
  annexes: (kind) => (kind === 'info' ? [ANNEX_FORM, ANNEX_LICENSE, ANNEX_OTHER] : [ANNEX_OTHER]),
  async problems(db, business, v) {
    const out: Record<string, string> = {};
    const text = (k: string, max: number, label: string) => {
      const s = (v[k] ?? '').trim();
      if (!s) out[k] = rfcMessage(RFC_MESSAGES.fieldRequired, { name: label });
      else if (s.length > max) out[k] = `${label}不能超过${max}个字符`;
    };
    text('legal_person', 50, '法定代表人');
    text('address', 200, '注册地址');
    if (!v.region || !(REGIONS as readonly string[]).includes(v.region)) out.region = '请选择所在地区';
    if (!v.registered_capital) out.registered_capital = '请输入注册资本';
    else if (!CAPITAL_PATTERN.test(v.registered_capital)) out.registered_capital = ENTERPRISE_MESSAGES.capital;
    if (!v.established_at || !isValidDate(v.established_at)) out.established_at = '请选择成立日期';
    else if (v.established_at > appToday()) out.established_at = ENTERPRISE_MESSAGES.establishedFuture;
    if (v.contact !== business.values.contact) {
      if (!v.contact) out.contact = RFC_MESSAGES.contactRequired;
      else if (!(await contactOf(db, business.enterpriseId, v.contact))) out.contact = RFC_MESSAGES.contactUnknown;
    }
    return out;
  },
  async textsOf(db, business, v) {
    const out = { ...v };
    if (v.contact && v.contact !== business.values.contact) {
      const c = await contactOf(db, business.enterpriseId, v.contact);
      out.contact = c ? `${c.userName}${c.phone ? `（${c.phone}）` : ''}` : v.contact;
    } else out.contact = business.texts.contact ?? null;
    return out;
  },
  async apply(tx, _actor, round, business) {
    const set: Partial<typeof enterprises.$inferInsert> = {};
    for (const d of round.dataList) {
      // a value changed since the round was submitted (an administrator edited it) cannot be overwritten blindly
      if ((business.values[d.changeField] ?? null) !== (d.oldValue ?? null)) {
        throw conflict(ENTERPRISE_MESSAGES.changeOutdated);
      }
      if (d.changeField === 'contact') {
        const c = d.newValue ? await contactOf(tx, business.enterpriseId, d.newValue) : null;
        if (!c) throw conflict(RFC_MESSAGES.contactUnknown);
        Object.assign(set, { contactUserId: c.id, contactName: c.userName, contactPhone: c.phone });
      } else {
        const col = ENTERPRISE_FIELD_CODES[d.changeField as keyof typeof ENTERPRISE_FIELD_CODES];
        if (col) Object.assign(set, { [col]: d.newValue });
      }
    }
    if (Object.keys(set).length) {
      await tx
        .update(enterprises)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(enterprises.id, business.id));
    }
    return `企业信息已更新：${round.dataList.map((d) => d.fieldName).join('、')}`;
  },
};

/** The enterprise's people a contact is chosen from: its enabled accounts. */
export async function contactsOf(db: DbOrTx, enterpriseId: string) {
  return db
    .select({ id: users.id, userName: users.userName, phone: users.phone })
    .from(users)
    .where(and(eq(users.enterpriseId, enterpriseId), eq(users.loginRoleType, 'U')))
    .orderBy(asc(users.userName), asc(users.id));
}

async function contactOf(db: DbOrTx, enterpriseId: string, userId: string) {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) return null;
  const [u] = await db
    .select({ id: users.id, userName: users.userName, phone: users.phone })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.enterpriseId, enterpriseId)));
  return u ?? null;
}

export const AREAS: Record<string, Area> = {
  [RFC_AREAS.creditRecord]: creditRecordArea,
  [RFC_AREAS.enterprise]: enterpriseArea,
};

/** The type node and its labels for a changeTypeCode (a path of values joined by '/'), or null. */
export function typeOf(area: Area, code: string | null | undefined) {
  if (!code) return null;
  const parts = code.split('/');
  let level: RfcChangeTypeNode[] | undefined = area.types;
  const labels: string[] = [];
  let node: RfcChangeTypeNode | undefined;
  for (const p of parts) {
    node = level?.find((n) => n.value === p);
    if (!node) return null;
    labels.push(node.label);
    level = node.children;
  }
  if (!node || node.children?.length) return null;
  return { kind: node.kind, label: labels.join('/') };
}
