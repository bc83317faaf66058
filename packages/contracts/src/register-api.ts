import { paths } from './paths';
import {
  activatedSchema,
  activateSchema,
  activationBasicSchema,
  activationMatchSchema,
  adminEnterpriseCreatedSchema,
  adminEnterpriseCreateSchema,
  creditCodeVerifyResultSchema,
  creditCodeVerifySchema,
  licenceUploadedSchema,
  registerProofSchema,
  registrationProgressQuerySchema,
  registrationProgressSchema,
  registrationSubmitSchema,
  registrationSubmittedSchema,
  smsPhonePurposeSchema,
  smsPhoneSchema,
  smsSentSchema,
  smsVerifySchema,
  userRegisteredSchema,
  userRegisterSchema,
} from './register';

const T = '注册与激活';

/**
 * Registry entries of self-registration (issue 15). Every one but the administrator's is answered without a token
 * (auth: false) and is rate-limited per address; none says anything about an enterprise beyond what the caller proved.
 */
export const registerApi = {
  registerVerify: {
    ...paths.registerVerify,
    summary:
      '核验统一社会信用代码：格式或校验位不符为 400（各有提示）；registered 只说明已注册或已有审核中的申请，不透露其他信息',
    tag: T,
    auth: false,
    body: creditCodeVerifySchema,
    data: creditCodeVerifyResultSchema,
  },
  registerProgress: {
    ...paths.registerProgress,
    summary: '注册进度查询：统一社会信用代码 + 申请编号（keyWord）都对上才答复该申请的状态与驳回原因，否则 404',
    tag: T,
    auth: false,
    query: registrationProgressQuerySchema,
    data: registrationProgressSchema,
  },
  registerSubmit: {
    ...paths.registerSubmit,
    summary:
      '提交企业注册申请（法定代表人手机短信验证凭证一次有效；密码以登录公钥 RSA-OAEP 加密）：代码已注册或在审核中 409；进入「企业注册审核」待审核',
    tag: T,
    auth: false,
    body: registrationSubmitSchema,
    data: registrationSubmittedSchema,
  },
  registerLicence: {
    ...paths.registerLicence,
    summary: '上传营业执照（multipart，字段 file；pdf、jpg、jpeg、png，10 MB 以内），提交注册申请时引用 fileId',
    tag: T,
    auth: false,
    data: licenceUploadedSchema,
  },
  registerLegalPhone: {
    ...paths.registerLegalPhone,
    summary: '向法定代表人手机发送短信验证码（用途 legal）',
    tag: T,
    auth: false,
    query: smsPhoneSchema,
    data: smsSentSchema,
  },
  registerSmsPhoneCode: {
    ...paths.registerSmsPhoneCode,
    summary: '发送注册用短信验证码（用途 register | legal | realname）',
    tag: T,
    auth: false,
    body: smsPhonePurposeSchema,
    data: smsSentSchema,
  },
  registerCode: {
    ...paths.registerCode,
    summary: '发送注册验证码（用途 register）',
    tag: T,
    auth: false,
    body: smsPhoneSchema,
    data: smsSentSchema,
  },
  registerPhoneCode: {
    ...paths.registerPhoneCode,
    summary: '发送个人实名注册的手机验证码（用途 realname）',
    tag: T,
    auth: false,
    body: smsPhoneSchema,
    data: smsSentSchema,
  },
  registerSmsVerify: {
    ...paths.registerSmsVerify,
    summary: '核对短信验证码，答复一次有效的凭证（proof），注册提交时携带',
    tag: T,
    auth: false,
    body: smsVerifySchema,
    data: registerProofSchema,
  },
  userRegister: {
    ...paths.userRegister,
    summary:
      '个人实名注册：姓名、身份证号码（GB 11643 校验位、出生日期）、手机（短信凭证，用途 realname）、账号与密码；身份证号已注册 409；注册后即可登录',
    tag: T,
    auth: false,
    body: userRegisterSchema,
    data: userRegisteredSchema,
  },
  activateVerify: {
    ...paths.activateVerify,
    summary:
      '企业激活第一步：统一社会信用代码 + 法定代表人姓名 + 手机号与一家审核通过、尚未激活的企业相符；不符一律同一提示',
    tag: T,
    auth: false,
    body: activationBasicSchema,
    data: activationMatchSchema,
  },
  activateCode: {
    ...paths.activateCode,
    summary: '企业激活：信息相符时向法定代表人手机发送验证码（用途 legal）',
    tag: T,
    auth: false,
    query: activationBasicSchema,
    data: smsSentSchema,
  },
  activate: {
    ...paths.activate,
    summary: '企业激活：信息相符且验证码正确时，企业管理员账号变为可登录',
    tag: T,
    auth: false,
    body: activateSchema,
    data: activatedSchema,
  },
  adminEnterpriseCreate: {
    ...paths.adminEnterpriseCreate,
    summary:
      '管理员登记企业（含其管理员账号，首次登录须修改密码）：格式错误一律拒绝；校验位不符须填写原因，原因写入操作日志',
    tag: T,
    auth: true,
    body: adminEnterpriseCreateSchema,
    data: adminEnterpriseCreatedSchema,
  },
} as const;
