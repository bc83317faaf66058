// The administration kit: the blocks every back-office list page is made of (a frame, a filter bar, a server-paged
// table with its 操作 column, confirmations, a create / edit dialog, and how a failed load or save is shown). The
// account pages use it; the domain pages (credit, tendering, …) are meant to.

export { isForbidden } from '../../api/request';
export { ActionLink, ConfirmAction, ConfirmDelete, decisionFooter, RowActions } from './actions';
export { BooleanFilter, dateTimeColumn, orDash } from './columns';
export { useEditDialog, useRowDialog } from './dialogs';
export { FormDialog, type FormDialogProps } from './FormDialog';
export { ForbiddenCard, LoadError, LoadFailure, SaveErrorAlert } from './feedback';
export {
  CreateButton,
  FilterBar,
  KeywordFilter,
  ListCard,
  type Paged,
  pagination,
  RefreshButton,
  SelectFilter,
  type ServerList,
  ServerTable,
  type Sorted,
  sortable,
  sortOf,
  sortState,
  useServerList,
} from './list';
export { MoveButtons } from './MoveButtons';
export { NodePicker, NodeSelector, type NodeTarget, nodeTreeOptions, SystemSelect, type TreeOption } from './nodes';
export { PageFrame, type Section } from './PageFrame';
export { RowOps, RowsTable, uniqueInList } from './rows';
export {
  applySaveError,
  type FieldFilter,
  fieldErrorsOf,
  fieldPath,
  type NamePath,
  SAVE_FAILED,
  type ServerFieldError,
} from './saveErrors';
export { textRules } from './textRules';
export { useLeaveGuard } from './useLeaveGuard';
