import { RecordListPage } from './RecordList';

/** /dynamicPage/dynamicIndex: the list of a list-type node (table or cards), from its configuration. */
export default function DynamicIndexPage() {
  return <RecordListPage variant="dynamic" />;
}
