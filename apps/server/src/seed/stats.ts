import type { Db } from '../db/client';
import { statsImportedTransactions } from '../db/schema';
import { rebuild } from '../modules/stats/stats.repo';
import { registerStatsHooks } from '../modules/stats/stats.service';

/**
 * 统计分析 demo history (issue 19): the trading centre's transactions of 2026 from before its 进场登记 ran on this
 * platform (历史交易, migrated from the earlier system) — months of the year before the seed's, across Shanxi's cities and
 * the six project types of 项目进场登记, some of them the demo enterprise's own (it is the tenderee of its office
 * building). They never enter the tender tables (no opening hall, no supervision for closed deals). Written in bulk,
 * then the summaries are recomputed once (`stats_rebuild`), which also counts the records and to-dos the other seeds
 * made through the services.
 */
const REGIONS = [
  ['太原市', '小店区'],
  ['太原市', '晋源区'],
  ['大同市', '平城区'],
  ['晋中市', '榆次区'],
  ['忻州市', '忻府区'],
  ['运城市', '盐湖区'],
  ['长治市', '潞州区'],
  ['临汾市', '尧都区'],
  ['吕梁市', '离石区'],
] as const;
const DEMO_BUILDING = '示例建设工程有限公司办公楼建设工程';
const TYPES = ['房屋建筑工程', '市政公用工程', '公路工程', '水利水电工程', '园林绿化工程', '装饰装修工程'] as const;
const WORKS: Record<(typeof TYPES)[number], string[]> = {
  房屋建筑工程: ['中学教学楼新建工程', '人民医院门诊综合楼工程', '保障性住房项目', '社区卫生服务中心建设工程'],
  市政公用工程: ['主干道提质改造工程', '老旧小区供热管网改造工程', '污水处理厂提标改造工程', '雨污分流改造工程'],
  公路工程: ['县乡公路大中修工程', '农村公路安全生命防护工程', '国道改线工程'],
  水利水电工程: ['河道综合治理工程', '灌区续建配套与节水改造工程', '水库除险加固工程'],
  园林绿化工程: ['城市公园提质工程', '滨河绿道建设工程', '道路绿化景观工程'],
  装饰装修工程: ['政务服务中心装修改造工程', '图书馆室内装修工程', '体育馆改造工程'],
};

/** A small deterministic generator: the demo's history is the same on every install. */
function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function seedStats(tx: Db, demoEnterpriseId: string, seededAt = new Date()) {
  registerStatsHooks();
  const rnd = lcg(20260101);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const year = 2026;
  // the months of 2026 before the seed's (at least January)
  const lastMonth = Math.max(1, seededAt.getUTCFullYear() === year ? seededAt.getUTCMonth() : 12);
  const rows: (typeof statsImportedTransactions.$inferInsert)[] = [];
  let no = 0;
  for (let m = 1; m <= lastMonth; m++) {
    const count = 8 + Math.floor(rnd() * 7);
    for (let i = 0; i < count; i++) {
      no++;
      const [city, district] = pick(REGIONS);
      const type = pick(TYPES);
      const day = String(3 + Math.floor(rnd() * 24)).padStart(2, '0');
      const openedAt = new Date(`${year}-${String(m).padStart(2, '0')}-${day}T09:30:00+08:00`);
      const investment = Math.round((2 + rnd() * 60) * 1_000_000);
      const ownByDemo = no % 9 === 0;
      const projectName = ownByDemo ? `${DEMO_BUILDING}（${city}）` : `${city}${district}${pick(WORKS[type])}`;
      const nSections = 1 + Math.floor(rnd() * 3);
      for (let s = 1; s <= nSections; s++) {
        rows.push({
          enterpriseId: ownByDemo ? demoEnterpriseId : null,
          region: city,
          type,
          openedAt,
          amount: Math.round((investment / nSections) * (0.75 + rnd() * 0.15) * 100) / 100,
          sectionCode: `BD-${String(s).padStart(2, '0')}`,
          sectionName: s === 1 ? '施工标段' : `施工${s}标段`,
          projectCode: `SXGC-${year}-H${String(no).padStart(3, '0')}`,
          projectName,
        });
      }
    }
  }
  await tx.insert(statsImportedTransactions).values(rows);
  await rebuild(tx);
}
