import { appToday, EXPERT_POOL_NODE, EXPERT_SPECIALTIES, idNumberCheckChar, type SHANXI_CITIES } from '@ks/contracts';
import type { Db } from '../db/client';
import { saveFields } from '../modules/engine/schema.service';
import * as extraction from '../modules/experts/extraction.service';
import { EXPERT_POOL_FIELDS, zjk } from '../modules/experts/pool';
import { type Actor, SYSTEM_ACTOR } from '../platform/oplog';
import type { RequestMemo } from '../platform/permissions';

/**
 * The demo expert pool (专家库, ZJCQ_ZJK): 320 evaluation experts of Shanxi, made by a deterministic generator (the
 * same pool on every seed) — names, GB 11643 ID numbers of their city, mobile numbers, specialties (technical and
 * economic), employers (universities, design institutes, construction groups, cost consultancies), titles, a few
 * suspended, some with avoidance notes. Three work for the demo enterprise, so avoiding it visibly matters.
 */

export const DEMO_EXPERT_COUNT = 320;

/** GB/T 2260 codes of the cities' urban districts (the ID number's first six digits). */
const CITY_CODES: Record<(typeof SHANXI_CITIES)[number], string[]> = {
  太原市: ['140105', '140106', '140107', '140108', '140109', '140110'],
  大同市: ['140212', '140213', '140214', '140215'],
  阳泉市: ['140302', '140303'],
  长治市: ['140403', '140404', '140405'],
  晋城市: ['140502', '140521'],
  朔州市: ['140602', '140603'],
  晋中市: ['140702', '140703'],
  运城市: ['140802', '140881'],
  忻州市: ['140902', '140981'],
  临汾市: ['141002', '141081'],
  吕梁市: ['141102', '141181'],
};

/** Where the experts work, by city (technical and economic employers). */
const EMPLOYERS: Record<(typeof SHANXI_CITIES)[number], { technical: string[]; economic: string[] }> = {
  太原市: {
    technical: [
      '太原理工大学',
      '山西省建筑设计研究院有限公司',
      '山西建筑工程集团有限公司',
      '山西省交通规划勘察设计院有限公司',
      '山西省水利水电勘测设计研究院有限公司',
      '太原市市政工程设计研究院',
      '中国建筑第二工程局有限公司山西分公司',
      '山西省勘察设计研究院有限公司',
    ],
    economic: [
      '山西财经大学',
      '山西中新建设工程造价咨询有限公司',
      '太原市建设工程造价管理站',
      '山西华信工程项目管理有限公司',
      '山西晋誉会计师事务所有限公司',
    ],
  },
  大同市: {
    technical: ['山西大同大学', '大同市建筑设计研究院', '大同市市政建设工程有限公司', '大同煤矿集团工程建设有限公司'],
    economic: ['大同市同信工程造价咨询有限公司', '大同市建设工程造价管理站'],
  },
  阳泉市: {
    technical: ['阳泉市建筑设计院', '阳泉市政工程有限公司'],
    economic: ['阳泉正诚工程造价咨询有限公司'],
  },
  长治市: {
    technical: ['长治学院', '长治市规划建筑设计研究院', '山西潞安工程有限公司'],
    economic: ['长治市上党工程造价咨询有限公司', '长治市财政投资评审中心'],
  },
  晋城市: {
    technical: ['晋城市建筑勘察设计院', '晋城市公路工程有限公司'],
    economic: ['晋城市泽州工程造价咨询有限公司'],
  },
  朔州市: { technical: ['朔州市建筑勘察设计院', '朔州市水利工程建设有限公司'], economic: ['朔州市建设工程造价站'] },
  晋中市: {
    technical: ['晋中学院', '晋中市建筑设计研究院', '山西四建集团有限公司', '中国铁建十二局集团有限公司'],
    economic: ['晋中市榆次区财政投资评审中心', '山西诚达工程造价咨询有限公司'],
  },
  运城市: {
    technical: ['运城学院', '运城市建筑设计院', '运城市黄河水利工程有限公司'],
    economic: ['运城市河东工程造价咨询有限公司'],
  },
  忻州市: { technical: ['忻州师范学院', '忻州市建筑设计院'], economic: ['忻州市宏达工程造价咨询有限公司'] },
  临汾市: {
    technical: ['山西师范大学', '临汾市建筑设计研究院', '山西临汾市政工程有限公司'],
    economic: ['临汾市尧都工程造价咨询有限公司'],
  },
  吕梁市: { technical: ['吕梁学院', '吕梁市建筑设计院'], economic: ['吕梁市建设工程造价站'] },
};

const SURNAMES =
  '王李张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎余潘杜戴夏钟汪田任姜范方石姚谭廖邹熊金陆郝孔白崔康毛邱秦江史顾侯邵孟龙万段雷钱汤尹黎易常武乔贺赖龚文'.split(
    '',
  );
const GIVEN_M =
  '建国 志强 海军 文斌 晓东 俊峰 立新 国栋 宏伟 永刚 振华 学军 卫东 建军 明亮 树林 亚军 鹏飞 云龙 守义 旭东 晋生 太平 耀武 德胜 成林 保平 晋峰 少华 天佑'.split(
    ' ',
  );
const GIVEN_F =
  '丽萍 晓燕 秀英 海燕 玉兰 红霞 淑芬 雅琴 晋芳 慧敏 春梅 彩霞 美玲 亚楠 静怡 文娟 瑞霞 丽君 桂芳 晓琳'.split(' ');
const TITLES_TECH = ['正高级工程师', '高级工程师', '高级工程师', '高级工程师', '教授', '副教授', '研究员'];
const TITLES_ECON = ['高级经济师', '高级会计师', '正高级经济师', '高级工程师', '教授', '副教授'];
const PHONE_PREFIX = [
  '135',
  '136',
  '138',
  '139',
  '150',
  '151',
  '152',
  '158',
  '159',
  '182',
  '183',
  '187',
  '188',
  '133',
  '153',
  '180',
  '189',
  '130',
  '131',
  '155',
  '186',
];
/** the city weights: Taiyuan has most experts, then the larger cities */
const CITY_WEIGHTS: [(typeof SHANXI_CITIES)[number], number][] = [
  ['太原市', 30],
  ['大同市', 9],
  ['阳泉市', 5],
  ['长治市', 9],
  ['晋城市', 6],
  ['朔州市', 4],
  ['晋中市', 10],
  ['运城市', 9],
  ['忻州市', 5],
  ['临汾市', 8],
  ['吕梁市', 5],
];
/** the specialty weights (房屋建筑 and 工程造价 are the busiest) */
const SPECIALTY_WEIGHTS: Record<string, number> = {
  房屋建筑工程: 16,
  市政公用工程: 10,
  公路工程: 7,
  水利水电工程: 6,
  建筑电气与智能化: 7,
  给排水与暖通: 6,
  岩土与地基基础: 4,
  钢结构工程: 4,
  园林绿化工程: 4,
  工程造价: 18,
  工程经济: 9,
  财务审计: 9,
};

function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
function weighted<T>(r: () => number, xs: readonly [T, number][]): T {
  const total = xs.reduce((s, [, w]) => s + w, 0);
  let u = r() * total;
  for (const [x, w] of xs) {
    u -= w;
    if (u < 0) return x;
  }
  return xs[xs.length - 1]![0];
}

export interface DemoExpert {
  xm: string;
  xb: '男' | '女';
  sfzh: string;
  lxdh: string;
  zy: string;
  dq: string;
  dw: string;
  zc: string;
  zt: '在库' | '暂停';
  hbsm: string | null;
}

/** The demo pool, the same every time. */
export function demoExperts(n = DEMO_EXPERT_COUNT, seed = 20261127): DemoExpert[] {
  const r = rng(seed);
  const out: DemoExpert[] = [];
  const ids = new Set<string>();
  const phones = new Set<string>();
  const specialties = EXPERT_SPECIALTIES.map((s) => [s, SPECIALTY_WEIGHTS[s.value] ?? 1] as [typeof s, number]);
  for (let i = 0; i < n; i++) {
    const dq = weighted(r, CITY_WEIGHTS);
    const sp = weighted(r, specialties);
    const female = r() < 0.28;
    const xm = pick(r, SURNAMES) + pick(r, female ? GIVEN_F : GIVEN_M);
    let sfzh: string;
    do {
      const year = 1960 + Math.floor(r() * 26);
      const month = 1 + Math.floor(r() * 12);
      const day = 1 + Math.floor(r() * 28);
      const order = 100 + Math.floor(r() * 400) * 2 + (female ? 0 : 1);
      const first17 = `${pick(r, CITY_CODES[dq])}${year}${String(month).padStart(2, '0')}${String(day).padStart(2, '0')}${String(order).padStart(3, '0')}`;
      sfzh = first17 + idNumberCheckChar(first17)!;
    } while (ids.has(sfzh));
    ids.add(sfzh);
    let lxdh: string;
    do {
      lxdh = pick(r, PHONE_PREFIX) + String(Math.floor(r() * 1e8)).padStart(8, '0');
    } while (phones.has(lxdh));
    phones.add(lxdh);
    // about one in six works in another city than the one they live in (a Taiyuan institute's branch staff)
    const employerCity = r() < 0.15 ? '太原市' : dq;
    const dw = pick(r, EMPLOYERS[employerCity][sp.category]);
    const zc = pick(r, sp.category === 'technical' ? TITLES_TECH : TITLES_ECON);
    const suspended = r() < 0.07;
    const note = r();
    const hbsm = suspended
      ? pick(r, ['因病暂停评标活动至年底', '借调外地工作，暂停抽取', '年度考核不合格，暂停评标资格六个月'])
      : note < 0.08
        ? `配偶在${pick(r, ['山西建筑工程集团有限公司', '山西四建集团有限公司', '中国建筑第二工程局有限公司山西分公司'])}任职，该单位投标的项目回避`
        : note < 0.12
          ? '曾参与本单位承接项目的设计，同一项目回避'
          : null;
    out.push({
      xm,
      xb: female ? '女' : '男',
      sfzh,
      lxdh,
      zy: sp.value,
      dq,
      dw,
      zc,
      zt: suspended ? '暂停' : '在库',
      hbsm,
    });
  }
  // three experts from the demo enterprise, so avoiding a bidder's employer visibly matters
  for (let k = 0; k < 3; k++) {
    const e = out[k * 7]!;
    e.dw = '示例建设工程有限公司';
    e.zy = '房屋建筑工程';
    e.zt = '在库';
    e.hbsm = '示例建设工程有限公司投标的项目回避';
  }
  return out;
}

/** Configures the pool node's fields and adds the demo experts (owned by the administrator who keeps the pool). */
export async function seedExperts(tx: Db, admin: { id: string; actor: Actor }): Promise<void> {
  await saveFields(tx, SYSTEM_ACTOR, EXPERT_POOL_NODE, EXPERT_POOL_FIELDS, 0, [
    { fields: ['sfzh'], withinEnterprise: false },
  ]);
  for (const e of demoExperts()) {
    await zjk.create(tx, e, {
      owner: { ownerId: admin.id, enterpriseId: null },
      actor: admin.actor,
      logbook: `专家入库：${e.xm}（${e.zy}）`,
    });
  }
}

/**
 * A demo extraction through the module's own service, as the administrator does it: conditions, the seed committed,
 * the draw, one expert declining (a replacement drawn), the others confirming, the list confirmed. Evaluation is two
 * days ahead, so the names stay with the administrator until then and the seed is verifiable by him now.
 */
export async function seedExtraction(
  tx: Db,
  admin: { id: string; loginRoleType: string; actor: Actor; memo: RequestMemo },
  now = new Date(),
): Promise<void> {
  const day = appToday(new Date(now.getTime() + 2 * 86_400_000));
  const caller = { id: admin.id, loginRoleType: admin.loginRoleType, actor: admin.actor, memo: admin.memo };
  const created = await extraction.create(
    tx,
    caller,
    {
      projectName: '太原市迎泽区老旧小区改造提升工程（二期）',
      sectionName: '第一标段',
      projectRef: 'TYYZ-2026-JS-031',
      openingAt: `${day} 09:00`,
      evaluationStartAt: `${day} 09:30`,
      location: '太原市公共资源交易中心 2 号评标室',
      conditions: {
        tendereeReps: 1,
        lines: [
          { specialty: '房屋建筑工程', count: 3 },
          { specialty: '市政公用工程', count: 1 },
          { specialty: '工程造价', count: 2 },
        ],
        regions: ['太原市', '晋中市', '阳泉市', '吕梁市'],
        avoidEmployers: ['太原市迎泽区住房和城乡建设局', '示例建设工程有限公司', '山西四建集团有限公司'],
        avoidExpertIds: [],
        recentDays: 30,
      },
    },
    now,
  );
  await extraction.commit(tx, caller, created.id, now);
  const drawn = await extraction.draw(tx, caller, created.id, now);
  const [first, ...rest] = drawn.members;
  const declined = await extraction.answer(
    tx,
    caller,
    { id: created.id, memberId: first!.id, answer: 'declined', note: '已有其他项目评标安排，时间冲突' },
    now,
  );
  const pending = [...rest.map((m) => m.id), declined.replacementId].filter((x): x is string => x !== null);
  for (const memberId of pending) {
    await extraction.answer(tx, caller, { id: created.id, memberId, answer: 'confirmed', note: '电话确认参加' }, now);
  }
  await extraction.finalize(tx, caller, created.id, now);
}
