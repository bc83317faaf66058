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
import type { Db } from '../../db/client';
import { badRequest, notFound } from '../../platform/errors';
import { type Actor, writeOpLog } from '../../platform/oplog';
import { levelReviewers } from '../engine/policy';
import { existingRoleCodes, usersExist } from './grants.repo';
import { cardStyleOf, columnsOf, nodeByCoding, preview, saveNodeJson } from './nodes.service';
import * as repo from './settings.repo';
import { GL, systemByCoding } from './structure.service';

/** The shell's settings: header menus and themes per user, audit levels and ways, notice jumps, style templates. */

// ── header dropdown and theme (per user) ────────────────────────────────────

export async function headerMenusFor(db: Db, loginRoleType: string): Promise<HeaderMenu[]> {
  return (await repo.enabledHeaderMenus(db))
    .filter((r) => r.roleTypes.includes(loginRoleType))
    .map((r) => ({ key: r.key, label: r.label, path: r.path, icon: r.icon }));
}

export async function themeOf(db: Db, userId: string): Promise<Theme> {
  const saved = (await repo.savedTheme(db, userId)) as object | undefined;
  const parsed = themeSchema.safeParse({ ...THEME_DEFAULTS, ...(saved ?? {}) });
  return parsed.success ? parsed.data : { ...THEME_DEFAULTS };
}

export async function saveTheme(db: Db, actor: Actor, userId: string, theme: Theme): Promise<Theme> {
  await db.transaction(async (tx) => {
    await repo.upsertTheme(tx, userId, theme);
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
  const rows = await repo.auditLevelsOf(db, n.id);
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
  const found = await existingRoleCodes(db, roleCodes);
  const missing = roleCodes.filter((c) => !found.has(c));
  if (missing.length) throw badRequest(`角色不存在：${missing.join('、')}`);
  if (!(await usersExist(db, [...new Set(levels.flatMap((l) => l.reviewerUserIds))]))) {
    throw badRequest('审核人不存在');
  }
  await db.transaction(async (tx) => {
    await repo.replaceAuditLevels(tx, n.id, levels);
    await writeOpLog(tx, actor, {
      glName: GL,
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
    for (const w of ways) await repo.setAuditWay(tx, n.id, w.level, w.way);
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding,
      recordId: n.id,
      logbook: `保存审核方式：${ways.map((w) => `第${w.level}级 ${w.way}`).join('，')}`,
    });
  });
  return auditConfigWithReviewers(db, gnCoding);
}

// ── notice jumps ────────────────────────────────────────────────────────────

export async function noticeJumpList(db: Db): Promise<NoticeJump[]> {
  return (await repo.noticeJumpsWithNodes(db)).map(({ j, n, s }) => ({
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
      if (!(await repo.updateNoticeJump(tx, id, values))) throw notFound('配置不存在');
    } else {
      id = (await repo.insertNoticeJump(tx, values)).id;
    }
    await writeOpLog(tx, actor, {
      glName: GL,
      gnCoding: n.gnCoding,
      recordId: id,
      logbook: `${input.id ? '修改' : '新增'}消息跳转：${input.name}（${input.msgType}）→ ${n.title}`,
    });
    return id;
  });
  return (await noticeJumpList(db)).find((j) => j.id === id)!;
}

export async function deleteNoticeJump(db: Db, actor: Actor, id: string) {
  const j = await repo.findNoticeJump(db, id);
  if (!j) throw notFound('配置不存在');
  await db.transaction(async (tx) => {
    await repo.deleteNoticeJump(tx, id);
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除消息跳转：${j.name}` });
  });
}

// ── style templates ─────────────────────────────────────────────────────────

function toTemplate(r: repo.StyleTemplateRow): StyleTemplate {
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
  return (await repo.styleTemplateRows(db)).map(toTemplate);
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
    const t = await repo.insertStyleTemplate(tx, {
      name: input.name,
      kind: input.kind,
      columns,
      cardStyle,
      createdBy: actor.userId,
    });
    await writeOpLog(tx, actor, {
      glName: GL,
      recordId: t.id,
      logbook: `新建样式模板：${t.name}（取自 ${n.title}）`,
    });
    return toTemplate(t);
  });
}

async function templateById(db: Db, id: string) {
  const t = await repo.findStyleTemplate(db, id);
  if (!t) throw notFound('模板不存在');
  return t;
}

export async function deleteTemplate(db: Db, actor: Actor, id: string) {
  const t = await templateById(db, id);
  await db.transaction(async (tx) => {
    await repo.deleteStyleTemplate(tx, id);
    await writeOpLog(tx, actor, { glName: GL, recordId: id, logbook: `删除样式模板：${t.name}` });
  });
}

export async function applyTemplate(db: Db, actor: Actor, id: string, gnCoding: string) {
  const tpl = toTemplate(await templateById(db, id));
  await saveNodeJson(
    db,
    actor,
    gnCoding,
    tpl.kind === 'table' ? { columns: tpl.columns ?? [] } : { cardStyle: tpl.cardStyle ?? undefined },
    `应用样式模板 ${tpl.name}`,
  );
  return preview(db, gnCoding);
}
