import { RecordListPage } from './RecordList';

/** /applyIndex: an apply-list node from the applicant's side — my applications, 新建申请, their states. */
export default function ApplyIndexPage() {
  return <RecordListPage variant="apply" />;
}
