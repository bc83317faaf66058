/**
 * Method and path of every endpoint: plain constants (no zod), so the web imports them without the schemas.
 * The registry in api.ts adds the schemas to these; the server registers routes from the registry.
 */
export const paths = {
  publicKey: { method: 'GET', path: '/ks/common/public-key' },
  captcha: { method: 'GET', path: '/ks/common/captcha' },
  login: { method: 'POST', path: '/ks/common/login' },
  logout: { method: 'GET', path: '/ks/common/logout' },
  checkLogin: { method: 'GET', path: '/ks/auth/v1/authorization/check-login' },
  platform: { method: 'GET', path: '/ks/portal/v1/home/platform' },
  systemList: { method: 'POST', path: '/ks/authority/manager/system-list' },
  portalConfig: { method: 'GET', path: '/ks/portal/v1/home/config' },
  homeOverview: { method: 'GET', path: '/ks/portal/v1/home/overview' },
  noticeList: { method: 'GET', path: '/ks/portal/v1/notices' },
  noticeDetail: { method: 'GET', path: '/ks/portal/v1/notices/detail' },
  enterpriseTypes: { method: 'GET', path: '/ks/portal/v1/common/enterprise-types' },
  practiceAreas: { method: 'GET', path: '/ks/portal/v1/common/practice-areas' },
  marketList: { method: 'GET', path: '/ks/portal/v1/market/entities' },
  marketDetail: { method: 'GET', path: '/ks/portal/v1/market/detail' },
  adminNoticeList: { method: 'GET', path: '/ks/portal/v1/admin/notices' },
  adminNoticeDetail: { method: 'GET', path: '/ks/portal/v1/admin/notices/detail' },
  adminNoticeSave: { method: 'POST', path: '/ks/portal/v1/admin/notices/save' },
  adminNoticePublish: { method: 'POST', path: '/ks/portal/v1/admin/notices/publish' },
  adminNoticeWithdraw: { method: 'POST', path: '/ks/portal/v1/admin/notices/withdraw' },
  adminNoticeDelete: { method: 'POST', path: '/ks/portal/v1/admin/notices/delete' },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string }>;

export type ApiName = keyof typeof paths;
