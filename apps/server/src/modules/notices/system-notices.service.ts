import type {
  CurrentNotice,
  SystemNotice,
  SystemNoticeInput,
  SystemNoticeRead,
  SystemNoticeSave,
  SystemNoticeType,
} from '@ks/contracts';
import type { Db, DbOrTx } from '../../db/client';
import type { LiveAudience } from '../../db/schema';
import { AppError, badRequest, conflict, notFound, validationFailed } from '../../platform/errors';
import { publishEvent } from '../../platform/live';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { type Caller, roleCodesOf } from '../../platform/permissions';
import { sanitizeRichText } from '../../platform/sanitize';
import { checkNoticeLinks } from '../portal/notice-links';
import * as repo from './system-notices.repo';

const GL_NAME = '系统通知';
const NOT_FOUND = '该通知不存在';
const GONE = '该通知不存在或已结束';

/** The signed-in caller as the notices see them. */
export interface NoticeViewer extends Caller {
  enterpriseId: string | null;
}

async function viewerOf(db: Db, c: NoticeViewer): Promise<repo.Viewer> {
  return { userId: c.id, roleCodes: await roleCodesOf(db, c), enterpriseId: c.enterpriseId };
}

// ---- the signed-in user's side

/** §3 Notice: what the caller is shown now (the modal until read, the bar until dismissed for good). */
export async function currentNotices(db: Db, c: NoticeViewer, now: Date): Promise<CurrentNotice[]> {
  const rows = await repo.currentFor(db, await viewerOf(db, c), now);
  return rows.map((r) => ({
    msgId: r.id,
    type: r.type as SystemNoticeType,
    title: r.title,
    msg: r.msg,
    url: r.url,
    urlName: r.urlName,
    show: true,
  }));
}

/** notice-read: recorded once (a repeat keeps the first time); only a notice the caller is shown now. */
export async function readNotice(db: Db, c: NoticeViewer, msgId: string, now: Date): Promise<null> {
  const notice = await repo.visibleTo(db, await viewerOf(db, c), msgId, now);
  if (!notice) throw notFound(GONE);
  await repo.markRead(db, c.id, msgId, now);
  return null;
}

/** 不再显示: the floating bar's notice stays away for this user. */
export async function dismissNotice(db: Db, c: NoticeViewer, msgId: string, now: Date): Promise<null> {
  const notice = await repo.visibleTo(db, await viewerOf(db, c), msgId, now);
  if (!notice) throw notFound(GONE);
  if (notice.type !== 1) throw badRequest('只有滚动公告可以设置不再显示');
  await repo.markDismissed(db, c.id, msgId, now);
  return null;
}

// ---- administration (the routes admit administrators only)

async function adminView(db: DbOrTx, row: repo.AdminRow): Promise<SystemNotice> {
  const n = row.notice;
  return {
    id: n.id,
    type: n.type as SystemNoticeType,
    title: n.title,
    msg: n.msg,
    url: n.url,
    urlName: n.urlName,
    audience: n.audience as SystemNotice['audience'],
    roleCode: n.roleCode,
    roleName: row.roleName,
    enterprises: await repo.enterpriseNames(db, n.enterpriseIds),
    startAt: n.startAt.toISOString(),
    endAt: n.endAt.toISOString(),
    status: n.status as SystemNotice['status'],
    version: n.version,
    publishedAt: n.publishedAt ? n.publishedAt.toISOString() : null,
    createdByName: row.createdByName,
    updatedAt: n.updatedAt.toISOString(),
    readCount: row.readCount,
    audienceSize: row.audienceSize,
  };
}

async function viewById(db: DbOrTx, id: string): Promise<SystemNotice> {
  const row = await repo.adminRow(db, id);
  if (!row) throw notFound(NOT_FOUND);
  return adminView(db, row);
}

export async function adminList(db: Db, q: Parameters<typeof repo.listAll>[1]) {
  const { records, total } = await repo.listAll(db, q);
  return { records: await Promise.all(records.map((r) => adminView(db, r))), total };
}

export const adminDetail = (db: Db, id: string) => viewById(db, id);

/** Who a notice's live event goes to: the audience it names. */
export function liveAudienceOf(n: Pick<repo.SystemNoticeRow, 'audience' | 'roleCode' | 'enterpriseIds'>): LiveAudience {
  if (n.audience === 'role') return { roles: n.roleCode ? [n.roleCode] : [] };
  if (n.audience === 'enterprises') return { enterprises: n.enterpriseIds };
  return { everyone: true };
}

/**
 * The rules beyond the shape: the attachment is a public notice file of this platform (the portal notices' rule), body
 * links and media as in a portal notice, the role and the enterprises exist.
 */
async function checkInput(db: Db, input: SystemNoticeInput): Promise<void> {
  try {
    await checkNoticeLinks(db, {
      bodyHtml: input.msg,
      attachments: input.url ? [{ name: input.urlName ?? '', url: input.url }] : [],
    });
  } catch (e) {
    if (!(e instanceof AppError) || e.httpStatus !== 400) throw e;
    const fe = (e.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors ?? {};
    const renamed: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(fe))
      renamed[k === 'bodyHtml' ? 'msg' : k.startsWith('attachments') ? 'url' : k] = v;
    throw validationFailed(renamed);
  }
  if (input.audience === 'role' && !(await repo.roleExists(db, input.roleCode ?? '')))
    throw validationFailed({ roleCode: ['角色不存在'] });
  if (input.audience === 'enterprises') {
    const ids = [...new Set(input.enterpriseIds)];
    const found = await repo.enterpriseNames(db, ids);
    if (found.length !== ids.length) throw validationFailed({ enterpriseIds: ['所选企业不存在'] });
  }
}

function columns(input: SystemNoticeInput) {
  return {
    type: input.type,
    title: input.title,
    msg: sanitizeRichText(input.msg),
    url: input.url,
    urlName: input.url ? input.urlName : null,
    audience: input.audience,
    roleCode: input.audience === 'role' ? input.roleCode : null,
    enterpriseIds: input.audience === 'enterprises' ? [...new Set(input.enterpriseIds)] : [],
    startAt: new Date(input.startAt),
    endAt: new Date(input.endAt),
  };
}

export async function saveNotice(
  db: Db,
  actor: Actor,
  input: SystemNoticeInput & Pick<SystemNoticeSave, 'id' | 'version'>,
  now: Date,
): Promise<SystemNotice> {
  await checkInput(db, input);
  const values = columns(input);
  if (!values.msg.trim()) throw validationFailed({ msg: ['请填写通知内容'] });
  return db.transaction(async (tx) => {
    let row: repo.SystemNoticeRow | undefined;
    if (input.id) {
      const before = await repo.findById(tx, input.id);
      if (!before) throw notFound(NOT_FOUND);
      row = await repo.updateNotice(tx, input.id, input.version ?? 0, values, now);
      if (!row) throw conflict('通知已被他人修改，请刷新后重试');
      await writeOpLog(tx, actor, { glName: GL_NAME, recordId: row.id, logbook: `修改系统通知《${row.title}》` });
      // a published notice changed: its old and its new audience re-read what they are shown
      if (row.status === 'published') {
        await publishEvent(tx, liveAudienceOf(before), 'notice', { id: row.id });
        await publishEvent(tx, liveAudienceOf(row), 'notice', { id: row.id });
      }
    } else {
      row = await repo.insertNotice(tx, { ...values, status: 'draft', createdBy: actor.userId });
      await writeOpLog(tx, actor, { glName: GL_NAME, recordId: row.id, logbook: `新建系统通知《${row.title}》` });
    }
    return viewById(tx, row.id);
  });
}

export async function publishNotice(db: Db, actor: Actor, id: string, now: Date): Promise<SystemNotice> {
  return db.transaction(async (tx) => {
    const existing = await repo.findById(tx, id);
    if (!existing) throw notFound(NOT_FOUND);
    if (existing.endAt.getTime() <= now.getTime()) throw badRequest('通知的结束时间已过，请修改后再发布');
    const row = await repo.transition(tx, id, ['draft', 'withdrawn'], 'published', now, { publishedAt: now });
    if (!row) throw conflict('该通知已发布');
    await writeOpLog(tx, actor, { glName: GL_NAME, recordId: id, logbook: `发布系统通知《${row.title}》` });
    await publishEvent(tx, liveAudienceOf(row), 'notice', { id });
    return viewById(tx, id);
  });
}

export async function withdrawNotice(db: Db, actor: Actor, id: string, now: Date): Promise<SystemNotice> {
  return db.transaction(async (tx) => {
    const row = await repo.transition(tx, id, ['published'], 'withdrawn', now);
    if (!row) {
      if (!(await repo.findById(tx, id))) throw notFound(NOT_FOUND);
      throw conflict('只有已发布的通知可以撤回');
    }
    await writeOpLog(tx, actor, { glName: GL_NAME, recordId: id, logbook: `撤回系统通知《${row.title}》` });
    await publishEvent(tx, liveAudienceOf(row), 'notice', { id });
    return viewById(tx, id);
  });
}

export async function deleteNotice(db: Db, actor: Actor, id: string): Promise<null> {
  return db.transaction(async (tx) => {
    const existing = await repo.findById(tx, id);
    if (!existing) throw notFound(NOT_FOUND);
    if (!(await repo.deleteDraft(tx, id))) throw conflict('只有草稿可以删除，已发布的通知请先撤回');
    await writeOpLog(tx, actor, { glName: GL_NAME, recordId: id, logbook: `删除系统通知草稿《${existing.title}》` });
    return null;
  });
}

export async function noticeReaders(
  db: Db,
  q: { id: string; pageNum: number; pageSize: number },
): Promise<{ records: SystemNoticeRead[]; total: number }> {
  if (!(await repo.findById(db, q.id))) throw notFound(NOT_FOUND);
  const { records, total } = await repo.readers(db, q.id, q.pageNum, q.pageSize);
  return {
    records: records.map((r) => ({ ...r, readAt: r.readAt ? r.readAt.toISOString() : null })),
    total,
  };
}
