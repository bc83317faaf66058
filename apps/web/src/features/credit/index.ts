// What the credit records feature offers other features and the app (they may import a feature only through its
// index.ts): the workspace of /credit/companyInfo, whose `onChange(record)` the credit change dialog plugs into.
export { CreditRecordsWorkspace, type CreditRecordsWorkspaceProps } from './CreditInfoPage';
