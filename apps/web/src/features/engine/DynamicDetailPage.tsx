import { RecordDetailPage } from './RecordDetail';

/** /dynamicPage/dynamicDetail: a record of a list node — its detail, audit flow and log, or its form. */
export default function DynamicDetailPage() {
  return <RecordDetailPage variant="dynamic" />;
}
