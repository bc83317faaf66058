import { api, TENDER_MESSAGES } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { route } from '../../platform/route';
import type { AuthContext } from '../auth/auth.service';
import type { EngineCaller } from '../engine/record-access';
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
}
