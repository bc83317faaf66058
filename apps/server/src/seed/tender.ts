import { creditCodeCheckChar, DEFAULT_TIME_ZONE, dateIn, TENDER_PROJECT_NODE } from '@ks/contracts';
import type { Db } from '../db/client';
import type { EngineCaller } from '../modules/engine/record-access';
import { recordRow } from '../modules/engine/records.repo';
import { saveRecord } from '../modules/engine/records.service';
import { auditRecord, submitRecord } from '../modules/engine/review.service';
import { noticeRecords, saveNotice, submitNotice, withNoticeClock } from '../modules/tender/notice.service';
import { register } from '../modules/tender/registration.service';
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
  sections: {
    code: string;
    name: string;
    estimate: number;
    deposit: number;
    saleFrom: number;
    deadline: number;
    /** the qualification its published tender notice requires (a level of the QUALIFICATION tree) */
    requires?: string;
    /** its performance requirement (业绩要求): at least `count` projects of `minAmount` yuan within `years` years */
    perf?: { count: number; minAmount: number; years: number };
  }[];
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
      {
        code: 'BD-01',
        name: '施工标段',
        estimate: 38_500_000,
        deposit: 770_000,
        saleFrom: 0,
        deadline: 25,
        requires: '建筑工程施工总承包二级',
      },
      {
        code: 'BD-02',
        name: '监理标段',
        estimate: 860_000,
        deposit: 17_000,
        saleFrom: 0,
        deadline: 25,
        requires: '房屋建筑工程监理乙级',
        perf: { count: 2, minAmount: 500_000, years: 3 },
      },
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
    sections: [
      {
        code: 'BD-01',
        name: '施工标段',
        estimate: 23_800_000,
        deposit: 476_000,
        saleFrom: 2,
        deadline: 28,
        requires: '市政公用工程施工总承包二级',
      },
    ],
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

const yuanText = (v: number) => v.toLocaleString('zh-CN', { minimumFractionDigits: 2 });

/** The body of a demo tender notice, in the usual chapters of a 招标公告. */
function noticeBody(p: DemoProject, s: DemoProject['sections'][number]): string {
  const v = p.values;
  return [
    `<h3>一、招标条件</h3><p>本招标项目${v.xmmc}已由有关部门批准建设，项目业主为${v.zbr}，建设资金来自${v.zjly}，项目已具备招标条件，现对该项目${s.name}进行公开招标。</p>`,
    `<h3>二、项目概况与招标范围</h3><p>${v.xmgk ?? ''}本标段估算价 ${yuanText(s.estimate)} 元，投标保证金 ${yuanText(s.deposit)} 元（可以电子保函替代）。</p>`,
    '<h3>三、投标人资格要求</h3><p>投标人须具备下列资质并在人员、设备、资金等方面具有相应的能力；拟派项目负责人须具备相应专业注册执业资格，且未担任其他在建工程项目负责人。本标段不接受联合体投标。</p>',
    '<h3>四、招标文件的获取</h3><p>凡有意参加投标者，请于发售期内登录交易平台报名并下载电子招标文件。</p>',
    `<h3>五、联系方式</h3><p>招标人：${v.zbr}；联系人：${v.lxr}；电话：${v.lxdh}${v.dljg ? `；招标代理机构：${v.dljg}` : ''}。</p>`,
  ].join('');
}

/**
 * A tender notice the way a project's side publishes one: written and submitted by `side` at `at`, passed by the
 * 审核员 (the review's decision hook publishes it, on the notice clock).
 */
async function publishDemoNotice(
  tx: Db,
  side: EngineCaller,
  auditor: EngineCaller,
  input: Parameters<typeof saveNotice>[2],
  at: Date,
  suggestion: string,
) {
  const notice = await saveNotice(tx, side, input, at, DEFAULT_TIME_ZONE);
  await submitNotice(tx, side, { id: notice.id, version: notice.version }, at, DEFAULT_TIME_ZONE);
  const pending = await noticeRecords.get(tx, notice.id);
  await auditRecord(tx, auditor, {
    gnCoding: noticeRecords.gnCoding,
    id: notice.id,
    version: pending!.version,
    pass: true,
    suggestion,
  });
}

export async function seedTender(
  tx: Db,
  who: { admin: EngineCaller; auditor: EngineCaller; user: EngineCaller; agent?: EngineCaller },
  now = new Date(),
) {
  // the notices below are published by their review's decision hook, at the seed's time
  return withNoticeClock(
    () => now,
    () => seedTenderAt(tx, who, now),
  );
}

async function seedTenderAt(
  tx: Db,
  who: { admin: EngineCaller; auditor: EngineCaller; user: EngineCaller; agent?: EngineCaller },
  now: Date,
) {
  const gnCoding = TENDER_PROJECT_NODE;
  const ids: string[] = [];
  const published: { projectNo: string; code: string; sectionId: string }[] = [];
  for (const p of DEMO_PROJECTS) {
    const saved = await saveRecord(tx, who.admin, { gnCoding, values: p.values }, {});
    const id = String(saved.id);
    ids.push(id);
    const sectionIds: string[] = [];
    for (const s of p.sections) {
      const day = (n: number) => dateIn(new Date(now.getTime() + n * DAY), DEFAULT_TIME_ZONE);
      const saved = await saveSection(
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
          perfCount: s.perf?.count ?? 0,
          perfMinAmount: s.perf?.minAmount ?? 0,
          perfYears: s.perf?.years ?? 3,
        },
        now,
        DEFAULT_TIME_ZONE,
      );
      sectionIds.push(saved.id);
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
    // each section's tender notice: written and submitted by the project's side, passed (and so published) by the 审核员
    for (const [i, s] of p.sections.entries()) {
      if (!s.requires) continue;
      const sectionId = sectionIds[i]!;
      await publishDemoNotice(
        tx,
        who.admin,
        who.auditor,
        {
          sectionId,
          kind: '招标公告',
          title: `${p.values.xmmc}${s.name}招标公告`,
          bodyHtml: noticeBody(p, s),
          qualItems: [s.requires],
          qualLabels: s.requires,
          qualRelation: '且',
        },
        now,
        '公告内容与项目登记一致，资格要求合理，同意发布',
      );
      published.push({ projectNo: String(p.values.xmbh), code: s.code, sectionId });
    }
  }
  // the demo enterprise registered for the 大同 sewer section (its 市政公用工程施工总承包二级 meets the notice) …
  const sewer = published.find((x) => x.projectNo === 'SXGC-2026-1102')!;
  await register(
    tx,
    who.user,
    { sectionId: sewer.sectionId, contact: '张建国', phone: '13835100001' },
    now,
    DEFAULT_TIME_ZONE,
  );
  // … and its agency wrote a clarification that waits for review (it does not move the deadline)
  const change = await saveNotice(
    tx,
    who.admin,
    {
      sectionId: sewer.sectionId,
      kind: '变更公告',
      title: '大同市御河东路雨污分流改造工程施工标段变更公告（第一次）',
      bodyHtml:
        '<p>原招标文件第五章“工程量清单”中 DN800 钢筋混凝土管的管基形式补充说明为 180° 混凝土基础，相应清单项目特征描述同步调整，其余内容不变。</p>',
      affectsBids: false,
      reason: '补充工程量清单项目特征描述',
    },
    now,
    DEFAULT_TIME_ZONE,
  );
  await submitNotice(tx, who.admin, { id: change.id, version: change.version }, now, DEFAULT_TIME_ZONE);
  // the demo agency's own project: entered by its agent, passed by the 审核员, divided into one section whose notice
  // the agent has still to write (sign in as `agent` to carry on)
  if (who.agent) await seedAgencyProject(tx, who.agent, who.auditor, now);
  return ids;
}

/** An agent's project entered through the engine and passed by the 审核员; answers its id. */
async function passedAgencyProject(
  tx: Db,
  agent: EngineCaller,
  auditor: EngineCaller,
  values: Record<string, unknown>,
) {
  const gnCoding = TENDER_PROJECT_NODE;
  const saved = await saveRecord(tx, agent, { gnCoding, values }, {});
  const id = String(saved.id);
  const version = async () => Number((await recordRow(tx, gnCoding, id))!.version);
  await submitRecord(tx, agent, { gnCoding, id, version: await version() });
  await auditRecord(tx, auditor, {
    gnCoding,
    id,
    version: await version(),
    pass: true,
    suggestion: '材料齐全，同意进场',
  });
  return id;
}

/** The demo agent's project (SXGC-2026-1104), through the services an agent and the 审核员 use. */
async function seedAgencyProject(tx: Db, agent: EngineCaller, auditor: EngineCaller, now: Date) {
  const id = await passedAgencyProject(tx, agent, auditor, AGENCY_PROJECT);
  const day = (n: number) => dateIn(new Date(now.getTime() + n * DAY), DEFAULT_TIME_ZONE);
  await saveSection(
    tx,
    agent,
    {
      projectId: id,
      code: 'BD-01',
      name: '道路及排水工程施工标段',
      estimate: 21_400_000,
      deposit: 420_000,
      docSaleStart: day(3),
      docSaleEnd: day(9),
      bidDeadline: new Date(`${day(30)}T09:30:00+08:00`).toISOString(),
    },
    now,
    DEFAULT_TIME_ZONE,
  );
}

const AGENCY_PROJECT = {
  xmmc: '晋中市榆次区经纬路提升改造工程',
  xmbh: 'SXGC-2026-1104',
  xmlx: '市政公用工程',
  zbfs: '公开招标',
  zbr: '晋中市榆次区住房和城乡建设管理局',
  zbrdm: code('11140702MB1794658'),
  dljg: '山西沁河招标代理有限公司',
  xmszd: ['山西省', '晋中市', '榆次区'],
  ztz: 25_600_000,
  zjly: '地方政府专项债券',
  xmgk: '经纬路（顺城街至迎宾街）道路提升改造，全长 2.1 公里，含道路、排水、照明及交通设施。',
  lxr: '赵立新',
  lxdh: '13803456721',
};

const OPENING_PROJECT = {
  xmmc: '忻州市忻府区第三中学学生公寓楼建设工程',
  xmbh: 'SXGC-2026-1005',
  xmlx: '房屋建筑工程',
  zbfs: '公开招标',
  zbr: '忻州市忻府区教育科技局',
  zbrdm: code('11140902MB1836275'),
  dljg: '山西沁河招标代理有限公司',
  xmszd: ['山西省', '忻州市', '忻府区'],
  ztz: 21_800_000,
  zjly: '财政资金',
  xmgk: '新建学生公寓楼一栋，地上六层，建筑面积 9,640 平方米，框架结构，含室外管网及附属工程。',
  lxr: '赵立新',
  lxdh: '13803456721',
};

/**
 * The demo agency's project whose bid deadline has just passed (SXGC-2026-1005 BD-01): entered and divided as if
 * three weeks ago (`past`), its deadline `deadline` — so its opening hall is due when the demo starts. Answers the
 * section's id.
 */
export async function seedOpeningProject(
  tx: Db,
  who: { agent: EngineCaller; auditor: EngineCaller },
  past: Date,
  deadline: Date,
  project: Record<string, unknown> = OPENING_PROJECT,
  section = { estimate: 18_650_000, deposit: 370_000 },
): Promise<string> {
  const id = await passedAgencyProject(tx, who.agent, who.auditor, project);
  const day = (n: number) => dateIn(new Date(past.getTime() + n * DAY), DEFAULT_TIME_ZONE);
  const s = await saveSection(
    tx,
    who.agent,
    {
      projectId: id,
      code: 'BD-01',
      name: '施工标段',
      estimate: section.estimate,
      deposit: section.deposit,
      docSaleStart: day(0),
      docSaleEnd: day(6),
      bidDeadline: deadline.toISOString(),
    },
    past,
    DEFAULT_TIME_ZONE,
  );
  // its tender notice: written and submitted by the agent that day, passed by the 审核员 and so published then
  const v = project as { xmmc: string; zbr: string; dljg?: string; lxr?: string; lxdh?: string };
  await withNoticeClock(
    () => past,
    () =>
      publishDemoNotice(
        tx,
        who.agent,
        who.auditor,
        {
          sectionId: s.id,
          kind: '招标公告',
          title: `${v.xmmc}施工标段招标公告`,
          bodyHtml:
            `<h3>一、招标条件</h3><p>本招标项目${v.xmmc}已由有关部门批准建设，项目业主为${v.zbr}，项目已具备招标条件，现对该项目施工标段进行公开招标。</p>` +
            `<h3>二、招标文件的获取</h3><p>凡有意参加投标者，请于 ${day(0)} 至 ${day(6)} 登录交易平台报名并下载电子招标文件。</p>` +
            `<h3>三、联系方式</h3><p>招标人：${v.zbr}${v.dljg ? `；招标代理机构：${v.dljg}` : ''}${v.lxr ? `；联系人：${v.lxr}` : ''}${v.lxdh ? `；电话：${v.lxdh}` : ''}。</p>`,
        },
        past,
        '公告内容与项目登记一致，同意发布',
      ),
  );
  return s.id;
}
