import { FileOutlined, FolderOpenOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import type { GrantMatrixRow, GrantSubject } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Checkbox,
  Empty,
  Radio,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { type HTMLAttributes, useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  type GrantSubjectRef,
  grantMatrixKey,
  grantMatrixQuery,
  permissionSystemsQuery,
  rolesQuery,
  saveGrantMatrix,
} from '../../api/permission';
import { ForbiddenCard, isForbidden, LoadError, PageFrame, SystemSelect, useLeaveGuard } from '../../components/admin';
import { PERMISSION_SECTION } from '../../lib/paths';
import {
  clearRow,
  coverage,
  type Grants,
  grantsFromRows,
  sameGrants,
  selectRow,
  setFunction,
  setVisible,
  subtrees,
  summary,
  toSaveGrants,
} from './matrix';
import { UserSelect, useUserDirectory } from './shared';

export const UNSAVED_TITLE = '权限修改尚未保存';

/** What each subject's grants mean, in one line. */
function subjectHint(subjectType: GrantSubject, subjectId: string): string {
  if (subjectType === 'user') return '用户的权限为其个人授权与所属角色授权的合并。';
  if (subjectId === 'admin') return '管理员可查看并操作全部节点和按钮，此处的配置不影响管理员。';
  if (subjectId === 'developer') return '开发者可查看全部菜单，此处的配置只影响开发者的按钮权限。';
  if (subjectId === 'user') return '企业/个人角色包含全部企业/个人账号，此处的授权对所有企业/个人用户生效。';
  return '该角色的全部成员获得此处勾选的节点与按钮。';
}

interface Target {
  subjectType?: GrantSubject;
  subjectId?: string | null;
  systemCoding?: string | null;
}

/**
 * 权限配置 `/system/permissConfig?subjectType=role|user&subjectId=…&systemCoding=…` (administrators): the matrix
 * of a role's or user's grants on one system's nodes and their functions, saved as a whole.
 */
export default function PermissConfigPage() {
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const subjectType: GrantSubject = params.get('subjectType') === 'user' ? 'user' : 'role';
  const subjectId = params.get('subjectId') || null;
  const systemCoding = params.get('systemCoding') || null;

  const roles = useQuery(rolesQuery);
  const systems = useQuery(permissionSystemsQuery);
  const directory = useUserDirectory();

  const subject: GrantSubjectRef = { subjectType, subjectId: subjectId ?? '' };
  const ready = subjectId !== null && systemCoding !== null;
  const matrix = useQuery({ ...grantMatrixQuery(systemCoding ?? '', subject), enabled: ready });
  const rows = matrix.data ?? null;
  const key = ready ? `${systemCoding}|${subjectType}|${subjectId}` : '';

  const base = useMemo(() => (rows ? grantsFromRows(rows) : null), [rows]);
  const trees = useMemo(() => subtrees(rows ?? []), [rows]);
  const [edits, setEdits] = useState<{ key: string; grants: Grants } | null>(null);
  const grants = edits && edits.key === key ? edits.grants : base;
  const dirty = Boolean(edits && edits.key === key && base && !sameGrants(edits.grants, base));

  const update = (fn: (g: Grants) => Grants) =>
    setEdits((prev) => {
      const cur = prev && prev.key === key ? prev.grants : base;
      return cur ? { key, grants: fn(cur) } : prev;
    });

  // without a system in the address on arrival, take the first enabled one (once: clearing it stays cleared)
  const autoPicked = useRef(false);
  useEffect(() => {
    if (autoPicked.current || !systems.data) return;
    autoPicked.current = true;
    if (systemCoding || systems.data.length === 0) return;
    const first = systems.data.find((s) => s.enabled) ?? systems.data[0];
    setParams(
      (prev) => {
        const q = new URLSearchParams(prev);
        q.set('systemCoding', first.gnCoding);
        return q;
      },
      { replace: true },
    );
  }, [systemCoding, systems.data, setParams]);

  /** Changes subject or system, after confirmation when there are unsaved changes. */
  const go = (next: Target) => {
    const apply = () => {
      setEdits(null);
      setParams((prev) => {
        const q = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(next)) {
          if (v) q.set(k, v);
          else q.delete(k);
        }
        return q;
      });
    };
    if (!dirty) {
      apply();
      return;
    }
    modal.confirm({
      title: UNSAVED_TITLE,
      content: '切换后本次修改将丢失，是否继续？',
      okText: '放弃修改',
      cancelText: '取消',
      onOk: apply,
    });
  };

  // leaving the page (another route) with unsaved changes asks first; so does closing the tab
  useLeaveGuard(dirty, UNSAVED_TITLE);

  const save = useMutation({
    mutationFn: () => {
      if (!rows || !grants || !subjectId || !systemCoding) throw new Error('nothing to save');
      return saveGrantMatrix({ subjectType, subjectId, systemCoding, grants: toSaveGrants(rows, grants) });
    },
    onSuccess: (saved) => {
      if (subjectId && systemCoding) {
        queryClient.setQueryData(grantMatrixKey(systemCoding, { subjectType, subjectId }), saved);
      }
      setEdits(null);
      void message.success('保存成功');
    },
    // failures are shown by the request client; the edits stay
  });

  if (roles.isError && isForbidden(roles.error)) {
    return (
      <PageFrame section={PERMISSION_SECTION} title="权限配置">
        <ForbiddenCard reason="仅管理员可配置角色与权限" />
      </PageFrame>
    );
  }

  const columns: TableColumnsType<GrantMatrixRow> = [
    {
      title: '菜单 / 节点',
      key: 'node',
      width: 320,
      render: (_, r) => {
        const hasChildren = (trees.get(r.gnCoding)?.length ?? 1) > 1;
        return (
          <span style={{ paddingLeft: r.depth * 20, display: 'inline-flex', alignItems: 'center', gap: 6 }}>
            {hasChildren ? <FolderOpenOutlined /> : <FileOutlined />}
            <span>{r.title}</span>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {r.gnCoding}
            </Typography.Text>
            {r.itShows === '否' ? (
              <Tooltip title="该菜单不在侧边栏显示，但仍可授权其按钮">
                <Tag color="orange" data-testid={`hidden-${r.gnCoding}`}>
                  隐藏
                </Tag>
              </Tooltip>
            ) : null}
          </span>
        );
      },
    },
    {
      title: '可见',
      key: 'visible',
      width: 70,
      align: 'center',
      render: (_, r) => {
        const sub = trees.get(r.gnCoding) ?? [r.gnCoding];
        const cov = grants ? coverage(grants, sub) : 'none';
        return (
          <Tooltip title={sub.length > 1 ? '勾选或取消该节点及其全部下级' : undefined}>
            <Checkbox
              checked={cov === 'all'}
              indeterminate={cov === 'some'}
              onChange={(e) => update((g) => setVisible(g, sub, e.target.checked))}
              disabled={save.isPending}
              data-testid={`visible-${r.gnCoding}`}
              aria-label={`${r.title} 可见`}
            />
          </Tooltip>
        );
      },
    },
    {
      title: '按钮权限',
      key: 'functions',
      render: (_, r) => {
        if (r.functions.length === 0) return <Typography.Text type="secondary">无按钮</Typography.Text>;
        const granted = new Set(grants?.[r.gnCoding]?.codes ?? []);
        return (
          <Space size={[4, 4]} wrap>
            {r.functions.map((f) => (
              <Checkbox
                key={f.code}
                checked={granted.has(f.code)}
                onChange={(e) => update((g) => setFunction(g, r, f.code, e.target.checked))}
                disabled={save.isPending}
                data-testid={`fn-${r.gnCoding}-${f.code}`}
                aria-label={`${r.title} ${f.name}`}
              >
                <Tooltip
                  title={`${f.code} · ${f.kind === 'form' ? '表单按钮' : '列表按钮'}${f.show ? '' : ' · 当前不显示'}`}
                >
                  <Tag color={f.color} style={{ marginInlineEnd: 0, opacity: f.show ? 1 : 0.6 }}>
                    {f.name}
                  </Tag>
                </Tooltip>
              </Checkbox>
            ))}
          </Space>
        );
      },
    },
    {
      title: '操作',
      key: 'actions',
      width: 120,
      render: (_, r) => (
        <Space size={0}>
          <Button
            type="link"
            size="small"
            onClick={() => update((g) => selectRow(g, r))}
            disabled={save.isPending}
            data-testid={`row-all-${r.gnCoding}`}
          >
            全选
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => update((g) => clearRow(g, r))}
            disabled={save.isPending}
            data-testid={`row-clear-${r.gnCoding}`}
          >
            清空
          </Button>
        </Space>
      ),
    },
  ];

  const totals = grants ? summary(grants) : null;
  const userDisplay = subjectType === 'user' && subjectId ? subjectId : null;

  return (
    <PageFrame section={PERMISSION_SECTION} title="权限配置">
      <Card
        title="权限配置"
        extra={
          <Space>
            <Button
              icon={<UndoOutlined />}
              onClick={() => setEdits(null)}
              disabled={!dirty || save.isPending}
              data-testid="reset-grants"
            >
              撤销修改
            </Button>
            <Button
              type="primary"
              icon={<SaveOutlined />}
              onClick={() => save.mutate()}
              loading={save.isPending}
              disabled={!dirty || !rows}
              data-testid="save-grants"
            >
              保存
            </Button>
          </Space>
        }
      >
        <Space wrap size={[16, 12]} style={{ marginBottom: 16 }}>
          <Space>
            <span>授权对象</span>
            <Radio.Group
              optionType="button"
              value={subjectType}
              onChange={(e) => go({ subjectType: e.target.value as GrantSubject, subjectId: null })}
              options={[
                { value: 'role', label: '角色' },
                { value: 'user', label: '用户' },
              ]}
              data-testid="subject-type"
            />
            {subjectType === 'role' ? (
              <Select<string>
                showSearch={{ optionFilterProp: 'label' }}
                placeholder="请选择角色"
                style={{ width: 240 }}
                loading={roles.isPending}
                value={subjectId ?? undefined}
                onChange={(v) => go({ subjectId: v })}
                options={(roles.data ?? []).map((r) => ({ value: r.code, label: `${r.name}（${r.code}）` }))}
                notFoundContent="暂无数据"
                data-testid="subject-role"
                aria-label="角色"
              />
            ) : (
              <UserSelect
                directory={directory}
                value={userDisplay}
                onChange={(v) => go({ subjectId: typeof v === 'string' ? v : null })}
                testId="subject-user"
                width={320}
              />
            )}
          </Space>
          <Space>
            <span>业务系统</span>
            <SystemSelect value={systemCoding} onChange={(v) => go({ systemCoding: v })} />
          </Space>
        </Space>
        {subjectId ? (
          <Alert type="info" showIcon title={subjectHint(subjectType, subjectId)} style={{ marginBottom: 12 }} />
        ) : null}
        {!ready ? (
          <Empty
            description={subjectId ? '请选择业务系统' : '请选择授权对象（角色或用户）'}
            data-testid="matrix-empty"
          />
        ) : matrix.isError ? (
          <LoadError error={matrix.error} what="权限" />
        ) : (
          <>
            <Space style={{ marginBottom: 8 }} wrap>
              <Typography.Text type="secondary" data-testid="matrix-summary">
                {totals ? `可见节点 ${totals.nodes} / ${rows?.length ?? 0} 个，已授权按钮 ${totals.functions} 个` : ''}
              </Typography.Text>
              {dirty ? (
                <Tag color="warning" data-testid="matrix-dirty">
                  有未保存的修改
                </Tag>
              ) : null}
              <Typography.Text type="secondary">
                勾选按钮会同时勾选可见；取消可见会清除该节点的按钮；上级节点的可见复选框作用于其全部下级。
              </Typography.Text>
            </Space>
            <Table<GrantMatrixRow>
              rowKey="gnCoding"
              size="small"
              bordered
              columns={columns}
              dataSource={rows ?? []}
              loading={matrix.isFetching || save.isPending}
              pagination={false}
              sticky
              scroll={{ x: 960 }}
              locale={{ emptyText: '暂无数据' }}
              data-testid="grant-matrix"
              onRow={(r) => ({ 'data-testid': `matrix-row-${r.gnCoding}` }) as HTMLAttributes<HTMLElement>}
            />
          </>
        )}
      </Card>
    </PageFrame>
  );
}
