import { CODE_PATTERN, type Role } from '@ks/contracts';
import { Alert, App, type ButtonProps, Form, Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { createRole, updateRole } from '../../api/permission';
import { isApiError, reportApiError } from '../../api/request';

export const ROLE_CODE_MESSAGE = '角色编码须以字母开头，由字母、数字、下划线组成';
export const ROLE_NAME_MAX = 30;

interface Values {
  code: string;
  name: string;
}

/** 新建角色 (code and name) or 重命名 (name only; the code is fixed once created). */
export function RoleFormModal({
  open,
  role,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** null: create */
  role: Role | null;
  onClose: () => void;
  onSaved: (role: Role) => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setError(null);
    form.resetFields();
    form.setFieldsValue({ code: role?.code ?? '', name: role?.name ?? '' });
  }, [open, role, form]);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setSaving(true);
    setError(null);
    try {
      const saved = role
        ? await updateRole({ id: role.id, name: values.name.trim() })
        : await createRole({ code: values.code.trim(), name: values.name.trim() });
      void message.success('保存成功');
      onSaved(saved);
    } catch (err) {
      if (!isApiError(err)) throw err;
      const fe = (err.data as { fieldErrors?: Record<string, string[] | string> } | null)?.fieldErrors ?? {};
      const onForm = Object.entries(fe)
        .filter(([k]) => k === 'code' || k === 'name')
        .map(([k, v]) => ({ name: k as keyof Values, errors: Array.isArray(v) ? v : [String(v)] }));
      if (err.status === 409) {
        form.setFields([{ name: 'code', errors: [err.message] }]);
        setError(err.message);
      } else if (onForm.length) {
        form.setFields(onForm);
        setError(err.message);
      } else {
        reportApiError(err);
        setError(err.message);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={role ? `重命名角色：${role.name}` : '新建角色'}
      okText="保存"
      cancelText="取消"
      onOk={submit}
      onCancel={onClose}
      confirmLoading={saving}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'role-form-save' } as ButtonProps}
    >
      {error ? (
        <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="role-form-error" />
      ) : null}
      <Form<Values> form={form} layout="vertical" onFinish={submit} disabled={saving}>
        <Form.Item
          name="code"
          label="角色编码"
          extra={role ? '编码创建后不可修改' : '以字母开头，由字母、数字、下划线组成；创建后不可修改'}
          rules={[
            { required: true, message: '请输入角色编码' },
            { pattern: CODE_PATTERN, message: ROLE_CODE_MESSAGE },
          ]}
        >
          <Input disabled={!!role} maxLength={63} placeholder="如 auditor" data-testid="role-code-input" />
        </Form.Item>
        <Form.Item
          name="name"
          label="角色名称"
          rules={[
            { required: true, whitespace: true, message: '请输入角色名称' },
            { max: ROLE_NAME_MAX, message: `最多 ${ROLE_NAME_MAX} 个字符` },
          ]}
        >
          <Input maxLength={ROLE_NAME_MAX} showCount placeholder="如 审核员" data-testid="role-name-input" />
        </Form.Item>
        {/* Enter submits */}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  );
}
