import {
  EXPERT_AVAILABILITY,
  EXPERT_POOL_NODE,
  EXPERT_SPECIALTIES,
  type FieldDef,
  type PoolExpert,
  SHANXI_CITIES,
  sortPool,
} from '@ks/contracts';
import { and, inArray, max, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db/client';
import { expertExtractionMembers } from '../../db/schema';
import { ACCESSOR_LIST_MAX, nodeAccessor } from '../engine/accessor';
import { nodeForEngine } from '../engine/schema.repo';

/**
 * The expert pool (专家库) is the engine node ZJCQ_ZJK: administrators keep it with the engine's list, form, export and
 * log. This module reads it through one typed accessor; the fields below are what the demo seed configures (an
 * administrator may add fields; these codes must stay).
 */

const options = (values: readonly string[]) => ({ list: values.map((v) => ({ label: v, value: v })) });

export const EXPERT_TITLES = [
  '正高级工程师',
  '高级工程师',
  '教授',
  '副教授',
  '研究员',
  '高级经济师',
  '高级会计师',
  '正高级经济师',
] as const;

export const EXPERT_POOL_FIELDS: FieldDef[] = [
  { code: 'xm', name: '姓名', type: 'text', required: 1, length: 20 },
  { code: 'xb', name: '性别', type: 'sex', required: 1 },
  { code: 'sfzh', name: '身份证号', type: 'text', required: 1, length: 18, validator: 'idCard' },
  { code: 'lxdh', name: '联系电话', type: 'text', required: 1, length: 11, validator: 'mobile' },
  {
    code: 'zy',
    name: '评标专业',
    type: 'select',
    required: 1,
    tips: '技术类：房屋建筑、市政、公路、水利等；经济类：工程造价、工程经济、财务审计',
    options: options(EXPERT_SPECIALTIES.map((s) => s.value)),
  },
  { code: 'dq', name: '所在地区', type: 'select', required: 1, options: options(SHANXI_CITIES) },
  { code: 'dw', name: '工作单位', type: 'text', required: 1, length: 200 },
  { code: 'zc', name: '职称', type: 'select', required: 1, options: options(EXPERT_TITLES) },
  { code: 'zt', name: '在库状态', type: 'radio', required: 1, options: options(EXPERT_AVAILABILITY) },
  { code: 'hbsm', name: '回避说明', type: 'textarea', length: 500 },
];

const str = z.string().nullable();
export const zjk = nodeAccessor(EXPERT_POOL_NODE, {
  xm: str,
  xb: str,
  sfzh: str,
  lxdh: str,
  zy: str,
  dq: str,
  dw: str,
  zc: str,
  zt: str,
  hbsm: str,
});

/** Is the pool node configured (its fields saved)? */
export async function poolReady(q: DbOrTx): Promise<boolean> {
  try {
    const n = await nodeForEngine(q, EXPERT_POOL_NODE);
    return n.dataSource === 'engine' && n.fieldsVersion > 0;
  } catch {
    return false;
  }
}

/** Every expert record of the pool (in pages of the accessor's maximum). */
export async function allExperts(q: DbOrTx) {
  if (!(await poolReady(q))) return [];
  const out: Awaited<ReturnType<typeof zjk.list>> = [];
  for (let offset = 0; ; offset += ACCESSOR_LIST_MAX) {
    const page = await zjk.list(q, { limit: ACCESSOR_LIST_MAX, offset });
    out.push(...page);
    if (page.length < ACCESSOR_LIST_MAX) return out;
  }
}

/** When each expert was last drawn for another extraction. */
export async function lastDrawn(q: DbOrTx, expertIds: string[], exceptExtraction?: string) {
  const map = new Map<string, Date>();
  if (expertIds.length === 0) return map;
  const rows = await q
    .select({ expertId: expertExtractionMembers.expertId, at: max(expertExtractionMembers.drawnAt) })
    .from(expertExtractionMembers)
    .where(
      and(
        exceptExtraction ? ne(expertExtractionMembers.extractionId, exceptExtraction) : undefined,
        expertIds.length <= 5000 ? inArray(expertExtractionMembers.expertId, expertIds) : undefined,
      ),
    )
    .groupBy(expertExtractionMembers.expertId);
  for (const r of rows) if (r.at) map.set(r.expertId, r.at);
  return map;
}

/** The draw's view of the pool: sorted by id, no names or phones. */
export async function poolSnapshotOf(q: DbOrTx, takenAt: Date) {
  const experts = await allExperts(q);
  const drawn = await lastDrawn(
    q,
    experts.map((e) => e.id),
  );
  const pool: PoolExpert[] = experts.map((e) => ({
    id: e.id,
    specialty: e.values.zy ?? '',
    region: e.values.dq ?? '',
    employer: e.values.dw ?? '',
    available: e.values.zt === '在库',
    lastDrawnAt: drawn.get(e.id)?.toISOString() ?? null,
  }));
  return { snapshot: { takenAt: takenAt.toISOString(), experts: sortPool(pool) }, records: experts };
}
