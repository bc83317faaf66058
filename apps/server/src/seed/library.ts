import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import { LIBRARY_UPLOAD_EXTENSIONS, type LibraryKind, libraryAddSchema } from '@ks/contracts';
import type { Db } from '../db/client';
import type { FileCaller } from '../modules/files/caller';
import { checkUpload, storeUploads } from '../modules/files/files.service';
import { type Form, formPdf } from '../modules/files/templates/pdf';
import { add } from '../modules/library/library.service';
import type { Evidence } from './evidence';

/**
 * The demo's 资料库 (issue 19), made through the library module's service: the 信用承诺书 template in two versions
 * (2026.1 current), the 招标文件范本 and 投标文件格式, the trading platform's manual (one-page PDFs) and a client tool (a
 * small zip archive, stored entries), uploaded the way the administration's chunked upload stores them.
 */

const ORG = '山西省公共资源交易中心';

const letter = (year: string, extra: [string, string][]): Omit<Form, 'file'> => ({
  title: '信用承诺书',
  note: `${ORG} · 标准文件 · ${year} 版`,
  rows: [
    ['一、真实性', '所提交的全部材料真实、合法、有效'],
    ['二、守法经营', '遵守招标投标法律法规，不串通投标'],
    ['三、信息公开', '同意将信用信息在平台公开'],
    ...extra,
    ['承诺单位', '（盖章）'],
    ['法定代表人', '（签字）'],
  ],
  footer: ['承诺单位（盖章）：', '日期：    年  月  日'],
});

const TENDER_TEMPLATE: Omit<Form, 'file'> = {
  title: '施工招标文件范本',
  note: `${ORG} · 房屋建筑和市政工程 · 2026 版`,
  rows: [
    ['第一章', '招标公告（投标邀请书）'],
    ['第二章', '投标人须知'],
    ['第三章', '评标办法（综合评估法）'],
    ['第四章', '合同条款及格式'],
    ['第五章', '工程量清单'],
    ['第六章', '图纸与技术标准'],
    ['第七章', '投标文件格式'],
  ],
  footer: [ORG],
};

const BID_FORMAT: Omit<Form, 'file'> = {
  title: '投标文件格式',
  note: `${ORG} · 施工投标文件格式 · 2026 版`,
  rows: [
    ['一', '投标函及投标函附录'],
    ['二', '法定代表人身份证明'],
    ['三', '授权委托书'],
    ['四', '投标保证金（电子保函）'],
    ['五', '已标价工程量清单'],
    ['六', '施工组织设计'],
  ],
  footer: [ORG],
};

const MANUAL: Omit<Form, 'file'> = {
  title: '交易平台操作手册',
  note: `${ORG} · 投标人篇 · 2026 版`,
  rows: [
    ['一、注册与登录', '企业注册、实名认证、CA 登录'],
    ['二、投标报名', '招标投标系统 → 投标报名'],
    ['三、下载招标文件', '项目详情 → 招标文件，下载留痕'],
    ['四、递交投标文件', '投标文件加密递交，截止前可撤回'],
    ['五、开标', '远程开标大厅：签到、解密、唱标'],
    ['六、资料下载', '产品中心 → 资料下载：工具与手册'],
  ],
  footer: [ORG],
};

/** A zip archive of stored (uncompressed) entries: what any unzip tool opens. */
export function storedZip(entries: { name: string; data: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const crc = crc32(e.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(0, 8); // stored
    local.writeUInt32LE(0, 10); // time, date
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(0, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, e.data);
    centrals.push(central, name);
    offset += local.length + name.length + e.data.length;
  }
  const dir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, dir, end]);
}

/** A file the administrator uploaded for the library, stored as the chunked upload stores it (private until bound). */
async function uploadLibraryFile(admin: FileCaller, evidence: Evidence, name: string, bytes: Buffer) {
  const file = path.join(evidence.deps.spoolDir, `library-${createHash('md5').update(name).digest('hex')}`);
  await writeFile(file, bytes);
  const u = {
    rawName: name,
    spooled: {
      path: file,
      size: bytes.length,
      md5: createHash('md5').update(bytes).digest('hex'),
      head: bytes.subarray(0, 64),
    },
    gnCoding: null,
    annexNo: null,
    allowed: LIBRARY_UPLOAD_EXTENSIONS,
    visibility: 'private' as const,
    source: 'library',
  };
  const [out] = await storeUploads(evidence.deps, admin, [{ ...u, ...(await checkUpload(evidence.deps, u)) }]);
  return out!;
}

interface DemoItem {
  kind: LibraryKind;
  series: string;
  title: string;
  version: string;
  description: string;
  fileName: string;
  bytes: () => Buffer;
}

const pdf = (form: Omit<Form, 'file'>, file: string) => () => formPdf({ ...form, file });

export const DEMO_LIBRARY: DemoItem[] = [
  {
    kind: 'template',
    series: '信用承诺书',
    title: '信用承诺书范本（2025 版）',
    version: '2025.2',
    description: '市场主体信用承诺书标准文本，2025 年第二次修订。',
    fileName: '信用承诺书范本-2025.2.pdf',
    bytes: pdf(letter('2025', []), '信用承诺书范本-2025.2.pdf'),
  },
  {
    kind: 'template',
    series: '信用承诺书',
    title: '信用承诺书范本（2026 版）',
    version: '2026.1',
    description: '增加失信惩戒与电子保函相关承诺条款，自 2026 年 1 月 1 日起使用。',
    fileName: '信用承诺书范本-2026.1.pdf',
    bytes: pdf(letter('2026', [['四、失信惩戒', '违背承诺的，自愿接受联合惩戒']]), '信用承诺书范本-2026.1.pdf'),
  },
  {
    kind: 'template',
    series: '招标文件范本',
    title: '房屋建筑和市政工程施工招标文件范本',
    version: '2026.1',
    description: '依据《标准施工招标文件》编制，适用于依法必须招标的施工项目。',
    fileName: '施工招标文件范本-2026.1.pdf',
    bytes: pdf(TENDER_TEMPLATE, '施工招标文件范本-2026.1.pdf'),
  },
  {
    kind: 'template',
    series: '投标文件格式',
    title: '施工投标文件格式',
    version: '2026.1',
    description: '投标函、授权委托书、已标价工程量清单等格式文本。',
    fileName: '施工投标文件格式-2026.1.pdf',
    bytes: pdf(BID_FORMAT, '施工投标文件格式-2026.1.pdf'),
  },
  {
    kind: 'manual',
    series: '交易平台操作手册',
    title: '公共资源交易平台操作手册（投标人篇）',
    version: '2026.1',
    description: '注册登录、投标报名、招标文件下载、投标文件递交与远程开标的操作说明。',
    fileName: '交易平台操作手册-投标人篇.pdf',
    bytes: pdf(MANUAL, '交易平台操作手册-投标人篇.pdf'),
  },
  {
    kind: 'tool',
    series: 'CA 驱动',
    title: 'CA 数字证书驱动安装包',
    version: '3.2.0',
    description: '支持 SM2 国密证书，适用于 Windows 7 及以上版本；安装后重新插入 CA 锁。',
    fileName: 'CA驱动安装包-3.2.0.zip',
    bytes: () =>
      storedZip([
        {
          name: '安装说明.txt',
          data: Buffer.from(
            'CA 数字证书驱动 3.2.0\r\n1. 关闭浏览器后运行安装程序\r\n2. 安装完成后重新插入 CA 锁\r\n技术支持：0351-12345678\r\n',
          ),
        },
      ]),
  },
];

export async function seedLibrary(tx: Db, admin: FileCaller, evidence: Evidence) {
  for (const item of DEMO_LIBRARY) {
    const file = await uploadLibraryFile(admin, evidence, item.fileName, item.bytes());
    await add(
      tx,
      admin.actor,
      libraryAddSchema.parse({
        kind: item.kind,
        series: item.series,
        title: item.title,
        version: item.version,
        description: item.description,
        fileId: file.fileId,
        makeCurrent: true,
      }),
    );
  }
}
