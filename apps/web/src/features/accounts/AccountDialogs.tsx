import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATTERN,
  type AccountRow,
  type AdminAccountType,
  LOGIN_ROLE_LABELS,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, type ButtonProps, Checkbox, Empty, Form, Input, Modal, Radio, Select, Skeleton, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import {
  accountRolesQuery,
  createAdminAccount,
  createPersonnel,
  enterpriseListQuery,
  resetAccountPassword,
  saveAccountRoles,
  setAccountStatus,
  unlockAccount,
  updateAccount,
} from '../../api/accounts';
import {
  ActionLink,
  applySaveError,
  ConfirmAction,
  FormDialog,
  LoadFailure,
  SaveErrorAlert,
} from '../../components/admin';
import { confirmRules, mobileRules, passwordRules } from './shared';

/** The dialogs of the account pages: create / edit an account, reset a password, assign custom roles. */

/** Enterprises found by name or credit code (administrators), as a searchable select. */
export function EnterpriseSelect({
  value,
  onChange,
  testId,
  placeholder = '输入企业名称或信用代码搜索',
  allowClear,
  style,
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  testId: string;
  placeholder?: string;
  allowClear?: boolean;
  style?: React.CSSProperties;
}) {
  const [keyword, setKeyword] = useState('');
  const [labels, setLabels] = useState<Record<string, string>>({});
  const list = useQuery(enterpriseListQuery({ keyword: keyword.trim() || undefined, pageNum: 1, pageSize: 20 }));
  const options = useMemo(() => {
    const found = (list.data?.records ?? []).map((e) => ({ value: e.id, label: e.name, code: e.creditCode }));
    if (value && !found.some((o) => o.value === value) && labels[value]) {
      found.unshift({ value, label: labels[value]!, code: '' });
    }
    return found;
  }, [list.data, value, labels]);
  return (
    <Select<string>
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear={allowClear}
      placeholder={placeholder}
      value={value}
      style={style}
      loading={list.isFetching}
      notFoundContent={list.isFetching ? '加载中...' : '暂无数据'}
      options={options.map((o) => ({
        value: o.value,
        label: o.label,
        title: o.code ? `${o.label}（${o.code}）` : o.label,
      }))}
      onChange={(v) => {
        const hit = options.find((o) => o.value === v);
        if (v && hit) setLabels((m) => ({ ...m, [v]: hit.label }));
        onChange?.(v);
      }}
      data-testid={testId}
      aria-label="所属企业"
    />
  );
}

export type AccountDialogMode =
  | { kind: 'admin' }
  | { kind: 'personnel'; enterpriseId?: string }
  | { kind: 'edit'; row: AccountRow };

interface AccountFormValues {
  account?: string;
  userName: string;
  phone: string;
  loginRoleType?: AdminAccountType;
  enterpriseId?: string;
  password?: string;
  confirm?: string;
}

const ACCOUNT_FIELDS = ['account', 'userName', 'phone', 'loginRoleType', 'enterpriseId', 'password'] as const;

export function AccountFormModal({
  mode,
  onClose,
  onSaved,
}: {
  mode: AccountDialogMode | null;
  onClose: () => void;
  onSaved: (row: AccountRow) => void;
}) {
  const creating = mode !== null && mode.kind !== 'edit';

  const submit = (v: AccountFormValues): Promise<AccountRow> => {
    const common = { userName: v.userName.trim(), phone: v.phone.trim() };
    if (mode?.kind === 'edit') return updateAccount({ id: mode.row.id, updatedAt: mode.row.updatedAt, ...common });
    const created = { ...common, account: (v.account ?? '').trim(), password: v.password ?? '' };
    if (mode?.kind === 'admin') return createAdminAccount({ ...created, loginRoleType: v.loginRoleType ?? 'M' });
    return createPersonnel({ ...created, enterpriseId: v.enterpriseId ?? '' });
  };

  const title = !mode
    ? ''
    : mode.kind === 'edit'
      ? `编辑账号：${mode.row.account}`
      : mode.kind === 'admin'
        ? '新增管理员/开发者账号'
        : '新增企业人员账号';

  return (
    <FormDialog<AccountFormValues, AccountRow>
      open={mode !== null}
      subject={mode}
      title={title}
      values={() =>
        mode?.kind === 'edit'
          ? { userName: mode.row.userName, phone: mode.row.phone ?? '' }
          : mode?.kind === 'admin'
            ? { loginRoleType: 'M' }
            : mode?.kind === 'personnel' && mode.enterpriseId
              ? { enterpriseId: mode.enterpriseId }
              : undefined
      }
      fields={ACCOUNT_FIELDS}
      submit={submit}
      onClose={onClose}
      onSaved={onSaved}
      testId="account-save"
      errorTestId="account-form-error"
      width={560}
    >
      {creating ? (
        <Form.Item
          name="account"
          label="账号"
          extra="字母开头，由字母、数字、下划线组成，4 到 32 位；登录时不区分大小写"
          rules={[
            { required: true, whitespace: true, message: ACCOUNT_MESSAGES.accountRequired },
            { pattern: ACCOUNT_PATTERN, message: ACCOUNT_MESSAGES.accountFormat },
          ]}
        >
          <Input placeholder="请输入账号" maxLength={32} data-testid="account-account" />
        </Form.Item>
      ) : null}
      <Form.Item
        name="userName"
        label="姓名"
        rules={[
          { required: true, whitespace: true, message: ACCOUNT_MESSAGES.userNameRequired },
          { max: 32, message: '最多 32 个字符' },
        ]}
      >
        <Input placeholder="请输入姓名" maxLength={32} data-testid="account-username" />
      </Form.Item>
      <Form.Item name="phone" label="手机号码" rules={mobileRules}>
        <Input placeholder="请输入 11 位手机号码" maxLength={11} data-testid="account-phone" />
      </Form.Item>
      {mode?.kind === 'admin' ? (
        <Form.Item name="loginRoleType" label="账号类型" rules={[{ required: true, message: '请选择账号类型' }]}>
          <Radio.Group data-testid="account-type">
            <Radio value="M">{LOGIN_ROLE_LABELS.M}</Radio>
            <Radio value="D">{LOGIN_ROLE_LABELS.D}</Radio>
          </Radio.Group>
        </Form.Item>
      ) : null}
      {mode?.kind === 'personnel' ? (
        <Form.Item
          name="enterpriseId"
          label="所属企业"
          rules={[{ required: true, message: ACCOUNT_MESSAGES.enterpriseRequired }]}
        >
          <EnterpriseSelect testId="account-enterprise" />
        </Form.Item>
      ) : null}
      {creating ? (
        <>
          <Form.Item
            name="password"
            label="初始密码"
            extra="8 到 64 位，至少包含大写字母、小写字母、数字、符号中的三种；首次登录须修改"
            rules={passwordRules}
          >
            <Input.Password placeholder="请输入初始密码" maxLength={64} data-testid="account-password" />
          </Form.Item>
          <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={confirmRules('password')}>
            <Input.Password placeholder="请再次输入密码" maxLength={64} data-testid="account-confirm" />
          </Form.Item>
        </>
      ) : null}
    </FormDialog>
  );
}

export function ResetPasswordModal({
  row,
  onClose,
  onSaved,
}: {
  row: AccountRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <FormDialog<{ password: string; confirm: string }>
      open={row !== null}
      subject={row}
      title={row ? `重置密码：${row.userName}（${row.account}）` : ''}
      fields={['password']}
      submit={(v) => resetAccountPassword(row?.id ?? '', v.password)}
      onClose={onClose}
      onSaved={onSaved}
      successText="密码已重置"
      okText="重置"
      okDanger
      testId="password-save"
      errorTestId="password-form-error"
      intro={
        <Typography.Paragraph type="secondary">
          重置后该账号的所有登录会话立即失效，下次登录须修改密码。
        </Typography.Paragraph>
      }
    >
      <Form.Item name="password" label="新密码" rules={passwordRules}>
        <Input.Password placeholder="请输入新密码" maxLength={64} data-testid="password-new" />
      </Form.Item>
      <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={confirmRules('password')}>
        <Input.Password placeholder="请再次输入新密码" maxLength={64} data-testid="password-confirm" />
      </Form.Item>
    </FormDialog>
  );
}

export function RolesModal({
  row,
  onClose,
  onSaved,
}: {
  row: AccountRow | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { message } = App.useApp();
  const roles = useQuery({ ...accountRolesQuery(row?.id ?? ''), enabled: row !== null });
  const [checked, setChecked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);

  useEffect(() => {
    if (roles.data) setChecked(roles.data.roleIds);
  }, [roles.data]);
  useEffect(() => {
    if (row) setErrors([]);
  }, [row]);

  const onOk = async () => {
    if (!row || saving) return;
    setSaving(true);
    setErrors([]);
    try {
      await saveAccountRoles(row.id, checked);
      void message.success('保存成功');
      onSaved();
    } catch (err) {
      setErrors(applySaveError(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={row !== null}
      title={row ? `分配角色：${row.userName}（${row.account}）` : ''}
      onCancel={onClose}
      onOk={onOk}
      okText="保存"
      cancelText="取消"
      confirmLoading={saving}
      okButtonProps={{ disabled: !roles.isSuccess, 'data-testid': 'roles-save' } as ButtonProps}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        企业/个人账号默认属于内置角色「企业/个人」；在此分配的自定义角色会叠加其权限，下一次请求即生效。
      </Typography.Paragraph>
      <SaveErrorAlert lines={errors} testId="roles-form-error" />
      {roles.isPending ? (
        <Skeleton active paragraph={{ rows: 3 }} />
      ) : roles.isError ? (
        <LoadFailure error={roles.error} what="角色" />
      ) : roles.data.roles.length === 0 ? (
        <Empty description="暂无可分配的自定义角色" />
      ) : (
        <Checkbox.Group
          value={checked}
          onChange={(v) => setChecked(v as string[])}
          options={roles.data.roles.map((r) => ({ value: r.id, label: `${r.name}（${r.code}）` }))}
          data-testid="roles-options"
        />
      )}
    </Modal>
  );
}

/** 启用 / 停用 with a confirmation; the server revokes a disabled account's sessions at once. */
export function StatusAction({ row, self, onDone }: { row: AccountRow; self: boolean; onDone: () => void }) {
  const next = row.status === 'active' ? ('disabled' as const) : ('active' as const);
  if (next === 'disabled' && self) {
    return (
      <ActionLink disabled why={ACCOUNT_MESSAGES.cannotDisableSelf} testId="account-disable">
        停用
      </ActionLink>
    );
  }
  return (
    <ConfirmAction
      title={
        next === 'disabled'
          ? `确认停用账号「${row.account}」？停用后该账号立即下线且不能登录。`
          : `确认启用账号「${row.account}」？`
      }
      run={() => setAccountStatus(row.id, next)}
      successText="操作成功"
      onDone={onDone}
      danger={next === 'disabled'}
      testId={next === 'disabled' ? 'account-disable' : 'account-enable'}
    >
      {next === 'disabled' ? '停用' : '启用'}
    </ConfirmAction>
  );
}

/** 解锁: shown while the account's sign-in is locked from some address (too many failed attempts). */
export function UnlockAction({ row, onDone }: { row: AccountRow; onDone: () => void }) {
  if (!row.loginLocks.length) return null;
  return (
    <ConfirmAction
      title={`确认解除账号「${row.account}」的登录锁定？之前的失败次数将清零。`}
      run={() => unlockAccount(row.id)}
      successText="已解除锁定"
      onDone={onDone}
      testId="account-unlock"
    >
      解锁
    </ConfirmAction>
  );
}
