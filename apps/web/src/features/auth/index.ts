// what other features use of sign-in: the practicing-status reminder shown after any sign-in

/** What the sign-in feature offers other features: the sign-in page (the credit-code variant reuses it). */
export { default as LoginPage, type LoginPageProps } from './LoginPage';
export { PracticeDialog } from './PracticeDialog';
export { needsPracticeDialog } from './practice';
