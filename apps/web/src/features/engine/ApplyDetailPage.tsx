import { RecordDetailPage } from './RecordDetail';

/** /applyDetail: an application — its detail, audit flow and log, or the application form. */
export default function ApplyDetailPage() {
  return <RecordDetailPage variant="apply" />;
}
