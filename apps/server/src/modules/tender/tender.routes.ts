import { api, NOTICE_MESSAGES, TENDER_MESSAGES } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import { dictionaryTree, QUALIFICATION_DICTIONARY } from '../engine/options.service';
import type { EngineCaller } from '../engine/record-access';
import { saveNotice, sectionNotices, submitNotice } from './notice.service';
import { checkFor, openSections, register, registrationList, registrationQuantity } from './registration.service';
import {
  deleteSection,
  saveSection,
  saveTenderSettings,
  tenderLegal,
  tenderProject,
  tenderSettings,
} from './tender.service';

const callerOf = (auth: AuthContext): EngineCaller => ({
  id: auth.user.id,
  loginRoleType: auth.user.loginRoleType,
  enterpriseId: auth.user.enterpriseId ?? null,
  actor: auth.actor,
});

/**
 * The five-in-one project detail (/fiveInOne/detail): the project and its sections, section changes by the project's
 * side, and the timeline settings (read by anyone signed in — the forms show them — changed by administrators).
 */
export function tenderRoutes(app: FastifyInstance, db: Db, now: () => Date, tz: string) {
  route(app, api.tenderProject, async ({ auth, query }) => tenderProject(db, callerOf(auth), query.id), {
    roles: ['M', 'D', 'U'],
  });
  route(app, api.tenderSectionSave, async ({ auth, body }) => saveSection(db, callerOf(auth), body, now(), tz), {
    roles: ['M', 'U'],
    message: TENDER_MESSAGES.saved,
  });
  route(
    app,
    api.tenderSectionDelete,
    async ({ auth, body }) => {
      await deleteSection(db, callerOf(auth), body.id, now());
      return null;
    },
    { roles: ['M', 'U'], message: TENDER_MESSAGES.deleted },
  );
  route(app, api.tenderSettings, async () => ({ settings: await tenderSettings(db), legal: tenderLegal() }), {
    roles: ['M', 'D', 'U'],
  });
  route(app, api.tenderSettingsSave, async ({ auth, body }) => saveTenderSettings(db, callerOf(auth), body), {
    roles: ['M'],
    message: TENDER_MESSAGES.settingsSaved,
  });

  // tender notices: written by the project's side, reviewed through the engine, published when the review passes
  route(app, api.tenderNotices, async ({ auth, query }) => sectionNotices(db, callerOf(auth), query.sectionId, now()), {
    roles: ['M', 'D', 'U'],
  });
  route(app, api.tenderQualificationTree, async () => dictionaryTree(db, QUALIFICATION_DICTIONARY), {
    roles: ['M', 'D', 'U'],
  });
  route(app, api.tenderNoticeSave, async ({ auth, body }) => saveNotice(db, callerOf(auth), body, now(), tz), {
    roles: ['M', 'U'],
    message: NOTICE_MESSAGES.saved,
  });
  route(app, api.tenderNoticeSubmit, async ({ auth, body }) => submitNotice(db, callerOf(auth), body, now(), tz), {
    roles: ['M', 'U'],
    message: NOTICE_MESSAGES.submitted,
  });

  // registration: enterprises for published sections; who registered stays hidden until opening
  route(
    app,
    api.registrationQuantity,
    async ({ query }) => ({ sectionId: query.sectionId, quantity: await registrationQuantity(db, query.sectionId) }),
    { roles: ['M', 'D', 'U'] },
  );
  route(
    app,
    api.registrationOpenSections,
    async ({ auth }) => ({ records: await openSections(db, callerOf(auth), now()) }),
    {
      roles: ['M', 'D', 'U'],
    },
  );
  route(
    app,
    api.registrationCheck,
    async ({ auth, query }) => checkFor(db, callerOf(auth), query.sectionId, now(), tz),
    {
      roles: ['U'],
    },
  );
  route(app, api.registrationSave, async ({ auth, body }) => register(db, callerOf(auth), body, now(), tz), {
    roles: ['U'],
    message: '报名成功',
  });
  route(
    app,
    api.registrationList,
    async ({ auth, query }) => ({ records: await registrationList(db, callerOf(auth), query.sectionId, now()) }),
    { roles: ['M', 'U'] },
  );
}
