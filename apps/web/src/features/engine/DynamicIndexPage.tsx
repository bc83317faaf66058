import { NodeCharts } from './NodeCharts';
import { RecordListPage } from './RecordList';
import { useEngineNode } from './useEngineNode';

/**
 * /dynamicPage/dynamicIndex: the list of a list-type node (table or cards), from its configuration, under the charts
 * configured for it (图表设置).
 */
export default function DynamicIndexPage() {
  const node = useEngineNode();
  return (
    <>
      {node.gnCoding && node.systemCoding ? <NodeCharts key={node.gnCoding} gnCoding={node.gnCoding} /> : null}
      <RecordListPage variant="dynamic" />
    </>
  );
}
