import { Badge, Spin, Tree, type TreeDataNode } from 'antd';
import { type Key, useMemo } from 'react';
import { Empty } from '../../components/placeholders/Empty';
import { TEXTS } from './constants';

/** §3 left menu node. */
export interface LeftNode {
  primaryKey: string | number;
  xxGrouping: string;
  badge?: number | null;
  score?: number | string | null;
  children?: LeftNode[] | null;
}

/** §3 left menu header. */
export interface LeftTreeHeader {
  nodeName: string;
  score?: number | string | null;
}

export interface LeftTreeProps {
  nodes: readonly LeftNode[];
  header?: LeftTreeHeader | null;
  /** the selected node's primaryKey (controlled) */
  selectedKey?: string | number | null;
  onSelect?: (node: LeftNode) => void;
  /** badge cap (§9: 99) */
  badgeMax?: number;
  loading?: boolean;
  testId?: string;
}

type Data = TreeDataNode & { node: LeftNode };

const hasScore = (s: unknown) => s !== undefined && s !== null && s !== '';

function toData(nodes: readonly LeftNode[]): Data[] {
  return nodes.map((node) => ({
    key: String(node.primaryKey),
    title: node.xxGrouping,
    node,
    children: node.children?.length ? toData(node.children) : undefined,
  }));
}

function allKeys(data: Data[], out: Key[] = []): Key[] {
  for (const d of data) {
    if (d.children?.length) {
      out.push(d.key);
      allKeys(d.children as Data[], out);
    }
  }
  return out;
}

/** The left menu of a list (screen 20): a header with the node's name and score, and a tree with badges and scores. */
export function LeftTree({
  nodes,
  header,
  selectedKey,
  onSelect,
  badgeMax = 99,
  loading = false,
  testId = 'left-tree',
}: LeftTreeProps) {
  const data = useMemo(() => toData(nodes), [nodes]);
  const expanded = useMemo(() => allKeys(data), [data]);
  return (
    <div data-testid={testId} style={{ background: '#fff', borderRadius: 6, padding: 8, minWidth: 200 }}>
      {header ? (
        <div
          data-testid={`${testId}-header`}
          style={{
            display: 'flex',
            justifyContent: 'space-between',
            alignItems: 'center',
            padding: '6px 8px 10px',
            borderBottom: '1px solid #ebeef5',
            marginBottom: 6,
            fontWeight: 600,
          }}
        >
          <span>{header.nodeName}</span>
          {hasScore(header.score) ? (
            <span style={{ color: '#409EFF' }} data-testid={`${testId}-header-score`}>
              {header.score}分
            </span>
          ) : null}
        </div>
      ) : null}
      <Spin spinning={loading}>
        {data.length ? (
          <Tree<Data>
            blockNode
            treeData={data}
            defaultExpandedKeys={expanded}
            selectedKeys={selectedKey !== undefined && selectedKey !== null ? [String(selectedKey)] : undefined}
            onSelect={(_keys, info) => onSelect?.(info.node.node)}
            titleRender={(d) => (
              <span
                data-testid={`left-node-${d.node.primaryKey}`}
                style={{ display: 'inline-flex', width: '100%', alignItems: 'center', gap: 6 }}
              >
                <span style={{ flex: 1 }}>{d.node.xxGrouping}</span>
                {hasScore(d.node.score) ? (
                  <span style={{ color: '#909399', fontSize: 12 }} data-testid="left-node-score">
                    {d.node.score}分
                  </span>
                ) : null}
                {d.node.badge ? (
                  <Badge count={d.node.badge} overflowCount={badgeMax} size="small" data-testid="left-node-badge" />
                ) : null}
              </span>
            )}
          />
        ) : loading ? null : (
          <Empty compact message={TEXTS.empty} testId={`${testId}-empty`} />
        )}
      </Spin>
    </div>
  );
}
