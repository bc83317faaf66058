/** What the sign-in feature offers other features: the sign-in page (the credit-code variant reuses it). */
export { default as LoginPage, type LoginPageProps } from './LoginPage';
