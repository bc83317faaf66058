import {
  type AdminNotice,
  type HomeOverview,
  NOTICE_CATEGORIES,
  type NoticeDetail,
  type NoticeInput,
  type NoticeListQuery,
  type NoticeSummary,
  TRADE_TYPES,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { sanitizeRichText } from '../../platform/sanitize';
import { countEnterprises } from './market.repo';
import { checkNoticeLinks } from './notice-links';
import * as repo from './notices.repo';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function summary(
  r: Pick<repo.NoticeRow, 'id' | 'title' | 'category' | 'tradeType' | 'region' | 'projectCode' | 'publishedAt'>,
): NoticeSummary {
  return {
    id: r.id,
    title: r.title,
    category: r.category,
    tradeType: r.tradeType,
    region: r.region,
    projectCode: r.projectCode,
    publishedAt: iso(r.publishedAt),
  };
}

function detail(r: repo.NoticeRow): NoticeDetail {
  return {
    ...summary(r),
    bodyHtml: r.bodyHtml,
    attachments: r.attachments,
    amount: r.amount,
    tenderer: r.tenderer,
    projectName: r.projectName,
    sectionName: r.sectionName,
  };
}

function adminView(r: repo.NoticeRow): AdminNotice {
  return {
    ...detail(r),
    status: r.status as AdminNotice['status'],
    version: r.version,
    updatedAt: r.updatedAt.toISOString(),
    createdBy: r.createdBy,
  };
}

export const HOME_ITEMS_PER_GROUP = 8;

export async function homeOverview(db: Db): Promise<HomeOverview> {
  const [cats, trades] = [
    await repo.latestPerGroup(db, 'category', NOTICE_CATEGORIES, HOME_ITEMS_PER_GROUP),
    await repo.latestPerGroup(db, 'tradeType', TRADE_TYPES, HOME_ITEMS_PER_GROUP),
  ];
  const byCategory = NOTICE_CATEGORIES.map((category) => ({
    category,
    items: cats.filter((n) => n.category === category).map(summary),
  }));
  const byTradeType = TRADE_TYPES.map((tradeType) => ({
    tradeType,
    items: trades.filter((n) => n.tradeType === tradeType).map(summary),
  }));
  const stats = await repo.noticeStats(db);
  return {
    byCategory,
    byTradeType,
    stats: {
      projects: stats.projects,
      transactionAmount: stats.amount,
      enterprises: await countEnterprises(db),
      notices: stats.notices,
    },
  };
}

export async function listNotices(db: Db, q: NoticeListQuery) {
  const { records, total } = await repo.listPublished(db, q);
  return { records: records.map(summary), total };
}

export async function publishedNotice(db: Db, id: string): Promise<NoticeDetail> {
  const row = await repo.findPublished(db, id);
  if (!row) throw notFound('该公告不存在或已撤回');
  return detail(row);
}

// ---- administration (routes check the admin role)

export async function adminList(db: Db, q: Parameters<typeof repo.listAll>[1]) {
  const { records, total } = await repo.listAll(db, q);
  return { records: records.map(adminView), total };
}

export async function adminDetail(db: Db, id: string): Promise<AdminNotice> {
  const row = await repo.findById(db, id);
  if (!row) throw notFound('该公告不存在');
  return adminView(row);
}

function columns(input: NoticeInput) {
  return {
    title: input.title,
    category: input.category,
    tradeType: input.tradeType,
    region: input.region,
    projectCode: input.projectCode || null,
    projectName: input.projectName || null,
    sectionName: input.sectionName || null,
    tenderer: input.tenderer || null,
    amount: input.amount || null,
    bodyHtml: sanitizeRichText(input.bodyHtml),
    attachments: input.attachments,
  };
}

export async function saveNotice(
  db: Db,
  actor: Actor,
  input: NoticeInput & { id?: string; version?: number },
): Promise<AdminNotice> {
  // links first: a notice never points at another site's files, at a dead file, or through a protocol trick
  await checkNoticeLinks(db, input);
  return db.transaction(async (tx) => {
    let row: repo.NoticeRow | undefined;
    if (input.id) {
      row = await repo.updateNotice(tx, input.id, input.version ?? 0, columns(input));
      if (!row) {
        if (!(await repo.findById(tx, input.id))) throw notFound('该公告不存在');
        throw conflict('公告已被他人修改，请刷新后重试');
      }
      await writeOpLog(tx, actor, { glName: '门户公告', recordId: row.id, logbook: `修改公告《${row.title}》` });
    } else {
      row = await repo.insertNotice(tx, { ...columns(input), status: 'draft', createdBy: actor.userId });
      await writeOpLog(tx, actor, { glName: '门户公告', recordId: row.id, logbook: `新建公告《${row.title}》` });
    }
    return adminView(row);
  });
}

export async function publishNotice(db: Db, actor: Actor, id: string): Promise<AdminNotice> {
  return db.transaction(async (tx) => {
    const row = await repo.transition(tx, id, ['draft', 'withdrawn'], 'published', { publishedAt: new Date() });
    if (!row) {
      if (!(await repo.findById(tx, id))) throw notFound('该公告不存在');
      throw conflict('该公告已发布');
    }
    await writeOpLog(tx, actor, { glName: '门户公告', recordId: id, logbook: `发布公告《${row.title}》` });
    return adminView(row);
  });
}

export async function withdrawNotice(db: Db, actor: Actor, id: string): Promise<AdminNotice> {
  return db.transaction(async (tx) => {
    const row = await repo.transition(tx, id, ['published'], 'withdrawn');
    if (!row) {
      if (!(await repo.findById(tx, id))) throw notFound('该公告不存在');
      throw conflict('只有已发布的公告可以撤回');
    }
    await writeOpLog(tx, actor, { glName: '门户公告', recordId: id, logbook: `撤回公告《${row.title}》` });
    return adminView(row);
  });
}

export async function deleteNotice(db: Db, actor: Actor, id: string): Promise<null> {
  return db.transaction(async (tx) => {
    const existing = await repo.findById(tx, id);
    if (!existing) throw notFound('该公告不存在');
    if (!(await repo.deleteDraft(tx, id))) throw conflict('只有草稿可以删除，已发布的公告请先撤回');
    await writeOpLog(tx, actor, { glName: '门户公告', recordId: id, logbook: `删除草稿《${existing.title}》` });
    return null;
  });
}
