import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  DeleteOutlined,
  PlusOutlined,
  SubnodeOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { CODE_PATTERN, MENU_SCORE_MAX, MENU_SCORE_MESSAGES, type MenuItem, NEW_SYSTEM_MESSAGES } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Radio,
  Row,
  Select,
  Skeleton,
  Space,
  Switch,
  Tabs,
  Tag,
  Tree,
  TreeSelect,
  Typography,
} from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  addChildMenu,
  CONFIG_KEY,
  configSystemsQuery,
  dataSourcesQuery,
  deleteMenu,
  displayGroupsQuery,
  editMenu,
  type MenuFields,
  type MoveBody,
  moveMenu,
  nodeListKey,
  nodeListQuery,
  nodeLogosQuery,
  nodePropertiesQuery,
  refreshCache,
} from '../../api/config';
import { applySaveError, LoadError, SaveErrorAlert, SystemSelect } from '../../components/admin';
import { IconSelect, NamedIcon } from '../../components/icons';
import { nodePageHref } from '../../lib/paths';
import { NodeFunctionsEditor } from './NodeFunctionsEditor';
import { ConfigLayout, NODE_PAGE_LINKS } from './shared';
import { type DropInfo, dropToMove, locate, moveUnder, parentIds, stepMove, subtreeIds } from './tree';

interface MenuFormValues {
  title: string;
  gnCoding: string;
  icon?: string | null;
  itShows: '是' | '否';
  nodeProperties?: string;
  style: string;
  nodeSetFlag: boolean;
  disabled: boolean;
  groupName?: string | null;
  dataSource: string;
  score?: number | null;
}

const MENU_FIELDS = new Set([
  'score',
  'title',
  'gnCoding',
  'icon',
  'itShows',
  'nodeProperties',
  'style',
  'nodeSetFlag',
  'disabled',
  'groupName',
  'dataSource',
]);

const NEW_ITEM: Omit<MenuFormValues, 'title' | 'gnCoding'> = {
  icon: null,
  itShows: '是',
  nodeProperties: undefined,
  style: 'table',
  nodeSetFlag: false,
  disabled: false,
  groupName: null,
  dataSource: 'engine',
  score: null,
};

function toFormValues(it: MenuItem): MenuFormValues {
  return {
    title: it.title,
    gnCoding: it.gnCoding,
    icon: it.icon,
    itShows: it.itShows,
    nodeProperties: it.nodeProperties,
    style: it.style,
    nodeSetFlag: it.nodeSetFlag,
    disabled: it.disabled,
    groupName: it.groupName,
    dataSource: it.dataSource,
    score: it.score,
  };
}

export function toMenuFields(v: MenuFormValues): MenuFields {
  return {
    title: v.title.trim(),
    icon: v.icon ?? null,
    itShows: v.itShows,
    // chosen from the server's own lists (node properties, styles); the server checks them again
    nodeProperties: (v.nodeProperties ?? '') as MenuFields['nodeProperties'],
    style: v.style as MenuFields['style'],
    nodeSetFlag: !!v.nodeSetFlag,
    disabled: !!v.disabled,
    groupName: v.groupName ?? null,
    dataSource: v.dataSource,
    score: v.score ?? null,
  };
}

function NodeTitle({ it }: { it: MenuItem }) {
  return (
    <span
      data-testid={`menu-node-${it.gnCoding}`}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 6, opacity: it.itShows === '否' ? 0.65 : 1 }}
    >
      <NamedIcon name={it.icon} />
      <span>{it.title}</span>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {it.gnCoding}
      </Typography.Text>
      {it.itShows === '否' ? (
        <Tag color="orange" style={{ marginInlineEnd: 0 }}>
          隐藏
        </Tag>
      ) : null}
      {it.disabled ? (
        <Tag color="default" style={{ marginInlineEnd: 0 }}>
          已禁用
        </Tag>
      ) : null}
    </span>
  );
}

interface TreeNodeData {
  key: string;
  title: ReactNode;
  children?: TreeNodeData[];
}

function toTreeData(tree: MenuItem[]): TreeNodeData[] {
  return tree.map((it) => ({
    key: it.id,
    title: <NodeTitle it={it} />,
    children: (it.children ?? []).length ? toTreeData(it.children) : undefined,
  }));
}

interface MoveTarget {
  value: string;
  title: string;
  disabled?: boolean;
  children?: MoveTarget[];
}

const TOP = '__top__';

/** Where the selected item may go (移动到): the top level or any item outside its own subtree. */
function moveTargets(tree: MenuItem[], blocked: Set<string>): MoveTarget[] {
  const walk = (list: MenuItem[]): MoveTarget[] =>
    list.map((it) => ({
      value: it.id,
      title: it.title,
      disabled: blocked.has(it.id),
      children: (it.children ?? []).length ? walk(it.children) : undefined,
    }));
  return [{ value: TOP, title: '（顶层）' }, ...walk(tree)];
}

type Mode = { kind: 'edit'; id: string } | { kind: 'create'; parentId: string | null } | { kind: 'none' };

function MenuEditor({ systemCoding }: { systemCoding: string }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const nodes = useQuery(nodeListQuery(systemCoding));
  const logos = useQuery(nodeLogosQuery);
  const properties = useQuery(nodePropertiesQuery);
  const dataSources = useQuery(dataSourcesQuery);
  const groups = useQuery(displayGroupsQuery(systemCoding));
  const [form] = Form.useForm<MenuFormValues>();
  const [mode, setMode] = useState<Mode>({ kind: 'none' });
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const tree = nodes.data ?? [];
  const selected = mode.kind === 'edit' ? locate(tree, mode.id) : null;
  const selectedItem = selected?.item ?? null;

  // expand everything the first time the tree arrives
  useEffect(() => {
    if (nodes.data && expanded === null) setExpanded(parentIds(nodes.data));
  }, [nodes.data, expanded]);

  // the form shows the selected item, or a blank item to create
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the selection (not its object) changes
  useEffect(() => {
    setErrors([]);
    // no form on screen without a selection
    if (mode.kind === 'none' || (mode.kind === 'edit' && !selectedItem)) return;
    form.resetFields();
    if (mode.kind === 'create') form.setFieldsValue({ ...NEW_ITEM, title: '', gnCoding: '' });
    else if (selectedItem) form.setFieldsValue(toFormValues(selectedItem));
  }, [mode, selectedItem?.id, form]);

  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: nodeListKey(systemCoding) });
    void queryClient.invalidateQueries({ queryKey: [...CONFIG_KEY, 'systems'] });
    void queryClient.invalidateQueries({ queryKey: [...CONFIG_KEY, 'preview'] });
  };

  const expand = (id: string | null) => {
    if (id) setExpanded((keys) => (keys?.includes(id) ? keys : [...(keys ?? []), id]));
  };

  const move = useMutation({
    mutationFn: (body: MoveBody) => moveMenu(body),
    onSuccess: (next, body) => {
      queryClient.setQueryData(nodeListKey(systemCoding), next);
      expand(body.parentId);
      void message.success('操作成功');
    },
    // the prompt shows the refusal; the tree on screen may be stale
    onError: () => void queryClient.invalidateQueries({ queryKey: nodeListKey(systemCoding) }),
  });

  const remove = useMutation({
    mutationFn: (id: string) => deleteMenu(id),
    onSuccess: () => {
      void message.success('删除成功');
      setMode(selected?.parentId ? { kind: 'edit', id: selected.parentId } : { kind: 'none' });
      invalidate();
    },
  });

  const onFinish = async (v: MenuFormValues) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    try {
      if (mode.kind === 'create') {
        const created = await addChildMenu({
          systemCoding,
          parentId: mode.parentId,
          gnCoding: v.gnCoding.trim(),
          ...toMenuFields(v),
        });
        void message.success('保存成功');
        expand(mode.parentId);
        invalidate();
        setMode({ kind: 'edit', id: created.id });
      } else if (selectedItem) {
        await editMenu({ id: selectedItem.id, gnCoding: selectedItem.gnCoding, ...toMenuFields(v) });
        void message.success('保存成功');
        invalidate();
      }
    } catch (err) {
      setErrors(applySaveError(err, form, (name) => name.length === 1 && MENU_FIELDS.has(String(name[0]))));
    } finally {
      setSaving(false);
    }
  };

  const treeData = useMemo(() => toTreeData(tree), [tree]);
  const targets = useMemo(
    () => (selectedItem ? moveTargets(tree, subtreeIds(selectedItem)) : []),
    [tree, selectedItem],
  );

  if (nodes.isError) return <LoadError error={nodes.error} what="菜单" />;
  if (nodes.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;

  const busy = move.isPending || remove.isPending;
  const up = selectedItem ? stepMove(tree, selectedItem.id, -1) : null;
  const down = selectedItem ? stepMove(tree, selectedItem.id, 1) : null;
  const hasChildren = (selectedItem?.children ?? []).length > 0;
  const creating = mode.kind === 'create';
  const createParent = creating && mode.parentId ? locate(tree, mode.parentId)?.item : null;

  const onDrop = (info: unknown) => {
    if (busy) return;
    const req = dropToMove(info as DropInfo, tree);
    if (req) move.mutate(req);
  };

  const form_ = (
    <Form<MenuFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '110px' }}
      onFinish={onFinish}
      data-testid="menu-form"
      initialValues={{ ...NEW_ITEM }}
    >
      <SaveErrorAlert lines={errors} testId="menu-form-error" />
      <Form.Item
        name="title"
        label="菜单名称"
        rules={[
          { required: true, whitespace: true, message: '请输入菜单名称' },
          { max: 30, message: '最多 30 个字符' },
        ]}
      >
        <Input placeholder="请输入菜单名称" maxLength={30} data-testid="menu-title-input" />
      </Form.Item>
      <Form.Item
        name="gnCoding"
        label="节点编码"
        extra={creating ? '字母开头，由字母、数字、下划线组成；生成后不可修改' : NEW_SYSTEM_MESSAGES.gnCodingImmutable}
        rules={
          creating
            ? [
                { required: true, message: '请输入节点编码' },
                { pattern: CODE_PATTERN, message: '节点编码格式为字母开头，以及数字、下划线组成' },
              ]
            : []
        }
      >
        <Input
          placeholder="如 XYGL_LIST"
          maxLength={63}
          readOnly={!creating}
          disabled={!creating}
          data-testid="menu-code-input"
        />
      </Form.Item>
      <Form.Item name="icon" label="图标">
        <IconSelect icons={logos.data} data-testid="menu-icon" />
      </Form.Item>
      <Form.Item name="itShows" label="是否显示">
        <Radio.Group
          options={[
            { value: '是', label: '是' },
            { value: '否', label: '否' },
          ]}
          data-testid="menu-itshows"
        />
      </Form.Item>
      <Form.Item name="nodeProperties" label="节点属性" rules={[{ required: true, message: '请选择节点属性' }]}>
        <Select
          placeholder="请选择节点属性"
          loading={properties.isPending}
          options={properties.data ?? []}
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="menu-property"
          notFoundContent="暂无数据"
        />
      </Form.Item>
      <Form.Item name="style" label="展示样式">
        <Radio.Group
          options={[
            { value: 'table', label: '表格' },
            { value: 'card', label: '卡片' },
          ]}
          data-testid="menu-style"
        />
      </Form.Item>
      <Form.Item
        name="nodeSetFlag"
        label="节点设置"
        valuePropName="checked"
        extra="开启后开发者可在侧边栏直接设置该节点"
      >
        <Switch data-testid="menu-setflag" />
      </Form.Item>
      <Form.Item name="disabled" label="禁用" valuePropName="checked">
        <Switch data-testid="menu-disabled" />
      </Form.Item>
      <Form.Item name="groupName" label="展示分组">
        <Select
          allowClear
          placeholder="不分组"
          loading={groups.isPending}
          options={(groups.data ?? []).map((g) => ({ value: g.name, label: g.name }))}
          data-testid="menu-group"
          notFoundContent="暂无数据"
        />
      </Form.Item>
      <Form.Item
        name="score"
        label="分值"
        extra="在侧边菜单中显示于节点名称旁（如信用评价标准的满分）；不填则不显示"
        rules={[
          { type: 'number', min: 0, max: MENU_SCORE_MAX, message: MENU_SCORE_MESSAGES.range },
          {
            validator: (_, v: number | null | undefined) =>
              v == null || Math.abs(v * 100 - Math.round(v * 100)) < 1e-6
                ? Promise.resolve()
                : Promise.reject(new Error(MENU_SCORE_MESSAGES.precision)),
          },
        ]}
      >
        <InputNumber<number>
          min={0}
          max={MENU_SCORE_MAX}
          placeholder="不显示分值"
          addonAfter="分"
          style={{ width: 200 }}
          data-testid="menu-score"
        />
      </Form.Item>
      <Form.Item name="dataSource" label="数据来源">
        <Select
          loading={dataSources.isPending}
          options={(dataSources.data ?? []).map((d) => ({ value: d.value, label: d.label }))}
          data-testid="menu-datasource"
          notFoundContent="暂无数据"
        />
      </Form.Item>
      <Form.Item label=" " colon={false}>
        <Space>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="menu-save">
            {creating ? '创建' : '保存'}
          </Button>
          {creating ? (
            <Button
              onClick={() => setMode(mode.parentId ? { kind: 'edit', id: mode.parentId } : { kind: 'none' })}
              data-testid="menu-cancel"
            >
              取消
            </Button>
          ) : null}
        </Space>
      </Form.Item>
    </Form>
  );

  return (
    <Row gutter={16}>
      <Col xs={24} lg={10} xl={9}>
        <Card size="small" title="菜单结构" data-testid="menu-tree-card">
          <Space wrap size={6} style={{ marginBottom: 8 }}>
            <Button
              size="small"
              icon={<PlusOutlined />}
              disabled={busy}
              onClick={() => setMode({ kind: 'create', parentId: selected?.parentId ?? null })}
              title="新增与所选菜单同级的菜单；未选择菜单时新增顶级菜单"
              data-testid="add-sibling"
            >
              新增同级
            </Button>
            <Button
              size="small"
              icon={<SubnodeOutlined />}
              disabled={!selectedItem || busy}
              onClick={() => selectedItem && setMode({ kind: 'create', parentId: selectedItem.id })}
              data-testid="add-child"
            >
              新增下级
            </Button>
            <Button
              size="small"
              icon={<ArrowUpOutlined />}
              disabled={!up || busy}
              onClick={() => up && move.mutate(up)}
              data-testid="menu-up"
            >
              上移
            </Button>
            <Button
              size="small"
              icon={<ArrowDownOutlined />}
              disabled={!down || busy}
              onClick={() => down && move.mutate(down)}
              data-testid="menu-down"
            >
              下移
            </Button>
            <Popconfirm
              title={
                hasChildren
                  ? `「${selectedItem?.title}」下还有下级菜单，需先删除下级菜单。仍要尝试删除？`
                  : `确认删除「${selectedItem?.title}」？删除后不可恢复。`
              }
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
              disabled={!selectedItem || busy}
              onConfirm={() => selectedItem && remove.mutateAsync(selectedItem.id).catch(() => undefined)}
            >
              <Button
                size="small"
                danger
                icon={<DeleteOutlined />}
                disabled={!selectedItem || busy}
                data-testid="menu-delete"
              >
                删除
              </Button>
            </Popconfirm>
          </Space>
          {selectedItem ? (
            <div style={{ marginBottom: 8 }}>
              <TreeSelect<string>
                size="small"
                style={{ width: '100%' }}
                placeholder="移动到…（成为所选菜单的最后一个下级）"
                value={null as unknown as string}
                treeDefaultExpandAll
                treeData={targets}
                disabled={busy}
                onChange={(v) => {
                  const req = moveUnder(tree, selectedItem.id, v === TOP ? null : v);
                  if (req) move.mutate(req);
                }}
                data-testid="menu-move-to"
                aria-label="移动到"
              />
            </div>
          ) : null}
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
            拖拽菜单可调整顺序或移动到其他菜单下；也可用上移、下移与“移动到”。
          </Typography.Paragraph>
          {tree.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />
          ) : (
            <div style={{ maxHeight: 640, overflow: 'auto' }}>
              <Tree<TreeNodeData>
                blockNode
                showLine
                draggable={busy ? false : { icon: false }}
                treeData={treeData}
                expandedKeys={expanded ?? []}
                onExpand={(keys) => setExpanded(keys.map(String))}
                selectedKeys={selectedItem ? [selectedItem.id] : []}
                onSelect={(keys) => setMode(keys.length ? { kind: 'edit', id: String(keys[0]) } : { kind: 'none' })}
                onDrop={onDrop}
                data-testid="menu-tree"
              />
            </div>
          )}
        </Card>
      </Col>
      <Col xs={24} lg={14} xl={15}>
        {creating ? (
          <Card
            size="small"
            title={createParent ? `新增下级 · ${createParent.title}` : '新增顶级菜单'}
            data-testid="menu-create-card"
          >
            {form_}
          </Card>
        ) : selectedItem ? (
          <Card
            size="small"
            title={`${selectedItem.title}（${selectedItem.gnCoding}）`}
            extra={
              <Space size={12}>
                {NODE_PAGE_LINKS.map((l) => (
                  <Link
                    key={l.path}
                    to={nodePageHref(l.path, selectedItem.gnCoding, systemCoding)}
                    data-testid={`node-link-${l.key}`}
                  >
                    {l.title}
                  </Link>
                ))}
              </Space>
            }
          >
            <Tabs
              items={[
                { key: 'basic', label: '基本信息', children: form_ },
                {
                  key: 'functions',
                  label: '按钮配置',
                  children: <NodeFunctionsEditor key={selectedItem.gnCoding} gnCoding={selectedItem.gnCoding} />,
                },
              ]}
              data-testid="menu-tabs"
            />
          </Card>
        ) : (
          <Card size="small">
            <Empty description="请在左侧选择菜单，或新增菜单" />
          </Card>
        )}
      </Col>
    </Row>
  );
}

/** 菜单设置 `/system/menuSetUp?systemCoding=X`: the menu tree of one system (drag to reorder), items and buttons. */
export default function MenuSetUpPage() {
  const { message } = App.useApp();
  const [params, setParams] = useSearchParams();
  const systemCoding = params.get('systemCoding') || null;
  const systems = useQuery(configSystemsQuery);
  const system = systems.data?.find((s) => s.gnCoding === systemCoding);
  const cache = useMutation({
    mutationFn: refreshCache,
    onSuccess: (r) => message.success(`缓存已刷新（${r?.nodes ?? 0} 个节点）`),
  });

  return (
    <ConfigLayout title="菜单设置">
      <Card
        title={system ? `菜单设置 · ${system.systemName}` : '菜单设置'}
        data-testid="menu-setup"
        extra={
          <Space wrap>
            <SystemSelect
              value={systemCoding}
              onChange={(v) => setParams(v ? { systemCoding: v } : {})}
              testId="menu-system"
            />
            <Button
              icon={<SyncOutlined />}
              loading={cache.isPending}
              onClick={() => cache.mutate()}
              data-testid="refresh-cache"
            >
              刷新缓存
            </Button>
          </Space>
        }
      >
        {system && !system.enabled ? (
          <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="该系统已停用，普通用户看不到它的菜单。" />
        ) : null}
        {systemCoding ? (
          <MenuEditor key={systemCoding} systemCoding={systemCoding} />
        ) : (
          <Empty description="请先在右上角选择要设置菜单的系统" data-testid="menu-no-system" />
        )}
      </Card>
    </ConfigLayout>
  );
}
