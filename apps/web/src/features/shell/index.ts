// What the shell feature offers other features (they may import a feature only through its index.ts): the
// new-system dialog (系统管理 opens it too) and the "not configured yet" view of a list node (the engine's pages).
export { NewSystemDialog, type NewSystemDialogProps } from './NewSystemDialog';
export { UnconfiguredNode } from './PendingPage';
