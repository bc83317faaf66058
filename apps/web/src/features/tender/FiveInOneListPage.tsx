import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import type { EngineRecord } from '../../api/engine';
import { FIVE_IN_ONE_PAGES } from '../../lib/paths';
import { type RecordListOverride, RecordListPage, useEngineNode } from '../engine';

/** A project's 详情 opens the five-in-one detail (its tabs) instead of the engine's record page. */
const OPENS = new Set(['detail', 'view']);
const HIDES = new Set<string>();

/**
 * /fiveInOne/list (项目进场登记): the node's records as the engine lists them — search, 新增, submit, review, export —
 * with 详情 opening the project's five-in-one detail.
 */
export default function FiveInOneListPage() {
  const navigate = useNavigate();
  const node = useEngineNode();
  const { systemCoding, gnCoding } = node;
  const override = useMemo<RecordListOverride>(
    () => ({
      opens: OPENS,
      hides: HIDES,
      open: (record: EngineRecord) =>
        navigate(
          `${FIVE_IN_ONE_PAGES.detail}?${new URLSearchParams({ systemCoding, gnCoding, id: String(record.id) })}`,
        ),
    }),
    [navigate, systemCoding, gnCoding],
  );
  return <RecordListPage variant="dynamic" node={node} override={override} />;
}
