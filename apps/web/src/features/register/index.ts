/** What the registration feature offers other features: the sign-in page's link row, the administrator's 登记企业. */
export { AdminRegisterButton } from './AdminRegister';
export { RegisterLinks } from './RegisterLinks';
