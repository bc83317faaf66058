import { PERFORMANCE_NODE } from '@ks/contracts';
import type { Db } from '../db/client';
import type { EngineCaller } from '../modules/engine/record-access';
import { recordRow } from '../modules/engine/records.repo';
import { saveRecord } from '../modules/engine/records.service';
import { auditRecord, submitRecord } from '../modules/engine/review.service';
import { registerPerformanceHooks } from '../modules/performance/performance';

/**
 * 企业业绩 of the demo enterprise (user1's 示例建设工程有限公司), declared and reviewed through the engine like any
 * user's: two passed (they reach the portal's market detail page), one waiting for review, one draft.
 */
const DECLARED: { values: Record<string, unknown>; state: 'draft' | 'pending' | 'passed' }[] = [
  {
    state: 'passed',
    values: {
      xmmc: '太原市小店区许坦东街道路改造工程',
      cdjs: '施工总承包',
      jsdw: '太原市小店区住房和城乡建设局',
      xmszd: '太原市小店区',
      htje: 18_653_200,
      kgrq: '2024-03-18',
      jgrq: '2025-06-30',
      xmfzr: '王建国',
    },
  },
  {
    state: 'passed',
    values: {
      xmmc: '晋中市榆次区第二实验小学教学楼工程',
      cdjs: '施工总承包',
      jsdw: '晋中市榆次区教育局',
      xmszd: '晋中市榆次区',
      htje: 26_418_900,
      kgrq: '2023-04-10',
      jgrq: '2024-08-26',
      xmfzr: '李晓东',
    },
  },
  {
    state: 'pending',
    values: {
      xmmc: '阳泉市郊区荫营镇供水管网改造工程',
      cdjs: '专业承包',
      jsdw: '阳泉市郊区水务局',
      xmszd: '阳泉市郊区',
      htje: 6_935_000,
      kgrq: '2025-03-01',
      jgrq: '2025-11-15',
      xmfzr: '王建国',
    },
  },
  {
    state: 'draft',
    values: {
      xmmc: '忻州市忻府区城区雨污分流改造工程（二标段）',
      cdjs: '施工总承包',
      jsdw: '忻州市忻府区住房和城乡建设管理局',
      xmszd: '忻州市忻府区',
      htje: 12_300_000,
      kgrq: '2025-04-01',
      jgrq: '2025-10-31',
    },
  },
];

export async function seedPerformance(tx: Db, who: { user: EngineCaller; admin: EngineCaller }) {
  registerPerformanceHooks();
  const gnCoding = PERFORMANCE_NODE;
  const version = async (id: string) => Number((await recordRow(tx, gnCoding, id))!.version);
  for (const d of DECLARED) {
    const saved = await saveRecord(tx, who.user, { gnCoding, values: d.values }, {});
    const id = String(saved.id);
    if (d.state === 'draft') continue;
    await submitRecord(tx, who.user, { gnCoding, id, version: await version(id) });
    if (d.state === 'pending') continue;
    await auditRecord(tx, who.admin, {
      gnCoding,
      id,
      version: await version(id),
      pass: true,
      suggestion: '业绩真实，予以认定',
    });
  }
}
