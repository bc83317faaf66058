// what other features use of sign-in: the practicing-status reminder shown after any sign-in
export { PracticeDialog } from './PracticeDialog';
export { needsPracticeDialog } from './practice';
