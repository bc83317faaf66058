// What the credit change feature offers other features: the change dialog of screen 1 (a business record's change
// rounds), which the credit records page and the enterprise information page open.
export { ChangeDialog, type ChangeDialogProps } from './ChangeDialog';
export { EnterpriseCreditCard, type EnterpriseCreditCardProps } from './EnterpriseCreditCard';
