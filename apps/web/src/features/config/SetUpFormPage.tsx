import {
  DeleteOutlined,
  EditOutlined,
  HolderOutlined,
  LockOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import {
  FIELD_VALIDATORS,
  type FieldDef,
  fieldListProblems,
  isFilterType,
  isUniqueType,
  MAX_FIELDS,
  Msg,
  type UniqueKey,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Card,
  Checkbox,
  Col,
  Empty,
  Popconfirm,
  Row,
  Select,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type DragEvent, type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { ENGINE_KEY } from '../../api/engine';
import { editorFieldsQuery, saveNodeFields } from '../../api/fields';
import { isApiError, reportApiError } from '../../api/request';
import { fieldErrorsOf, LoadError, MoveButtons, useLeaveGuard } from '../../components/admin';
import { AttachmentTypesEditor } from './AttachmentTypesEditor';
import { FieldDrawer } from './FieldDrawer';
import { FilterPreview, FormPreview } from './FieldsPreview';
import {
  cleanDef,
  explicitFilters,
  type FieldRow,
  isFilterGroup,
  listKey,
  moveItem,
  problemsByRow,
  REQUIRED_LABELS,
  referrers,
  rowsOf,
  savedOf,
  sourceText,
  TYPE_LOCKED_TIP,
  typeLabel,
  withFilterFlag,
  withoutFilterFlags,
} from './fieldRows';
import { ConfigLayout, NodeTargetBar, useNodeTarget } from './shared';
import {
  inCompositeKey,
  keysKey,
  UNIQUE_MODE_LABELS,
  type UniqueMode,
  uniqueModeOf,
  withoutField,
  withUniqueMode,
} from './uniqueKeys';

/** The 409 of a stale field save, when the server gives no message of its own. */
export const FIELDS_CONFLICT = '节点字段已被他人修改，请刷新后重试';
export const UNSAVED_FIELDS = '字段修改尚未保存';

/** Which problem paths each column shows (the rest go to the code column). */
const COLUMN_PROBLEMS: Record<string, string[]> = {
  code: ['code', 'bianma'],
  name: ['name'],
  type: ['type'],
  required: ['required', 'show', 'readonly'],
  col: ['col'],
  check: ['length', 'regex', 'prompt', 'showPrompt', 'validator'],
  relations: ['parentNode', 'childNode', 'groupNumber'],
  dates: ['limitStartDate', 'limitEndDate', 'step'],
  tips: ['tips'],
  options: ['options', 'titleCoding', 'selectMode'],
  filter: ['filter'],
  unique: ['unique'],
};
const ALL_MAPPED = Object.values(COLUMN_PROBLEMS).flat();
const mapped = (path: string) => ALL_MAPPED.some((p) => path === p || path.startsWith(`${p}.`));

function ProblemText({ problems, column }: { problems: Record<string, string> | undefined; column: string }) {
  if (!problems) return null;
  const prefixes = COLUMN_PROBLEMS[column] ?? [];
  const lines = Object.entries(problems)
    .filter(
      ([path]) => prefixes.some((p) => path === p || path.startsWith(`${p}.`)) || (column === 'code' && !mapped(path)),
    )
    .map(([path, m]) => (prefixes.includes(path) ? m : `${path}：${m}`));
  if (!lines.length) return null;
  return (
    <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }} data-testid={`row-error-${column}`}>
      {lines.join('；')}
    </Typography.Text>
  );
}

const dash = (v: ReactNode) =>
  v === undefined || v === null || v === '' ? <Typography.Text type="secondary">—</Typography.Text> : v;
const ellipsis = (text: string | undefined, width: number) =>
  text ? (
    <Typography.Text ellipsis={{ tooltip: text }} style={{ maxWidth: width }}>
      {text}
    </Typography.Text>
  ) : (
    dash(null)
  );

type Drawer = { kind: 'closed' } | { kind: 'add' } | { kind: 'edit'; key: string };

function FieldsEditor({
  gnCoding,
  systemCoding,
  engineNode,
}: {
  gnCoding: string;
  systemCoding: string | null;
  /** false: the node's records come from a module, its fields cannot be edited here */
  engineNode: boolean;
}) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const query = useQuery(editorFieldsQuery(gnCoding, systemCoding ?? ''));
  const [loaded, setLoaded] = useState<{ fields: FieldDef[]; version: number; uniqueKeys: UniqueKey[] } | null>(null);
  const [rows, setRows] = useState<FieldRow[]>([]);
  /** the node's uniqueness constraints being edited (the 唯一 column) */
  const [keys, setKeys] = useState<UniqueKey[]>([]);
  const [problems, setProblems] = useState<Record<string, Record<string, string>>>({});
  const [listErrors, setListErrors] = useState<string[]>([]);
  const [conflict, setConflict] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [reloading, setReloading] = useState(false);
  const [drawer, setDrawer] = useState<Drawer>({ kind: 'closed' });
  const [dragOver, setDragOver] = useState<number | null>(null);
  /** the preview beside the table (wide windows) or below it */
  const [side, setSide] = useState(true);
  const dragFrom = useRef<number | null>(null);
  const focusKey = useRef<string | null>(null);

  const apply = (data: { fields: FieldDef[]; version: number; uniqueKeys?: UniqueKey[] }, keepKeys = false) => {
    setLoaded({ fields: data.fields, version: data.version, uniqueKeys: data.uniqueKeys ?? [] });
    setKeys(data.uniqueKeys ?? []);
    setRows((prev) =>
      keepKeys && prev.length === data.fields.length
        ? prev.map((r, i) => ({ key: r.key, def: structuredClone(data.fields[i]!) }))
        : rowsOf(data.fields),
    );
    setProblems({});
    setListErrors([]);
  };

  // the first answer fills the editor; later ones only when asked to reload
  // biome-ignore lint/correctness/useExhaustiveDependencies: apply once per node
  useEffect(() => {
    if (query.data && !loaded) apply(query.data);
  }, [query.data, loaded]);

  const defs = useMemo(() => rows.map((r) => r.def), [rows]);
  const saved = loaded?.fields ?? [];
  const dirty = !!loaded && (listKey(defs) !== listKey(loaded.fields) || keysKey(keys) !== keysKey(loaded.uniqueKeys));
  const readOnly = !engineNode;

  // keyboard reordering keeps the focus on the moved row's handle
  useEffect(() => {
    if (!focusKey.current) return;
    const el = document.querySelector<HTMLElement>(`[data-row-handle="${focusKey.current}"]`);
    focusKey.current = null;
    el?.focus();
  });

  // leaving the page or the node with unsaved edits asks first; so does closing the tab
  useLeaveGuard(dirty, UNSAVED_FIELDS, (from, to) => {
    const node = (search: string) => new URLSearchParams(search).get('gnCoding');
    return from.pathname !== to.pathname || node(from.search) !== node(to.search);
  });

  const setDefs = (next: FieldDef[], touched?: string) => {
    setRows((prev) => prev.map((r, i) => ({ key: r.key, def: next[i]! })));
    if (touched) setProblems(({ [touched]: _drop, ...rest }) => rest);
  };

  const move = (from: number, to: number, focus = false) => {
    if (readOnly || to < 0 || to >= rows.length || from === to) return;
    if (focus) focusKey.current = rows[from]!.key;
    setRows((prev) => moveItem(prev, from, to));
  };

  const reload = async () => {
    setReloading(true);
    try {
      const res = await query.refetch();
      if (res.data) {
        apply(res.data);
        setConflict(null);
      }
    } finally {
      setReloading(false);
    }
  };

  const save = async () => {
    if (saving || !loaded) return;
    const sent = rows;
    const fields = defs.map(cleanDef);
    const found = fieldListProblems(fields);
    if (Object.keys(found).length) {
      const { byRow, rest } = problemsByRow(found, sent);
      setProblems(byRow);
      setListErrors(['字段配置有误，请修改标红的字段后再保存', ...rest]);
      return;
    }
    setSaving(true);
    setListErrors([]);
    try {
      const res = await saveNodeFields({ gnCoding, fields, version: loaded.version, uniqueKeys: keys });
      apply(res, true);
      setConflict(null);
      void message.success('保存成功');
      void queryClient.invalidateQueries({ queryKey: [...ENGINE_KEY, 'fields', gnCoding] });
      void queryClient.invalidateQueries({ queryKey: [...ENGINE_KEY, 'filters', gnCoding] });
      void queryClient.invalidateQueries({ queryKey: [...ENGINE_KEY, 'form', gnCoding] });
    } catch (err) {
      if (!isApiError(err)) throw err;
      if (err.status === 409) {
        const text = err.message && err.message !== Msg.REQUEST_FAILED ? err.message : FIELDS_CONFLICT;
        setConflict(text);
        modal.confirm({
          title: '保存失败',
          content: `${text}（刷新将载入最新的字段，放弃本页的修改）`,
          okText: '刷新',
          cancelText: '取消',
          onOk: reload,
        });
        return;
      }
      const fe = fieldErrorsOf(err);
      if (fe.length) {
        const { byRow, rest } = problemsByRow(Object.fromEntries(fe.map((f) => [f.name.join('.'), f.errors])), sent);
        setProblems(byRow);
        setListErrors([...new Set([err.message, ...rest])]);
        return;
      }
      reportApiError(err);
      setListErrors([err.message]);
    } finally {
      setSaving(false);
    }
  };

  const editingRow = drawer.kind === 'edit' ? rows.findIndex((r) => r.key === drawer.key) : -1;

  const onDrawerOk = (def: FieldDef, filterOn: boolean | null) => {
    const clean = cleanDef(def);
    let next = [...defs];
    let key: string;
    if (drawer.kind === 'edit' && editingRow >= 0) {
      next[editingRow] = clean;
      key = rows[editingRow]!.key;
    } else {
      next.push(clean);
      key = `new-${Date.now()}-${rows.length}`;
    }
    if (filterOn !== null && filterOn !== isFilterGroup(next, clean.code))
      next = withFilterFlag(next, clean.code, filterOn);
    setRows((prev) => {
      const keys = [...prev.map((r) => r.key)];
      if (drawer.kind !== 'edit') keys.push(key);
      return next.map((d, i) => ({ key: keys[i]!, def: d }));
    });
    setProblems(({ [key]: _drop, ...rest }) => rest);
    setDrawer({ kind: 'closed' });
  };

  if (query.isError) return <LoadError error={query.error} what="字段" />;
  if (!loaded) return <Skeleton active paragraph={{ rows: 8 }} />;

  const onDragStart = (i: number) => (e: DragEvent) => {
    dragFrom.current = i;
    e.dataTransfer.effectAllowed = 'move';
    e.dataTransfer.setData('text/plain', String(i));
  };
  const onHandleKey = (i: number) => (e: KeyboardEvent) => {
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      e.preventDefault();
      move(i, e.key === 'ArrowUp' ? i - 1 : i + 1, true);
    }
  };

  const columns: TableColumnsType<FieldRow> = [
    {
      title: '',
      key: 'drag',
      width: 36,
      fixed: 'left',
      render: (_, r, i) => (
        <Tooltip title="拖动调整顺序；聚焦后可用 ↑ ↓ 键移动">
          <Button
            type="text"
            size="small"
            icon={<HolderOutlined />}
            style={{ cursor: readOnly ? 'default' : 'grab' }}
            disabled={readOnly}
            aria-label={`调整「${r.def.name || r.def.code}」的顺序`}
            onKeyDown={onHandleKey(i)}
            data-row-handle={r.key}
            data-testid="field-handle"
          />
        </Tooltip>
      ),
    },
    { title: '序号', key: 'no', width: 52, align: 'center', render: (_, __, i) => i + 1 },
    {
      title: '字段编码',
      key: 'code',
      width: 140,
      fixed: 'left',
      render: (_, r) => (
        <>
          <Space size={4}>
            <Typography.Text code data-testid="field-row-code">
              {r.def.code}
            </Typography.Text>
            {savedOf(saved, r.def.code) ? null : (
              <Tag color="green" style={{ marginInlineEnd: 0 }}>
                新
              </Tag>
            )}
          </Space>
          <ProblemText problems={problems[r.key]} column="code" />
        </>
      ),
    },
    {
      title: '名称',
      key: 'name',
      width: 130,
      render: (_, r) => (
        <>
          <span data-testid="field-row-name">{r.def.name}</span>
          <ProblemText problems={problems[r.key]} column="name" />
        </>
      ),
    },
    {
      title: '类型',
      key: 'type',
      width: 200,
      render: (_, r) => (
        <>
          <Space size={4}>
            <span data-testid="field-row-type">{typeLabel(r.def.type)}</span>
            {savedOf(saved, r.def.code) ? (
              <Tooltip title={TYPE_LOCKED_TIP}>
                <LockOutlined style={{ color: '#8c8c8c' }} data-testid="field-type-lock" />
              </Tooltip>
            ) : null}
          </Space>
          <ProblemText problems={problems[r.key]} column="type" />
        </>
      ),
    },
    {
      title: '必填 / 显示',
      key: 'required',
      width: 110,
      render: (_, r) => (
        <>
          <Space size={4} wrap>
            {Number(r.def.required) ? <Tag color="red">{REQUIRED_LABELS[r.def.required as 1 | 2]}</Tag> : null}
            {r.def.show === false ? <Tag>隐藏</Tag> : null}
            {r.def.readonly ? <Tag color="blue">只读</Tag> : null}
            {!Number(r.def.required) && r.def.show !== false && !r.def.readonly ? dash(null) : null}
          </Space>
          <ProblemText problems={problems[r.key]} column="required" />
        </>
      ),
    },
    {
      title: '栅格',
      key: 'col',
      width: 56,
      align: 'center',
      render: (_, r) => (
        <>
          {dash(r.def.col)}
          <ProblemText problems={problems[r.key]} column="col" />
        </>
      ),
    },
    {
      title: '长度 / 校验',
      key: 'check',
      width: 170,
      render: (_, r) => (
        <>
          {r.def.length || r.def.regex || r.def.validator ? (
            <Space direction="vertical" size={0}>
              {r.def.length ? <span>最长 {r.def.length}</span> : null}
              {r.def.regex ? ellipsis(`${r.def.regex}${r.def.prompt ? `（${r.def.prompt}）` : ''}`, 160) : null}
              {r.def.validator ? (
                <span data-testid={`row-validator-${r.def.code}`}>
                  {FIELD_VALIDATORS[r.def.validator]?.label ?? r.def.validator}
                </span>
              ) : null}
            </Space>
          ) : (
            dash(null)
          )}
          <ProblemText problems={problems[r.key]} column="check" />
        </>
      ),
    },
    {
      title: '上级 / 下级 / 分组',
      key: 'relations',
      width: 150,
      render: (_, r) => {
        const parts = [
          r.def.parentNode ? `上级 ${r.def.parentNode}` : '',
          r.def.childNode ? `下级 ${r.def.childNode}` : '',
          r.def.groupNumber ? `分组 ${r.def.groupNumber}` : '',
        ].filter(Boolean);
        return (
          <>
            {parts.length ? (
              <Space direction="vertical" size={0}>
                {parts.map((p) => (
                  <span key={p}>{p}</span>
                ))}
              </Space>
            ) : (
              dash(null)
            )}
            <ProblemText problems={problems[r.key]} column="relations" />
          </>
        );
      },
    },
    {
      title: '日期限制 / 间隔',
      key: 'dates',
      width: 150,
      render: (_, r) => {
        const range =
          r.def.limitStartDate || r.def.limitEndDate
            ? `${r.def.limitStartDate || '不限'} ~ ${r.def.limitEndDate || '不限'}`
            : '';
        return (
          <>
            {range || r.def.step ? (
              <Space direction="vertical" size={0}>
                {range ? <span>{range}</span> : null}
                {r.def.step ? <span>间隔 {r.def.step}</span> : null}
              </Space>
            ) : (
              dash(null)
            )}
            <ProblemText problems={problems[r.key]} column="dates" />
          </>
        );
      },
    },
    {
      title: '提示',
      key: 'tips',
      width: 110,
      render: (_, r) => (
        <>
          {ellipsis(r.def.tips, 100)}
          <ProblemText problems={problems[r.key]} column="tips" />
        </>
      ),
    },
    {
      title: '选项',
      key: 'options',
      width: 170,
      render: (_, r) => (
        <>
          {r.def.options || r.def.type === 'sex'
            ? ellipsis(r.def.type === 'sex' ? '男 / 女' : sourceText(r.def), 160)
            : dash(null)}
          <ProblemText problems={problems[r.key]} column="options" />
        </>
      ),
    },
    {
      title: (
        <Tooltip title="列表筛选卡片的分组；不勾选任何字段时，默认显示全部显示的单选类字段">
          <span>筛选</span>
        </Tooltip>
      ),
      key: 'filter',
      width: 60,
      align: 'center',
      render: (_, r) => (
        <>
          {isFilterType(r.def.type) ? (
            <Checkbox
              checked={isFilterGroup(defs, r.def.code)}
              disabled={readOnly}
              onChange={(e) => setDefs(withFilterFlag(defs, r.def.code, e.target.checked), r.key)}
              aria-label={`「${r.def.name}」作为筛选条件`}
              data-testid="field-filter-flag"
            />
          ) : (
            dash(null)
          )}
          <ProblemText problems={problems[r.key]} column="filter" />
        </>
      ),
    },
    {
      title: (
        <Tooltip title="唯一约束：不能有两条记录的该字段值相同（未填写的不比较）；本企业内唯一只在同一企业的记录间比较">
          <span>唯一</span>
        </Tooltip>
      ),
      key: 'unique',
      width: 130,
      render: (_, r) => (
        <>
          {isUniqueType(r.def.type) ? (
            <Select<UniqueMode>
              size="small"
              style={{ width: 118 }}
              value={uniqueModeOf(keys, r.def.code)}
              disabled={readOnly || !r.def.code}
              onChange={(mode) => setKeys(withUniqueMode(keys, r.def.code, mode))}
              options={(Object.keys(UNIQUE_MODE_LABELS) as UniqueMode[]).map((m) => ({
                value: m,
                label: UNIQUE_MODE_LABELS[m],
              }))}
              aria-label={`「${r.def.name}」唯一`}
              data-testid={`field-unique-${r.def.code}`}
            />
          ) : (
            dash(null)
          )}
          {inCompositeKey(keys, r.def.code) ? <Tag style={{ marginTop: 4 }}>组合唯一</Tag> : null}
        </>
      ),
    },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      fixed: 'right',
      render: (_, r, i) => {
        const refs = referrers(defs, r.def.code);
        const wasSaved = !!savedOf(saved, r.def.code);
        return (
          <Space size={0}>
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              disabled={readOnly}
              onClick={() => setDrawer({ kind: 'edit', key: r.key })}
              data-testid="field-edit"
            >
              编辑
            </Button>
            <MoveButtons index={i} count={rows.length} move={move} disabled={readOnly} testId="field" />
            <Popconfirm
              title={`确认删除字段「${r.def.name || r.def.code}」？`}
              description={
                <div style={{ maxWidth: 300 }}>
                  {wasSaved ? <div>保存后表单与列表不再显示该字段；已有数据保留在数据表中。</div> : null}
                  {refs.length ? (
                    <div style={{ color: '#cf1322' }}>
                      字段 {refs.map((f) => f.name || f.code).join('、')} 以它为上级或下级，删除后请一并修改。
                    </div>
                  ) : null}
                </div>
              }
              okText="删除"
              cancelText="取消"
              okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as ButtonProps}
              disabled={readOnly}
              onConfirm={() => {
                setRows((prev) => prev.filter((x) => x.key !== r.key));
                setKeys((prev) => withoutField(prev, r.def.code));
                setProblems(({ [r.key]: _drop, ...rest }) => rest);
              }}
            >
              <Button
                type="text"
                size="small"
                danger
                icon={<DeleteOutlined />}
                aria-label="删除"
                disabled={readOnly}
                data-testid="field-remove"
              />
            </Popconfirm>
          </Space>
        );
      },
    },
  ];

  const editing = drawer.kind === 'edit' && editingRow >= 0 ? { index: editingRow, def: rows[editingRow]!.def } : null;

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xxl={side ? 11 : 24}>
        <Card
          size="small"
          title={
            <Space size={8}>
              <span>字段</span>
              <Typography.Text
                type="secondary"
                style={{ fontWeight: 'normal', fontSize: 12 }}
                data-testid="fields-version"
              >
                第 {loaded.version} 版 · 共 {rows.length} 个字段
              </Typography.Text>
              {dirty ? (
                <Tag color="orange" data-testid="fields-dirty">
                  有未保存的修改
                </Tag>
              ) : null}
            </Space>
          }
          extra={
            <Space size={8}>
              <Button
                icon={<PlusOutlined />}
                disabled={readOnly || rows.length >= MAX_FIELDS}
                onClick={() => setDrawer({ kind: 'add' })}
                data-testid="field-add"
              >
                新增字段
              </Button>
              <Popconfirm
                title="放弃所有未保存的修改？"
                okText="放弃修改"
                cancelText="取消"
                okButtonProps={{ 'data-testid': 'confirm-ok' } as ButtonProps}
                disabled={!dirty}
                onConfirm={() => apply(loaded)}
              >
                <Button disabled={!dirty || saving} data-testid="fields-undo">
                  撤销修改
                </Button>
              </Popconfirm>
              <Button
                type="primary"
                loading={saving}
                disabled={readOnly || !dirty}
                onClick={save}
                data-testid="fields-save"
              >
                保存
              </Button>
            </Space>
          }
        >
          {readOnly ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 12 }}
              title="该节点的数据来自业务模块，字段由模块定义，不能在此修改。"
              data-testid="fields-readonly"
            />
          ) : null}
          {conflict ? (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              title={conflict}
              action={
                <Button
                  size="small"
                  icon={<ReloadOutlined />}
                  loading={reloading}
                  onClick={reload}
                  data-testid="fields-reload"
                >
                  刷新
                </Button>
              }
              data-testid="fields-conflict"
            />
          ) : null}
          {listErrors.length ? (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              title={listErrors[0]}
              description={listErrors.length > 1 ? listErrors.slice(1).map((l) => <div key={l}>{l}</div>) : undefined}
              data-testid="fields-error"
            />
          ) : null}
          <Table<FieldRow>
            rowKey="key"
            size="small"
            pagination={false}
            columns={columns}
            dataSource={rows}
            scroll={{ x: 1700 }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无字段，请新增" /> }}
            onRow={(r, i) => ({
              draggable: !readOnly,
              onDragStart: onDragStart(i ?? 0),
              onDragOver: (e: DragEvent) => {
                if (dragFrom.current === null) return;
                e.preventDefault();
                setDragOver(i ?? null);
              },
              onDragLeave: () => setDragOver(null),
              onDrop: (e: DragEvent) => {
                e.preventDefault();
                const from = dragFrom.current;
                dragFrom.current = null;
                setDragOver(null);
                if (from !== null && i !== undefined) move(from, i);
              },
              onDragEnd: () => {
                dragFrom.current = null;
                setDragOver(null);
              },
              style: {
                background: problems[r.key] ? '#fff1f0' : undefined,
                boxShadow: dragOver === i ? 'inset 0 2px 0 #1677ff' : undefined,
              },
              'data-testid': 'field-row',
            })}
            data-testid="fields-table"
          />
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 8, marginBottom: 0 }}>
            拖动行或聚焦行首的手柄后按 ↑ ↓ 键调整顺序；已保存字段的编码与类型不能修改（
            <LockOutlined />
            ）；删除字段不会删除数据表中的列与数据。
          </Typography.Paragraph>
        </Card>
        <FilterPreview defs={defs} gnCoding={gnCoding} onDefault={() => setDefs(withoutFilterFlags(defs))} />
      </Col>
      <Col xs={24} xxl={side ? 13 : 24}>
        <div style={{ position: 'sticky', top: 16 }}>
          <FormPreview
            defs={defs}
            saved={saved}
            gnCoding={gnCoding}
            systemCoding={systemCoding ?? ''}
            side={side}
            onSide={setSide}
          />
        </div>
      </Col>
      <FieldDrawer
        open={drawer.kind !== 'closed'}
        editing={editing}
        defs={defs}
        saved={saved}
        filterOf={(code) => isFilterGroup(defs, code)}
        explicitFilter={explicitFilters(defs)}
        problems={editing ? problems[rows[editing.index]!.key] : undefined}
        gnCoding={gnCoding}
        systemCoding={systemCoding}
        onOk={onDrawerOk}
        onClose={() => setDrawer({ kind: 'closed' })}
      />
    </Row>
  );
}

/**
 * 字段设置 `/system/setUpForm?gnCoding=X`: a node's field schema (§3 form field definition) with its options and
 * filter flags, a live DynamicForm and FilterCard preview; the node's 列表列 and 卡片样式 are a link away.
 */
export default function SetUpFormPage() {
  const target = useNodeTarget();
  const node = target.preview.data?.node;
  return (
    <ConfigLayout title="字段设置" wide>
      <Card title="字段设置" data-testid="setup-form">
        <NodeTargetBar target={target} current="/system/setUpForm" />
        {!target.gnCoding ? (
          <Empty description="请选择系统与节点" data-testid="no-node" />
        ) : target.preview.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : (
          <>
            <FieldsEditor
              key={target.gnCoding}
              gnCoding={target.gnCoding}
              systemCoding={target.systemCoding}
              engineNode={!node || node.dataSource === 'engine'}
            />
            <AttachmentTypesEditor
              key={`annex-${target.gnCoding}`}
              gnCoding={target.gnCoding}
              engineNode={!node || node.dataSource === 'engine'}
            />
          </>
        )}
      </Card>
    </ConfigLayout>
  );
}
