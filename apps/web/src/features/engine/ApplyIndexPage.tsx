import { RFC_REVIEW_NODE, RFC_SYSTEM } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { EngineRecord } from '../../api/engine';
import { useCurrentUser } from '../../lib/sessionHooks';
import { ChangeDialog } from '../credit-change';
import { type RecordListOverride, RecordListPage } from './RecordList';
import { type EngineNode, useEngineNode } from './useEngineNode';
import { refreshAfterChange } from './useRecordActions';

/** /applyIndex: an apply-list node from the applicant's side — my applications, 新建申请, their states. */
export default function ApplyIndexPage() {
  const node = useEngineNode();
  if (node.gnCoding === RFC_REVIEW_NODE) return <ChangeApplyList node={node} />;
  return <RecordListPage variant="apply" node={node} />;
}

/** Operations of a 信用变更申请 record that open its change dialog. */
const OPENS = new Set(['detail', 'view', 'edit', 'audit']);
/**
 * Operations the list does not offer: a round is started on its business record (a credit record, the enterprise's
 * information) and saved, submitted and decided in the change dialog, which keeps the round and its review together.
 */
const HIDES = new Set(['add', 'delete', 'submit', 'revoke']);

/**
 * 信用变更申请 (XYGL_BGSQ): the engine's list of the submitted change rounds — the enterprise's own, and the reviewers'
 * to-dos — where opening a row (详情 / 审核) opens the change dialog of its business record (ywbm, ywid) instead of the
 * engine's detail page; a decision there refreshes the list, the badges and the to-do counts.
 */
function ChangeApplyList({ node }: { node: EngineNode }) {
  const queryClient = useQueryClient();
  const { isAdmin } = useCurrentUser();
  const [opened, setOpened] = useState<{ gnCoding: string; businessId: string } | null>(null);
  const override = useMemo<RecordListOverride>(
    () => ({
      opens: OPENS,
      hides: HIDES,
      open: (record: EngineRecord) => {
        const gnCoding = String(record.values.ywbm ?? '');
        const businessId = String(record.values.ywid ?? '');
        if (gnCoding && businessId) setOpened({ gnCoding, businessId });
      },
    }),
    [],
  );
  return (
    <>
      <RecordListPage variant="apply" node={node} override={override} />
      <ChangeDialog
        gnCoding={opened?.gnCoding ?? ''}
        systemCoding={node.systemCoding || RFC_SYSTEM}
        businessId={opened?.businessId ?? ''}
        open={opened !== null}
        // the enterprise may start its next round from a rejected one; reviewers see the rounds as they are
        change={!isAdmin}
        onClose={() => setOpened(null)}
        onChanged={() => refreshAfterChange(queryClient, node.gnCoding)}
      />
    </>
  );
}
