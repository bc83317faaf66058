import multipart from '@fastify/multipart';
import { AccountMsg, api, PORTRAIT_MAX_BYTES, SmsMsg } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { AppError, badRequest } from '../../platform/errors';
import { route } from '../../platform/route';
import type { Storage } from '../../platform/storage';
import type { AuthService } from '../auth/auth.service';
import type { SmsService } from '../sms/sms.service';
import { createAccountCentre } from './account-centre.service';
import { savePortrait } from './portrait';

const ua = (h: unknown) => String(h ?? '');

/** Password reset and SMS sign-in (anonymous), phone and password state, portrait and sign-in history (issue 15). */
export async function accountCentreRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    auth: AuthService;
    sms: SmsService;
    storage: Storage;
    passwordMaxAgeDays: number;
    loginPerMinute: number;
    now: () => Date;
  },
) {
  const centre = createAccountCentre(deps);
  const codeLimit = { rateLimit: { max: 10, timeWindow: '1 minute' } };

  route(app, api.resetCode, async ({ req, query }) => centre.quietCode(query.phone, 'reset', req.ip), {
    message: SmsMsg.SENT,
    ...codeLimit,
  });
  route(app, api.loginVerifyCode, async ({ req, query }) => centre.quietCode(query.phone, 'login', req.ip), {
    message: SmsMsg.SENT,
    ...codeLimit,
  });
  route(
    app,
    api.resetSecret,
    async ({ req, body }) => {
      await centre.resetSecret(body, req.ip);
      return null;
    },
    { message: AccountMsg.RESET_DONE, rateLimit: { max: 10, timeWindow: '1 minute' } },
  );
  route(
    app,
    api.smsLogin,
    async ({ req, body }) =>
      deps.auth.smsLogin(deps.sms, body, { ip: req.ip, userAgent: ua(req.headers['user-agent']) }),
    { message: '登录成功', rateLimit: { max: deps.loginPerMinute, timeWindow: '1 minute' } },
  );
  route(app, api.updatePhone, async ({ auth, body }) => centre.updatePhone(auth, body), {
    message: AccountMsg.PHONE_CHANGED,
  });
  route(app, api.secretTime, async ({ auth }) => centre.secretTime(auth));
  route(app, api.phoneState, async ({ auth }) => centre.phoneState(auth));
  route(app, api.verifyPhone, async ({ auth, body }) => centre.verifyPhone(auth, body.code), {
    message: AccountMsg.PHONE_VERIFIED,
    rateLimit: { max: 20, timeWindow: '1 minute' },
  });
  route(app, api.logHistory, async ({ auth, query }) => centre.logHistory(auth, query));

  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: PORTRAIT_MAX_BYTES, files: 1, fields: 5 } });
    route(
      scope,
      api.portrait,
      async ({ req, auth }) => {
        if (!req.isMultipart()) throw badRequest('请使用 multipart/form-data 上传头像');
        const file = await req.file();
        if (!file)
          throw badRequest(AccountMsg.PORTRAIT_NOT_IMAGE, { fieldErrors: { file: [AccountMsg.PORTRAIT_NOT_IMAGE] } });
        const bytes = await file.toBuffer().catch((e: { code?: string }) => {
          if (e.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 413, AccountMsg.PORTRAIT_TOO_LARGE);
          throw e;
        });
        return savePortrait({ db: deps.db, storage: deps.storage, now: deps.now }, auth, bytes);
      },
      { message: AccountMsg.PORTRAIT_SAVED, rateLimit: { max: 20, timeWindow: '1 minute' } },
    );
  });
}
