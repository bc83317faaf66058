import {
  AGENCY_TYPE,
  CREDIT_GRADES,
  creditCodeCheckChar,
  NOTICE_CATEGORIES,
  type NoticeCategory,
  REGIONS,
  TRADE_TYPES,
  type TradeType,
} from '@ks/contracts';
import type { Db } from '../db/client';
import { creditRecords, enterprises, notices, performances, practitioners, qualifications } from '../db/schema';
import { sanitizeRichText } from '../platform/sanitize';

/** Deterministic pseudo-random numbers, so every demo database looks the same. */
export function rng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
  };
}

const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
function creditCode(r: ReturnType<typeof rng>): string {
  let body = `9114${String(r.int(1, 11)).padStart(2, '0')}00`;
  while (body.length < 17) body += CODE_CHARS[r.int(0, 30)];
  return body + creditCodeCheckChar(body);
}

const PREFIXES = [
  '晋阳',
  '汾河',
  '太行',
  '吕梁',
  '并州',
  '龙城',
  '三晋',
  '黄河',
  '恒山',
  '五台',
  '云冈',
  '潞安',
  '河东',
  '晋兴',
  '华晋',
];
const CONTRACTORS = [
  '建设工程',
  '路桥建设',
  '市政工程',
  '水利水电工程',
  '建筑安装',
  '园林绿化工程',
  '装饰工程',
  '电力工程',
];
const AGENCIES = ['招标代理', '工程咨询', '项目管理', '造价咨询'];
const TYPES = ['施工企业', '施工企业', '施工企业', '监理企业', '设计企业', '供应商'];
const PROJECTS = [
  '第二人民医院门诊综合楼建设项目',
  '滨河东路道路改造工程',
  '污水处理厂提标改造工程',
  '中小学校舍维修改造项目',
  '智慧城市运营中心设备采购项目',
  '国有建设用地使用权挂牌出让',
  '农村饮水安全巩固提升工程',
  '公共租赁住房配套基础设施项目',
  '体育中心全民健身场馆建设项目',
  '110千伏变电站配套线路工程',
  '城区集中供热管网改造工程',
  '高速公路服务区提质改造项目',
  '市属国有企业股权转让项目',
  '县域医共体医用耗材集中采购项目',
];
const CATEGORY_SUFFIX: Record<NoticeCategory, string> = {
  招标公告: '招标公告',
  变更公告: '招标文件变更公告',
  资格预审公告: '资格预审公告',
  中标候选人公示: '中标候选人公示',
  中标结果公告: '中标结果公告',
  终止公告: '终止公告',
};
const PEOPLE = [
  '王建军',
  '李志强',
  '张丽华',
  '刘海燕',
  '陈国庆',
  '杨晓东',
  '赵文博',
  '黄志伟',
  '周红梅',
  '吴俊杰',
  '徐永刚',
  '孙雅琴',
  '马晓明',
  '朱立新',
  '胡振华',
  '郭瑞峰',
  '何文静',
  '高建平',
  '林晓燕',
  '罗志勇',
  '梁海涛',
  '宋佳慧',
  '郑宏伟',
  '谢春花',
];
const PRACTICE_AREAS = ['一级建造师', '二级建造师', '注册造价工程师', '注册监理工程师', '注册建筑师', '注册结构工程师'];
const DAY = 86_400_000;

const ymd = (d: Date) => d.toISOString().slice(0, 10);
const cstText = (d: Date) => {
  const c = new Date(d.getTime() + 8 * 3600_000);
  return `${c.getUTCFullYear()}年${c.getUTCMonth() + 1}月${c.getUTCDate()}日`;
};

function noticeBody(
  title: string,
  category: NoticeCategory,
  tradeType: TradeType,
  tenderer: string,
  publishedAt: Date,
  amount: string | null,
) {
  const saleEnd = new Date(publishedAt.getTime() + 7 * DAY);
  const deadline = new Date(publishedAt.getTime() + 21 * DAY);
  const parts = [
    `<h3>一、项目概况</h3><p>${title.replace(CATEGORY_SUFFIX[category], '')}已由有关部门批准建设，招标人为${tenderer}，资金来源为财政资金及自筹资金，交易类型为${tradeType}。项目已具备招标条件，现进行公开招标。</p>`,
  ];
  if (category === '招标公告' || category === '资格预审公告') {
    parts.push(
      '<h3>二、投标人资格要求</h3><p>投标人须具备独立法人资格，具有相应资质等级，近三年无重大安全质量事故，未被列入失信被执行人名单。本项目不接受联合体投标。</p>',
      `<h3>三、招标文件的获取</h3><p>请于${cstText(publishedAt)}至${cstText(saleEnd)}（不少于5日），登录本平台下载电子招标文件。</p>`,
      `<h3>四、投标文件的递交</h3><p>投标截止时间及开标时间为${cstText(deadline)} 9时30分（自招标文件发出之日起不少于20日），开标地点为本平台开标大厅。</p>`,
    );
  } else if (category === '变更公告') {
    parts.push(
      `<h3>二、变更内容</h3><p>原招标文件中工程量清单部分内容调整，投标截止时间顺延至${cstText(new Date(deadline.getTime() + 15 * DAY))}（澄清或修改距投标截止时间不少于15日）。其他内容不变。</p>`,
    );
  } else if (category === '中标候选人公示') {
    parts.push(
      '<h3>二、中标候选人</h3><table><tr><th>排序</th><th>中标候选人</th><th>投标报价（元）</th></tr><tr><td>1</td><td>第一中标候选人</td><td>见评标报告</td></tr></table>',
      `<h3>三、公示期</h3><p>公示期自${cstText(publishedAt)}起不少于3日。投标人或其他利害关系人对评标结果有异议的，应当在公示期间提出。</p>`,
    );
  } else if (category === '中标结果公告') {
    parts.push(
      `<h3>二、中标结果</h3><p>中标金额：${amount ? `${Number(amount).toLocaleString('zh-CN')} 元` : '见中标通知书'}。招标人应自中标通知书发出之日起30日内与中标人签订合同。</p>`,
    );
  } else {
    parts.push(
      '<h3>二、终止原因</h3><p>因项目建设内容发生重大调整，经招标人研究决定终止本次招标活动，后续将重新组织招标。</p>',
    );
  }
  parts.push(
    `<h3>联系方式</h3><p>招标人：${tenderer}　联系人：${PEOPLE[title.length % PEOPLE.length]}　电话：0351-7${String(title.length * 7919).slice(-6)}</p>`,
  );
  return sanitizeRichText(parts.join(''));
}

/** `count` published notices spread over the `days` before `now`; used by the demo seed and the benchmarks. */
export function generateNotices(count: number, opts: { seed?: number; now?: Date; days?: number } = {}) {
  const r = rng(opts.seed ?? 2026);
  const now = opts.now ?? new Date();
  const days = opts.days ?? 120;
  const rows: (typeof notices.$inferInsert)[] = [];
  for (let i = 0; i < count; i++) {
    const category = NOTICE_CATEGORIES[i % NOTICE_CATEGORIES.length]!;
    const tradeType = TRADE_TYPES[Math.floor(i / NOTICE_CATEGORIES.length) % TRADE_TYPES.length]!;
    const region = REGIONS[r.int(0, REGIONS.length - 1)]!;
    const project = r.pick(PROJECTS);
    const section = r.next() < 0.4 ? `（${r.pick(['一', '二', '三'])}标段）` : '';
    const title = `${region === '省本级' ? '山西省' : region}${project}${section}${CATEGORY_SUFFIX[category]}`;
    const tenderer = `${region === '省本级' ? '山西省' : region}${r.pick(['住房和城乡建设局', '教育局', '卫生健康委员会', '交通运输局', '水务局', '自然资源局', '国有资本运营有限公司'])}`;
    const publishedAt = new Date(now.getTime() - Math.floor(r.next() * days * DAY));
    const amount = category === '中标结果公告' ? String(r.int(80, 60_000) * 10_000) : null;
    rows.push({
      title,
      category,
      tradeType,
      region,
      projectCode: `E14${String(r.int(1, 11)).padStart(2, '0')}${String(100000 + i).slice(-6)}${r.int(1, 3)}`,
      tenderer,
      amount,
      bodyHtml: noticeBody(title, category, tradeType, tenderer, publishedAt, amount),
      attachments: [],
      status: 'published',
      publishedAt,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  }
  return rows;
}

/** Enterprises (incl. agencies), practitioners and their public records, plus 72 published notices and a few drafts. */
export async function seedPortal(db: Db, opts: { demoEnterpriseId: string; adminId: string; now?: Date }) {
  const r = rng(1949);
  const now = opts.now ?? new Date();
  const entRows: (typeof enterprises.$inferInsert)[] = [];
  const names = new Set<string>();
  for (let i = 0; names.size < 36; i++) {
    const agency = i % 6 === 5;
    const name = `山西${r.pick(PREFIXES)}${agency ? r.pick(AGENCIES) : r.pick(CONTRACTORS)}${r.next() < 0.3 ? '集团' : ''}有限公司`;
    if (names.has(name)) continue;
    names.add(name);
    entRows.push({
      name,
      creditCode: creditCode(r),
      enterpriseType: agency ? AGENCY_TYPE : r.pick(TYPES),
      legalPerson: r.pick(PEOPLE),
      region: REGIONS[r.int(1, REGIONS.length - 1)],
      address: `${r.pick(['迎泽大街', '长风街', '府西街', '平阳路', '南内环街', '体育路'])}${r.int(1, 399)}号`,
      registeredCapital: String(r.int(500, 50_000) * 10_000),
      establishedAt: `${r.int(1995, 2020)}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`,
      creditGrade: r.next() < 0.9 ? r.pick(CREDIT_GRADES) : null,
      creditScore: String(r.int(600, 990) / 10),
    });
  }
  const ents = await db
    .insert(enterprises)
    .values(entRows)
    .returning({ id: enterprises.id, type: enterprises.enterpriseType, name: enterprises.name });
  const owners = [...ents, { id: opts.demoEnterpriseId, type: '施工企业', name: '示例建设工程有限公司' }];

  const quals: (typeof qualifications.$inferInsert)[] = [];
  const perfs: (typeof performances.$inferInsert)[] = [];
  const credits: (typeof creditRecords.$inferInsert)[] = [];
  for (const e of owners) {
    const agency = e.type === AGENCY_TYPE;
    const n = r.int(1, 3);
    for (let k = 0; k < n; k++) {
      quals.push({
        ownerKind: 'enterprise',
        ownerId: e.id,
        name: agency
          ? '工程招标代理'
          : r.pick([
              '建筑工程施工总承包',
              '市政公用工程施工总承包',
              '公路工程施工总承包',
              '水利水电工程施工总承包',
              '电力工程施工总承包',
            ]),
        level: agency ? '甲级' : r.pick(['特级', '一级', '二级', '三级']),
        certNo: `D${r.int(100000000, 999999999)}`,
        validUntil: ymd(new Date(now.getTime() + r.int(-60, 1500) * DAY)),
      });
    }
    for (let k = 0; k < r.int(0, 4); k++) {
      perfs.push({
        ownerKind: 'enterprise',
        ownerId: e.id,
        projectName: `${r.pick(REGIONS.slice(1))}${r.pick(PROJECTS)}`,
        role: agency ? '招标代理' : r.pick(['施工总承包', '专业分包', '联合体牵头人']),
        amount: String(r.int(50, 80_000) * 10_000),
        completedAt: ymd(new Date(now.getTime() - r.int(30, 2000) * DAY)),
      });
    }
    for (let k = 0; k < r.int(0, 3); k++) {
      const good = r.next() < 0.65;
      const start = new Date(now.getTime() - r.int(10, 700) * DAY);
      credits.push({
        ownerKind: 'enterprise',
        ownerId: e.id,
        kind: good ? '良好' : '不良',
        title: good
          ? r.pick([
              '获评省级优质工程“汾水杯”',
              '获评省级安全文明标准化工地',
              '年度守合同重信用企业',
              '获评国家级优质工程奖',
            ])
          : r.pick([
              '未按规定履行合同义务',
              '施工现场安全管理不到位被通报',
              '投标文件中提供虚假业绩材料',
              '拖欠农民工工资被责令整改',
            ]),
        score: good ? String(r.int(1, 5)) : String(-r.int(1, 8)),
        issuer: r.pick(['山西省住房和城乡建设厅', '太原市住房和城乡建设局', '山西省公共资源交易中心']),
        startDate: ymd(start),
        endDate: ymd(new Date(start.getTime() + 365 * DAY)),
      });
    }
  }

  const pracRows: (typeof practitioners.$inferInsert)[] = [];
  for (let i = 0; i < 24; i++) {
    const ent = ents[r.int(0, ents.length - 1)]!;
    pracRows.push({
      name: PEOPLE[i]!,
      certNo: `晋${r.int(1, 2)}14${r.int(2010, 2024)}${String(r.int(1, 99999999)).padStart(8, '0')}`,
      practiceArea: r.pick(PRACTICE_AREAS),
      enterpriseId: ent.id,
      region: REGIONS[r.int(1, REGIONS.length - 1)],
      creditGrade: r.pick(CREDIT_GRADES),
      creditScore: String(r.int(600, 990) / 10),
    });
  }
  const pracs = await db
    .insert(practitioners)
    .values(pracRows)
    .returning({ id: practitioners.id, area: practitioners.practiceArea });
  for (const p of pracs) {
    quals.push({
      ownerKind: 'practitioner',
      ownerId: p.id,
      name: p.area,
      level: r.pick(['建筑工程', '市政公用工程', '公路工程', '机电工程']),
      certNo: `晋${r.int(114000000, 114999999)}`,
      validUntil: ymd(new Date(now.getTime() + r.int(100, 1500) * DAY)),
    });
    if (r.next() < 0.6) {
      perfs.push({
        ownerKind: 'practitioner',
        ownerId: p.id,
        projectName: `${r.pick(REGIONS.slice(1))}${r.pick(PROJECTS)}`,
        role: r.pick(['项目经理', '技术负责人', '总监理工程师']),
        amount: String(r.int(50, 30_000) * 10_000),
        completedAt: ymd(new Date(now.getTime() - r.int(30, 1500) * DAY)),
      });
    }
  }
  await db.insert(qualifications).values(quals);
  if (perfs.length) await db.insert(performances).values(perfs);
  if (credits.length) await db.insert(creditRecords).values(credits);

  const published = generateNotices(72, { seed: 7, now, days: 90 });
  await db.insert(notices).values(published.map((n) => ({ ...n, createdBy: opts.adminId })));
  const extra = generateNotices(3, { seed: 99, now, days: 10 }).map((n, i) => ({
    ...n,
    createdBy: opts.adminId,
    status: i === 2 ? 'withdrawn' : 'draft',
    publishedAt: i === 2 ? n.publishedAt : null,
  }));
  await db.insert(notices).values(extra);
}
