import { creditCodeCheckChar, DEFAULT_TIME_ZONE, dateIn, TENDER_PROJECT_NODE } from '@ks/contracts';
import type { Db } from '../db/client';
import type { EngineCaller } from '../modules/engine/record-access';
import { recordRow } from '../modules/engine/records.repo';
import { saveRecord } from '../modules/engine/records.service';
import { auditRecord, submitRecord } from '../modules/engine/review.service';
import { saveSection } from '../modules/tender/tender.service';

/**
 * Tender projects of the demo (项目进场登记, five-in-one), entered at the trading centre's window by the administrator
 * through the engine's own services and passed by the 审核员, with their sections through the tender module — their
 * sale periods and deadlines counted from the day of the seed, so the timeline rules hold and the deadlines lie ahead.
 */
const code = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;
const DAY = 86_400_000;

interface DemoProject {
  values: Record<string, unknown>;
  passed: boolean;
  sections: { code: string; name: string; estimate: number; deposit: number; saleFrom: number; deadline: number }[];
}

export const DEMO_PROJECTS: DemoProject[] = [
  {
    passed: true,
    values: {
      xmmc: '太原市晋源区第二实验小学教学综合楼建设工程',
      xmbh: 'SXGC-2026-1101',
      xmlx: '房屋建筑工程',
      zbfs: '公开招标',
      zbr: '太原市晋源区教育局',
      zbrdm: code('11140110MB1958163'),
      dljg: '山西诚信招标代理有限公司',
      xmszd: ['山西省', '太原市', '晋源区'],
      ztz: 48_600_000,
      zjly: '财政资金',
      xmgk: '新建教学综合楼一栋，地上五层，建筑面积 12,860 平方米，框架结构，含室外配套及附属工程。',
      lxr: '李慧敏',
      lxdh: '13835126608',
    },
    sections: [
      { code: 'BD-01', name: '施工标段', estimate: 38_500_000, deposit: 770_000, saleFrom: 1, deadline: 25 },
      { code: 'BD-02', name: '监理标段', estimate: 860_000, deposit: 17_000, saleFrom: 1, deadline: 25 },
    ],
  },
  {
    passed: true,
    values: {
      xmmc: '大同市御河东路雨污分流改造工程',
      xmbh: 'SXGC-2026-1102',
      xmlx: '市政公用工程',
      zbfs: '公开招标',
      zbr: '大同市市政设施管理中心',
      zbrdm: code('12140200MB0287430'),
      dljg: '山西诚信招标代理有限公司',
      xmszd: ['山西省', '大同市', '平城区'],
      ztz: 26_300_000,
      zjly: '地方政府专项债券',
      xmgk: '御河东路（文兴路至北都街）雨污分流管网改造，新建污水管道 3.2 公里、雨水管道 2.8 公里及检查井等附属设施。',
      lxr: '赵文博',
      lxdh: '13903521478',
    },
    sections: [{ code: 'BD-01', name: '施工标段', estimate: 23_800_000, deposit: 476_000, saleFrom: 2, deadline: 28 }],
  },
  {
    passed: false,
    values: {
      xmmc: '长治市潞州区城市公园绿化提升工程',
      xmbh: 'SXGC-2026-1103',
      xmlx: '园林绿化工程',
      zbfs: '公开招标',
      zbr: '长治市潞州区园林绿化服务中心',
      zbrdm: code('12140403MB1720953'),
      xmszd: ['山西省', '长治市', '潞州区'],
      ztz: 7_850_000,
      zjly: '财政资金',
      lxr: '王建平',
      lxdh: '15935560127',
    },
    sections: [],
  },
];

export async function seedTender(tx: Db, who: { admin: EngineCaller; auditor: EngineCaller }, now = new Date()) {
  const gnCoding = TENDER_PROJECT_NODE;
  const ids: string[] = [];
  for (const p of DEMO_PROJECTS) {
    const saved = await saveRecord(tx, who.admin, { gnCoding, values: p.values }, {});
    const id = String(saved.id);
    ids.push(id);
    for (const s of p.sections) {
      const day = (n: number) => dateIn(new Date(now.getTime() + n * DAY), DEFAULT_TIME_ZONE);
      await saveSection(
        tx,
        who.admin,
        {
          projectId: id,
          code: s.code,
          name: s.name,
          estimate: s.estimate,
          deposit: s.deposit,
          docSaleStart: day(s.saleFrom),
          docSaleEnd: day(s.saleFrom + 6),
          // 09:30 in Beijing time
          bidDeadline: new Date(`${day(s.deadline)}T09:30:00+08:00`).toISOString(),
        },
        now,
        DEFAULT_TIME_ZONE,
      );
    }
    if (!p.passed) continue;
    const version = async () => Number((await recordRow(tx, gnCoding, id))!.version);
    await submitRecord(tx, who.admin, { gnCoding, id, version: await version() });
    await auditRecord(tx, who.auditor, {
      gnCoding,
      id,
      version: await version(),
      pass: true,
      suggestion: '材料齐全，同意进场',
    });
  }
  return ids;
}
