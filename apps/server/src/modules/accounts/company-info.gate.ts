import { randomUUID } from 'node:crypto';
import { companyInfoRequiredMessage, missingEnterpriseFields, paths } from '@ks/contracts';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { createCache } from '../../platform/cache';
import { companyInfoRequired } from '../../platform/errors';
import { requiredDetailsOf } from './accounts.repo';
import { pendingOf } from './enterprise-changes.repo';

/**
 * Spec §2 "418 leads to /system/companyInfo?type=1": an enterprise user (role U linked to an enterprise) whose
 * enterprise record leaves a required field empty (ENTERPRISE_REQUIRED_FIELDS: 法定代表人, 所在地区, 注册地址,
 * 注册资本, 成立日期) gets 418 from business calls until it is completed, with a message naming what is missing.
 *
 * The gate is an onRequest hook of the scope the business modules are registered in (engine records, uploads and
 * attachments; see app.ts): sign-in, user info, menus, the shell, the company-information calls themselves and
 * public routes are outside that scope and never answer 418. Inside it, public routes and the message centre's
 * to-do calls (shown on every page of the shell) are let through.
 *
 * Fields filled in the enterprise's open information round (credit_changes, saved or waiting for review) count as given (the enterprise is not held
 * up by the review of its own information). A complete enterprise stays complete (the update refuses empty required fields), so that verdict is kept per
 * process for a minute; an incomplete one is read again on every call, so completing the information takes effect at
 * once on every process.
 */

/** Business-scope endpoints that are not business handling: the message centre's to-dos, the change rounds. */
const EXEMPT = new Set<string>([
  paths.todoSystems.path,
  paths.todoList.path,
  // the change rounds: an enterprise completes its information through an information round (issue 13)
  paths.rfcChangeRecords.path,
  paths.rfcChangeTypes.path,
  paths.rfcChangeFields.path,
  paths.rfcSaveChangeData.path,
  paths.rfcChangeSubmit.path,
  paths.rfcContacts.path,
]);
/** Enterprises found complete, by gate and enterprise id, for a minute. */
const complete = createCache<string, true>('accounts.completeEnterprises', { max: 10_000, ttlMs: 60_000 });

export async function enterpriseMissing(db: Db, enterpriseId: string) {
  const row = await requiredDetailsOf(db, enterpriseId);
  if (!row) return null;
  const missing = missingEnterpriseFields(row);
  if (!missing.length) return missing;
  // what the enterprise has submitted and an administrator has yet to review counts as given: the enterprise is not
  // held up by the review of its own information
  const pending = await pendingOf(db, enterpriseId);
  const proposed = (pending?.values ?? {}) as Record<string, string | null>;
  return missing.filter((f) => proposed[f] === null || proposed[f] === undefined || String(proposed[f]).trim() === '');
}

export function companyInfoGate(db: Db) {
  // each gate (one per app: one per process, several in tests on other databases) keeps its own verdicts
  const scope = randomUUID();
  return async function requireCompleteEnterprise(req: FastifyRequest): Promise<void> {
    if (req.routeOptions.config?.public) return;
    const user = req.auth?.user;
    // no session: the route itself answers 401; only enterprise users are gated
    const id = user?.loginRoleType === 'U' ? user.enterpriseId : null;
    if (!id) return;
    if (req.routeOptions.url && EXEMPT.has(req.routeOptions.url)) return;
    if (complete.has(`${scope}|${id}`)) return;
    const missing = await enterpriseMissing(db, id);
    // an enterprise row that is gone is not this gate's to report
    if (missing === null) return;
    if (missing.length > 0) throw companyInfoRequired(companyInfoRequiredMessage(missing), { missing });
    complete.set(`${scope}|${id}`, true);
  };
}
