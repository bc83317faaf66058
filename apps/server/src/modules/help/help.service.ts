import {
  type FaqItem,
  HELP_FILE_NODE,
  type HelpGroup,
  type HelpPlace,
  paths,
  previewKind,
  ROBOT_TOP,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { registerFileReader } from '../files/readers';
import * as repo from './help.repo';

/**
 * Help and FAQ (screen 10): the help tree and the FAQ of a system or node for everyone signed in; groups, files and
 * Q&A kept by administrators, each change with an operation-log row. Help files are the files module's rows, bound to
 * their help-file row under the node code KS_HELP: whoever is signed in may read them (the reader below).
 */

const GL_NAME = '帮助管理';

// any signed-in caller reads a bound help file (the files module asks only for callers it knows)
registerFileReader(HELP_FILE_NODE, async (db, _c, recordId) => Boolean(await repo.helpFileById(db, recordId)));

const downloadPath = (fileId: string) => `${paths.fileDownload.path}?fileId=${encodeURIComponent(fileId)}`;

const toFaq = (f: repo.FaqRow): FaqItem => ({ id: f.id, question: f.question, answer: f.answer });

function toFileNode(f: repo.FileOfGroup, gnCoding: string | null): HelpGroup {
  return {
    id: f.id,
    groupName: f.fileName,
    fileName: f.fileName,
    filePath: downloadPath(f.fileId),
    fileId: f.fileId,
    kind: f.kind === 'video' ? 'video' : 'pdf',
    gnCoding,
    children: [],
    list: [],
  };
}

function toGroup(g: repo.GroupRow, files: repo.FileOfGroup[]): HelpGroup & { sort: number } {
  return {
    id: g.id,
    groupName: g.groupName,
    fileName: '',
    filePath: '',
    fileId: null,
    kind: null,
    gnCoding: g.gnCoding,
    children: files.filter((f) => f.groupId === g.id).map((f) => toFileNode(f, g.gnCoding)),
    list: [],
    sort: g.sort,
  };
}

async function treeOf(db: Db, systemCoding: string, gnCoding: string | undefined, everyNode: boolean) {
  const groups = await repo.groupsOf(db, systemCoding, gnCoding, everyNode);
  const files = await repo.filesOfGroups(
    db,
    groups.map((g) => g.id),
  );
  return groups.map((g) => toGroup(g, files));
}

/** `/ks/guide/node/descritons`: the node's groups first, then the system's, each with its files. */
export async function helpTree(db: Db, p: HelpPlace): Promise<HelpGroup[]> {
  return (await treeOf(db, p.systemCoding, p.gnCoding, false)).map(({ sort: _sort, ...g }) => g);
}

/** faq-list: the node's questions first, then the system's. */
export async function faqList(db: Db, p: HelpPlace): Promise<FaqItem[]> {
  return (await repo.faqsOf(db, p.systemCoding, p.gnCoding)).map(toFaq);
}

const toAdminFaq = (f: repo.FaqRow) => ({
  ...toFaq(f),
  systemCoding: f.systemCoding,
  gnCoding: f.gnCoding,
  sort: f.sort,
  updatedAt: f.updatedAt.toISOString(),
});

/** The administration's view of a system: every node's groups, files and questions. */
export async function helpAdmin(db: Db, systemCoding: string) {
  const [groups, faqs] = await Promise.all([
    treeOf(db, systemCoding, undefined, true),
    repo.faqsOf(db, systemCoding, undefined, true),
  ]);
  return { groups, faqs: faqs.map(toAdminFaq) };
}

async function requirePlace(db: Db, p: HelpPlace) {
  const e = await repo.placeExists(db, p.systemCoding, p.gnCoding);
  if (!e.system) throw badRequest('业务系统不存在');
  if (!e.node) throw badRequest('功能节点不属于该业务系统');
}

const where = (p: { systemCoding: string; gnCoding?: string | null }) =>
  p.gnCoding ? `${p.systemCoding}/${p.gnCoding}` : p.systemCoding;

export async function saveGroup(
  db: Db,
  actor: Actor,
  input: HelpPlace & { id?: string; groupName: string; sort: number },
) {
  await requirePlace(db, input);
  const row = await db.transaction(async (tx) => {
    const set = {
      systemCoding: input.systemCoding,
      gnCoding: input.gnCoding ?? null,
      groupName: input.groupName,
      sort: input.sort,
    };
    const g = input.id ? await repo.updateGroup(tx, input.id, set) : await repo.insertGroup(tx, set);
    if (!g) throw notFound('分组不存在');
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: g.gnCoding ?? g.systemCoding,
      recordId: g.id,
      logbook: `${input.id ? '修改' : '新建'}帮助分组：${g.groupName}（${where(g)}）`,
    });
    return g;
  });
  const [g] = await treeOf(db, row.systemCoding, row.gnCoding ?? undefined, true).then((all) =>
    all.filter((x) => x.id === row.id),
  );
  const { sort: _sort, ...out } = g!;
  return out;
}

export async function deleteGroup(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const g = await repo.groupById(tx, id);
    if (!g) throw notFound('分组不存在');
    const held = await repo.deleteGroup(tx, id);
    // the files stay in the store as the administrator's own files, no longer readable by everyone
    for (const fileId of held ?? []) await repo.bindFile(tx, fileId, null);
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: g.gnCoding ?? g.systemCoding,
      recordId: g.id,
      logbook: `删除帮助分组：${g.groupName}（${where(g)}，含 ${held?.length ?? 0} 个文件）`,
    });
  });
}

/** Adds an uploaded PDF or video (chunked upload, usage help, by an administrator) to a group. */
export async function addFile(db: Db, actor: Actor, input: { groupId: string; fileId: string }) {
  const out = await db.transaction(async (tx) => {
    const g = await repo.groupById(tx, input.groupId);
    if (!g) throw notFound('分组不存在');
    const f = await repo.fileRow(tx, input.fileId);
    if (f?.source !== 'help') throw badRequest('请先上传帮助文件（PDF 或视频）');
    if (await repo.isHelpFileBound(tx, f.id)) throw badRequest('该文件已在帮助目录中');
    const kind = previewKind(f.extension);
    if (kind !== 'pdf' && kind !== 'video') throw badRequest('帮助文件只能是 PDF 或视频');
    const hf = await repo.insertHelpFile(tx, {
      groupId: g.id,
      fileId: f.id,
      kind,
      sort: await repo.nextFileSort(tx, g.id),
    });
    await repo.bindFile(tx, f.id, { gnCoding: HELP_FILE_NODE, recordId: hf.id });
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: g.gnCoding ?? g.systemCoding,
      recordId: hf.id,
      logbook: `添加帮助文件：${f.fileName}（分组 ${g.groupName}）`,
    });
    return toFileNode({ ...hf, fileName: f.fileName }, g.gnCoding);
  });
  return out;
}

export async function removeFile(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const hf = await repo.deleteHelpFile(tx, id);
    if (!hf) throw notFound('帮助文件不存在');
    await repo.bindFile(tx, hf.fileId, null);
    const f = await repo.fileRow(tx, hf.fileId);
    const g = await repo.groupById(tx, hf.groupId);
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: g?.gnCoding ?? g?.systemCoding,
      recordId: hf.id,
      logbook: `移除帮助文件：${f?.fileName ?? hf.fileId}（分组 ${g?.groupName ?? ''}）`,
    });
  });
}

export async function saveFaq(
  db: Db,
  actor: Actor,
  input: HelpPlace & { id?: string; question: string; answer: string; sort: number },
) {
  await requirePlace(db, input);
  return db.transaction(async (tx) => {
    const set = {
      systemCoding: input.systemCoding,
      gnCoding: input.gnCoding ?? null,
      question: input.question,
      answer: input.answer,
      sort: input.sort,
    };
    const f = input.id ? await repo.updateFaq(tx, input.id, set) : await repo.insertFaq(tx, set);
    if (!f) throw notFound('常见问题不存在');
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: f.gnCoding ?? f.systemCoding,
      recordId: f.id,
      logbook: `${input.id ? '修改' : '新增'}常见问题：${f.question}（${where(f)}）`,
    });
    return toAdminFaq(f);
  });
}

export async function deleteFaq(db: Db, actor: Actor, id: string) {
  await db.transaction(async (tx) => {
    const f = await repo.deleteFaq(tx, id);
    if (!f) throw notFound('常见问题不存在');
    await writeOpLog(tx, actor, {
      glName: GL_NAME,
      gnCoding: f.gnCoding ?? f.systemCoding,
      recordId: f.id,
      logbook: `删除常见问题：${f.question}（${where(f)}）`,
    });
  });
}

/** Trigram word similarity below this is no answer. */
export const ROBOT_THRESHOLD = 0.2;

/** The robot (screen 23): the FAQ entries nearest to the question, at most three, best first. */
export async function robotAsk(db: Db, input: { question: string; systemCoding?: string }) {
  const rows = await db.transaction((tx) => repo.nearestFaqs(tx, input.question, ROBOT_TOP * 4, ROBOT_THRESHOLD));
  // the caller's system first where scores tie closely: a stable sort by score, then the system
  const ranked = rows
    .map((r) => ({ ...r, score: Math.round(r.score * 1000) / 1000 }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        Number(b.systemCoding === input.systemCoding) - Number(a.systemCoding === input.systemCoding),
    );
  return { matches: ranked.slice(0, ROBOT_TOP) };
}
