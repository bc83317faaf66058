/** Where the registration pages are (public paths: /creditCode and its children, /realName). */
export const REGISTER_PATHS = {
  enterprise: '/creditCode/register',
  progress: '/creditCode/progress',
  activate: '/creditCode/activate',
  creditCodeLogin: '/creditCode',
  realName: '/realName',
  login: '/login',
  outbox: '/smsOutbox',
} as const;
