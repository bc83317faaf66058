import multipart, { type MultipartFile } from '@fastify/multipart';
import { api, REGISTRATION_NODE, UploadMsg } from '@ks/contracts';
import type { FastifyInstance } from 'fastify';
import { ok } from '../../platform/envelope';
import { badRequest } from '../../platform/errors';
import { route } from '../../platform/route';
import type { FilesDeps } from '../files/files.service';
import { checkUpload, oversize, storeUploads } from '../files/files.service';
import { discard, readForm, type Spooled, spool, unexpectedFile } from '../files/multipart';
import * as activation from './activation.service';
import { adminCreateEnterprise } from './admin.service';
import { applicantUser } from './node';
import { registerPerson } from './realname.service';
import type { RegisterDeps } from './registration.service';
import * as registration from './registration.service';

/** The business licence: PDF or an image, at most 10 MB. */
export const LICENCE_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png'] as const;
export const LICENCE_MAX_BYTES = 10 * 1024 * 1024;

const ADMIN = ['M'];

/**
 * `perMinute`: per address and minute, the anonymous calls that write or send (the sign-in limit,
 * LOGIN_RATE_LIMIT_PER_MINUTE); reads get twice as many. Both are braked harder than the API's general limit.
 */
export function registerRoutes(app: FastifyInstance, deps: RegisterDeps & { files: FilesDeps; perMinute: number }) {
  const { db, sms } = deps;
  const WRITE_LIMIT = { max: deps.perMinute, timeWindow: '1 minute' };
  const READ_LIMIT = { max: deps.perMinute * 2, timeWindow: '1 minute' };
  const sent = async (phone: string, purpose: 'register' | 'legal' | 'realname', ip: string) => {
    const r = await sms.sendCode(phone, purpose, { ip });
    return { resendAfterSeconds: r.resendAfterSeconds, mode: sms.mode };
  };

  route(app, api.registerVerify, async ({ body }) => registration.verifyCreditCode(db, body.creditCode), {
    rateLimit: READ_LIMIT,
  });
  route(app, api.registerProgress, async ({ query }) => registration.progress(db, query.creditCode, query.keyWord), {
    rateLimit: READ_LIMIT,
  });
  route(app, api.registerSubmit, async ({ req, body }) => registration.submitRegistration(deps, body, req.ip), {
    message: '注册申请已提交，请等待审核',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.registerLegalPhone, async ({ req, query }) => sent(query.phone, 'legal', req.ip), {
    message: '验证码已发送',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.registerSmsPhoneCode, async ({ req, body }) => sent(body.phone, body.purpose, req.ip), {
    message: '验证码已发送',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.registerCode, async ({ req, body }) => sent(body.phone, 'register', req.ip), {
    message: '验证码已发送',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.registerPhoneCode, async ({ req, body }) => sent(body.phone, 'realname', req.ip), {
    message: '验证码已发送',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.registerSmsVerify, async ({ body }) => sms.verifyCode(body.phone, body.purpose, body.code), {
    message: '手机号验证成功',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.userRegister, async ({ req, body }) => registerPerson(deps, body, req.ip), {
    message: '注册成功，请登录',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.activateVerify, async ({ body }) => activation.verifyBasicInfo(deps, body), {
    message: '信息核验通过',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.activateCode, async ({ req, query }) => activation.sendActivationCode(deps, query, req.ip), {
    message: '验证码已发送',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.activate, async ({ req, body }) => activation.activate(deps, body, req.ip), {
    message: '企业账号已激活，请登录',
    rateLimit: WRITE_LIMIT,
  });
  route(app, api.adminEnterpriseCreate, async ({ auth, body }) => adminCreateEnterprise(db, auth.actor, body), {
    roles: ADMIN,
    message: '企业已登记',
  });

  // the business licence: an anonymous single-file upload, owned by the applicant account until a submission binds it
  app.register(async (scope) => {
    await scope.register(multipart, { throwFileSizeLimit: true });
    scope.route({
      method: api.registerLicence.method,
      url: api.registerLicence.path,
      config: { public: true, rateLimit: WRITE_LIMIT },
      handler: async (req) => {
        const files = deps.files;
        const spooled: { spooled: Spooled; rawName: string }[] = [];
        try {
          await readForm(req, { fileSize: LICENCE_MAX_BYTES, files: 1 }, async (part: MultipartFile) => {
            if (part.fieldname !== 'file') return unexpectedFile(part);
            const s = await spool(part.file, files.spoolDir, {
              max: LICENCE_MAX_BYTES,
              tooLarge: oversize(LICENCE_MAX_BYTES),
            });
            spooled.push({ spooled: s, rawName: (part.filename ?? '').replace(/%22/g, '"') });
          });
          const first = spooled[0];
          if (!first) throw badRequest(UploadMsg.NO_FILE);
          const applicant = await applicantUser(db);
          const u = {
            rawName: first.rawName,
            spooled: first.spooled,
            gnCoding: REGISTRATION_NODE,
            annexNo: null,
            fileType: '营业执照',
            allowed: LICENCE_EXTENSIONS,
            visibility: 'private' as const,
            source: 'register',
          };
          const checked = await checkUpload(files, u);
          const [out] = await storeUploads(
            files,
            {
              id: applicant.id,
              loginRoleType: 'U',
              enterpriseId: null,
              actor: { userId: applicant.id, userName: applicant.userName, loginRoleType: 'U', ip: req.ip },
            },
            [{ ...u, ...checked }],
          );
          return ok({ fileId: out!.fileId, fileName: out!.fileName, fileSize: first.spooled.size }, UploadMsg.DONE);
        } finally {
          await Promise.all(spooled.map((s) => discard(s.spooled)));
        }
      },
    });
  });
}
