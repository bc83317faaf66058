import {
  type AuditLevel,
  type CardStyle,
  type HeaderMenu,
  type NoticeJump,
  routeForNode,
  type StyleTemplate,
  type TableColumn,
  THEME_DEFAULTS,
  type Theme,
  themeSchema,
} from '@ks/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  auditLevels,
  businessSystems,
  headerMenus,
  menuNodes,
  noticeJumps,
  roles,
  styleTemplates,
  users,
  userThemes,
} from '../../db/schema';
import { badRequest, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { levelReviewers } from '../engine/policy';
import { cardStyleOf, columnsOf, nodeByCoding, preview, saveNodeJson, systemByCoding } from './structure.service';

// ── header dropdown and theme (per user) ────────────────────────────────────

export async function headerMenusFor(db: Db, loginRoleType: string): Promise<HeaderMenu[]> {
  const rows = await db.select().from(headerMenus).where(eq(headerMenus.enabled, true)).orderBy(asc(headerMenus.sort));
  return rows
    .filter((r) => r.roleTypes.includes(loginRoleType))
    .map((r) => ({ key: r.key, label: r.label, path: r.path, icon: r.icon }));
}

export async function themeOf(db: Db, userId: string): Promise<Theme> {
  const [row] = await db.select().from(userThemes).where(eq(userThemes.userId, userId));
  const parsed = themeSchema.safeParse({ ...THEME_DEFAULTS, ...((row?.theme as object | undefined) ?? {}) });
  return parsed.success ? parsed.data : { ...THEME_DEFAULTS };
}

export async function saveTheme(db: Db, actor: Actor, userId: string, theme: Theme): Promise<Theme> {
  await db.transaction(async (tx) => {
    await tx
      .insert(userThemes)
      .values({ userId, theme })
      .onConflictDoUpdate({ target: userThemes.userId, set: { theme, updatedAt: new Date() } });
    await writeOpLog(tx, actor, {
      glName: '个人设置',
      recordId: userId,
      logbook: `保存主题：${theme.theme === 'dark' ? '深色' : '浅色'}，主色 ${theme.themeColor}`,
    });
  });
  return themeOf(db, userId);
}

// ── audit levels and ways ───────────────────────────────────────────────────

export async function auditConfig(db: Db, gnCoding: string) {
  const n = await nodeByCoding(db, gnCoding);
  const rows = await db.select().from(auditLevels).where(eq(auditLevels.nodeId, n.id)).orderBy(asc(auditLevels.level));
  return {
    gnCoding,
    levels: rows.map(
      (r): AuditLevel => ({
        level: r.level,
        name: r.name,
        way: (['single', 'all', 'any'].includes(r.way) ? r.way : 'any') as AuditLevel['way'],
        reviewerRoles: r.reviewerRoles,
        reviewerUserIds: r.reviewerUserIds,
      }),
    ),
  };
}

/** The most reviewers counted per level for the configuration page (it warns about none). */
const REVIEWER_COUNT_CAP = 1000;

/**
 * The audit configuration as the configuration pages show it: each level with how many active accounts may decide it
 * (`reviewerCount`), so a level nobody can review is pointed out before an applicant's submission is refused.
 */
export async function auditConfigWithReviewers(db: Db, gnCoding: string) {
  const config = await auditConfig(db, gnCoding);
  const levels = [];
  for (const l of config.levels) {
    levels.push({ ...l, reviewerCount: (await levelReviewers(db, l, null, REVIEWER_COUNT_CAP)).length });
  }
  return { gnCoding: config.gnCoding, levels };
}

export async function saveAuditLevels(db: Db, actor: Actor, gnCoding: string, levels: AuditLevel[]) {
  const n = await nodeByCoding(db, gnCoding);
  const roleCodes = [...new Set(levels.flatMap((l) => l.reviewerRoles))];
  if (roleCodes.length) {
    const found = await db.select({ code: roles.code }).from(roles).where(inArray(roles.code, roleCodes));
    const missing = roleCodes.filter((c) => !found.some((f) => f.code === c));
    if (missing.length) throw badRequest(`角色不存在：${missing.join('、')}`);
  }
  const userIds = [...new Set(levels.flatMap((l) => l.reviewerUserIds))];
  if (userIds.length) {
    const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, userIds));
    if (found.length !== userIds.length) throw badRequest('审核人不存在');
  }
  await db.transaction(async (tx) => {
    await tx.delete(auditLevels).where(eq(auditLevels.nodeId, n.id));
    if (levels.length) await tx.insert(auditLevels).values(levels.map((l) => ({ ...l, nodeId: n.id })));
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      gnCoding,
      recordId: n.id,
      logbook: `保存审核级别：${n.title} 共 ${levels.length} 级（${levels.map((l) => l.name).join(' → ') || '无需审核'}）`,
    });
  });
  return auditConfigWithReviewers(db, gnCoding);
}

export async function saveAuditWays(
  db: Db,
  actor: Actor,
  gnCoding: string,
  ways: { level: number; way: AuditLevel['way'] }[],
) {
  const current = await auditConfig(db, gnCoding);
  const n = await nodeByCoding(db, gnCoding);
  for (const w of ways) {
    const level = current.levels.find((l) => l.level === w.level);
    if (!level) throw badRequest(`第 ${w.level} 级审核不存在，请先设置审核级别`);
    if (w.way === 'single' && level.reviewerRoles.length + level.reviewerUserIds.length !== 1) {
      throw badRequest('单人审核只能指定一个审核人或角色');
    }
  }
  await db.transaction(async (tx) => {
    for (const w of ways) {
      await tx
        .update(auditLevels)
        .set({ way: w.way })
        .where(and(eq(auditLevels.nodeId, n.id), eq(auditLevels.level, w.level)));
    }
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      gnCoding,
      recordId: n.id,
      logbook: `保存审核方式：${ways.map((w) => `第${w.level}级 ${w.way}`).join('，')}`,
    });
  });
  return auditConfigWithReviewers(db, gnCoding);
}

// ── notice jumps ────────────────────────────────────────────────────────────

export async function noticeJumpList(db: Db): Promise<NoticeJump[]> {
  const rows = await db
    .select({ j: noticeJumps, n: menuNodes, s: businessSystems })
    .from(noticeJumps)
    .innerJoin(menuNodes, eq(menuNodes.id, noticeJumps.nodeId))
    .innerJoin(businessSystems, eq(businessSystems.id, menuNodes.systemId))
    .orderBy(asc(noticeJumps.createdAt));
  return rows.map(({ j, n, s }) => ({
    id: j.id,
    name: j.name,
    msgType: j.msgType as NoticeJump['msgType'],
    systemCoding: s.gnCoding,
    gnCoding: n.gnCoding,
    enabled: j.enabled,
    path: routeForNode(n, s.gnCoding, false),
  }));
}

export async function saveNoticeJump(
  db: Db,
  actor: Actor,
  input: { id?: string; name: string; msgType: string; systemCoding: string; gnCoding: string; enabled: boolean },
): Promise<NoticeJump> {
  const s = await systemByCoding(db, input.systemCoding);
  const n = await nodeByCoding(db, input.gnCoding);
  if (n.systemId !== s.id) throw badRequest('跳转节点不属于所选系统');
  const values = { name: input.name, msgType: input.msgType, nodeId: n.id, enabled: input.enabled };
  const id = await db.transaction(async (tx) => {
    let id = input.id;
    if (id) {
      const [u] = await tx.update(noticeJumps).set(values).where(eq(noticeJumps.id, id)).returning();
      if (!u) throw notFound('配置不存在');
    } else {
      const [c] = await tx.insert(noticeJumps).values(values).returning();
      id = c!.id;
    }
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      gnCoding: n.gnCoding,
      recordId: id,
      logbook: `${input.id ? '修改' : '新增'}消息跳转：${input.name}（${input.msgType}）→ ${n.title}`,
    });
    return id;
  });
  return (await noticeJumpList(db)).find((j) => j.id === id)!;
}

export async function deleteNoticeJump(db: Db, actor: Actor, id: string) {
  const [j] = await db.select().from(noticeJumps).where(eq(noticeJumps.id, id));
  if (!j) throw notFound('配置不存在');
  await db.transaction(async (tx) => {
    await tx.delete(noticeJumps).where(eq(noticeJumps.id, id));
    await writeOpLog(tx, actor, { glName: '系统配置', recordId: id, logbook: `删除消息跳转：${j.name}` });
  });
}

// ── style templates ─────────────────────────────────────────────────────────

function toTemplate(r: typeof styleTemplates.$inferSelect): StyleTemplate {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind === 'card' ? 'card' : 'table',
    columns: (r.columns as TableColumn[] | null) ?? null,
    cardStyle: (r.cardStyle as CardStyle | null) ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function templateList(db: Db): Promise<StyleTemplate[]> {
  return (await db.select().from(styleTemplates).orderBy(asc(styleTemplates.createdAt))).map(toTemplate);
}

export async function createTemplate(
  db: Db,
  actor: Actor,
  input: { name: string; kind: 'table' | 'card'; fromGnCoding: string },
): Promise<StyleTemplate> {
  const n = await nodeByCoding(db, input.fromGnCoding);
  const columns = input.kind === 'table' ? columnsOf(n) : null;
  const cardStyle = input.kind === 'card' ? cardStyleOf(n) : null;
  if (input.kind === 'table' && !columns?.length) throw badRequest('该节点还没有配置列表列');
  if (input.kind === 'card' && !cardStyle) throw badRequest('该节点还没有配置卡片样式');
  return db.transaction(async (tx) => {
    const [t] = await tx
      .insert(styleTemplates)
      .values({ name: input.name, kind: input.kind, columns, cardStyle, createdBy: actor.userId })
      .returning();
    await writeOpLog(tx, actor, {
      glName: '系统配置',
      recordId: t!.id,
      logbook: `新建样式模板：${t!.name}（取自 ${n.title}）`,
    });
    return toTemplate(t!);
  });
}

export async function deleteTemplate(db: Db, actor: Actor, id: string) {
  const [t] = await db.select().from(styleTemplates).where(eq(styleTemplates.id, id));
  if (!t) throw notFound('模板不存在');
  await db.transaction(async (tx) => {
    await tx.delete(styleTemplates).where(eq(styleTemplates.id, id));
    await writeOpLog(tx, actor, { glName: '系统配置', recordId: id, logbook: `删除样式模板：${t.name}` });
  });
}

export async function applyTemplate(db: Db, actor: Actor, id: string, gnCoding: string) {
  const [t] = await db.select().from(styleTemplates).where(eq(styleTemplates.id, id));
  if (!t) throw notFound('模板不存在');
  const tpl = toTemplate(t);
  await saveNodeJson(
    db,
    actor,
    gnCoding,
    tpl.kind === 'table' ? { columns: tpl.columns ?? [] } : { cardStyle: tpl.cardStyle ?? undefined },
    `应用样式模板 ${tpl.name}`,
  );
  return preview(db, gnCoding);
}
