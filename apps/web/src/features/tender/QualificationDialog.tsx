import { CloseOutlined } from '@ant-design/icons';
import { type FieldOption, joinQualLabels, QUALIFICATION_DIALOG } from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Col, Empty, Input, Modal, Row, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useEffect, useMemo, useState } from 'react';
import { qualificationTreeQuery } from '../../api/tender';

/** The tree as antd shows it: only levels (leaves) can be chosen; categories open and close. */
function treeData(options: FieldOption[], keyword: string): DataNode[] {
  const k = keyword.trim();
  const walk = (list: FieldOption[]): DataNode[] =>
    list.flatMap((o) => {
      const kids = o.children?.length ? walk(o.children) : [];
      const leaf = !o.children?.length;
      const hit = !k || String(o.value).includes(k) || String(o.label).includes(k);
      if (leaf && !hit) return [];
      if (!leaf && kids.length === 0 && !hit) return [];
      return [
        {
          key: String(o.value),
          title: leaf ? String(o.label) : String(o.label),
          checkable: leaf,
          selectable: false,
          isLeaf: leaf,
          children: leaf ? undefined : kids,
        },
      ];
    });
  return walk(options);
}

const allKeys = (nodes: DataNode[]): string[] =>
  nodes.flatMap((n) => (n.children ? [String(n.key), ...allKeys(n.children)] : []));

/**
 * Screen 14, the qualification dialog of a tender notice: requirements are chosen from the qualification tree (a
 * category's levels, highest first); 确定 is disabled while nothing is chosen; 清空 asks before it removes them all; the
 * help says that a bidder's level must be at least the required one and what 或 and 且 mean. 确定 hands back the labels
 * joined by `;` and the values; 取消 changes nothing.
 */
export function QualificationDialog({
  open,
  value,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  /** the requirements chosen so far (values of the tree) */
  value: readonly string[];
  onConfirm: (labels: string, values: string[]) => void;
  onCancel: () => void;
}) {
  const { modal } = App.useApp();
  const tree = useQuery({ ...qualificationTreeQuery, enabled: open });
  const [chosen, setChosen] = useState<string[]>([...value]);
  const [keyword, setKeyword] = useState('');
  // each opening starts from the form's value: what was changed and cancelled is gone
  useEffect(() => {
    if (open) {
      setChosen([...value]);
      setKeyword('');
    }
  }, [open, value]);
  const data = useMemo(() => treeData(tree.data ?? [], keyword), [tree.data, keyword]);
  const expanded = useMemo(() => (keyword.trim() ? allKeys(data) : undefined), [data, keyword]);

  const clearAll = () =>
    modal.confirm({
      title: '提示',
      content: QUALIFICATION_DIALOG.clearConfirm,
      okText: '确定',
      cancelText: '取消',
      onOk: () => setChosen([]),
    });

  return (
    <Modal
      open={open}
      title={QUALIFICATION_DIALOG.title}
      width={820}
      onCancel={onCancel}
      destroyOnHidden
      data-testid="qual-dialog"
      footer={
        <Space>
          <Button onClick={onCancel} data-testid="qual-cancel">
            取消
          </Button>
          <Button
            type="primary"
            disabled={chosen.length === 0}
            onClick={() => onConfirm(joinQualLabels(chosen), [...chosen])}
            data-testid="qual-confirm"
          >
            确定
          </Button>
        </Space>
      }
    >
      <Alert
        type="info"
        showIcon
        message={QUALIFICATION_DIALOG.help}
        style={{ marginBottom: 12 }}
        data-testid="qual-help"
      />
      <Row gutter={16}>
        <Col span={13}>
          <Input.Search
            allowClear
            placeholder="搜索资质名称，如 建筑工程施工总承包"
            value={keyword}
            onChange={(e) => setKeyword(e.target.value)}
            style={{ marginBottom: 8 }}
            data-testid="qual-search"
          />
          <div style={{ height: 360, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
            {tree.isLoading ? (
              <Spin />
            ) : tree.isError ? (
              <Alert type="error" message="资质目录加载失败，请稍后重试" />
            ) : data.length === 0 ? (
              <Empty description="没有匹配的资质" />
            ) : (
              <Tree
                checkable
                checkStrictly
                selectable={false}
                treeData={data}
                {...(expanded ? { expandedKeys: expanded } : {})}
                checkedKeys={chosen}
                onCheck={(keys) => {
                  const checked = Array.isArray(keys) ? keys : keys.checked;
                  setChosen(checked.map(String));
                }}
                data-testid="qual-tree"
              />
            )}
          </div>
        </Col>
        <Col span={11}>
          <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
            <Typography.Text strong>已选资质要求（{chosen.length}）</Typography.Text>
            <Button size="small" danger disabled={chosen.length === 0} onClick={clearAll} data-testid="qual-clear">
              {QUALIFICATION_DIALOG.clearAll}
            </Button>
          </Space>
          <div
            style={{ height: 360, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}
            data-testid="qual-chosen"
          >
            {chosen.length === 0 ? (
              <Empty description={QUALIFICATION_DIALOG.empty} image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <Space orientation="vertical" size={6} style={{ width: '100%' }}>
                {chosen.map((v) => (
                  <Tag
                    key={v}
                    style={{ display: 'flex', justifyContent: 'space-between', margin: 0, padding: '2px 8px' }}
                  >
                    <span>{v}</span>
                    <CloseOutlined
                      aria-label={`移除 ${v}`}
                      onClick={() => setChosen(chosen.filter((x) => x !== v))}
                      style={{ cursor: 'pointer' }}
                    />
                  </Tag>
                ))}
              </Space>
            )}
          </div>
        </Col>
      </Row>
    </Modal>
  );
}
