import { accountPasswordProblem, Msg, PASSWORD_POLICY_TEXT } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Form, Input, Modal } from 'antd';
import { useState, useSyncExternalStore } from 'react';
import { fetchPublicKey, logout, updateSecret } from '../../api/auth';
import { encrypt } from '../../api/crypto';
import { isApiError } from '../../api/request';
import { browser } from '../../lib/browser';
import {
  cancelPasswordChange,
  dropPasswordChange,
  isPasswordChangeRequired,
  isPasswordChangeVoluntary,
  passwordChanged,
  passwordChangeReason,
  subscribePasswordChange,
} from '../../lib/passwordChange';
import { clearSession } from '../../lib/session';

export const FORCED_PASSWORD_NOTICE = '您的密码已被管理员重置。为了账号安全，请先设置新密码，完成后方可继续使用。';
export const VOLUNTARY_PASSWORD_NOTICE = '修改密码后，该账号在其他浏览器或设备上的登录将立即失效。';
export const EXPIRED_PASSWORD_NOTICE =
  '您的密码已超过规定的使用期限。为了账号安全，请先设置新密码，完成后方可继续使用。';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * 修改密码: opened when the server says the account must change its password first (an administrator reset it), and
 * kept open until it is done — the only other way out is 退出登录.
 */
export function ChangePasswordDialog() {
  const open = useSyncExternalStore(subscribePasswordChange, isPasswordChangeRequired, isPasswordChangeRequired);
  // asked for from the user menu (修改密码): it may be cancelled; required by the server: only 退出登录 leaves it
  const voluntary = useSyncExternalStore(subscribePasswordChange, isPasswordChangeVoluntary, isPasswordChangeVoluntary);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  const submit = async (values: Values) => {
    if (saving) return;
    setSaving(true);
    try {
      const { publicKey } = await fetchPublicKey();
      const [oldPassword, newPassword] = await Promise.all([
        encrypt(values.oldPassword, publicKey),
        encrypt(values.newPassword, publicKey),
      ]);
      await updateSecret({ oldPassword, newPassword });
      form.resetFields();
      void message.success('密码已修改');
      passwordChanged();
      void queryClient.invalidateQueries({ queryKey: ['account', 'secretTime'] });
      // what failed while the change was pending is asked again
      void queryClient.invalidateQueries();
    } catch (err) {
      const fieldErrors = isApiError(err)
        ? (err.data as { fieldErrors?: Record<string, string[]> } | null)?.fieldErrors
        : undefined;
      if (fieldErrors && Object.keys(fieldErrors).length) {
        form.setFields(
          Object.entries(fieldErrors)
            .filter(([name]) => name === 'oldPassword' || name === 'newPassword')
            .map(([name, errors]) => ({ name: name as keyof Values, errors })),
        );
      } else {
        form.setFields([{ name: 'oldPassword', errors: [isApiError(err) ? err.message : Msg.REQUEST_FAILED] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const leave = async () => {
    try {
      await logout();
    } catch {
      // the token is dropped here whatever the server answered
    }
    dropPasswordChange();
    clearSession();
    queryClient.clear();
    browser.assign('/');
  };

  return (
    <Modal
      open={open}
      title="修改密码"
      closable={voluntary}
      onCancel={voluntary ? () => cancelPasswordChange() : undefined}
      mask={{ closable: false }}
      keyboard={voluntary}
      destroyOnHidden
      width={440}
      footer={[
        voluntary ? (
          <Button key="cancel" onClick={() => cancelPasswordChange()} data-testid="password-change-cancel">
            取消
          </Button>
        ) : (
          <Button key="out" onClick={() => void leave()} data-testid="password-change-logout">
            退出登录
          </Button>
        ),
        <Button
          key="ok"
          type="primary"
          loading={saving}
          onClick={() => form.submit()}
          data-testid="password-change-submit"
        >
          确定
        </Button>,
      ]}
    >
      <Alert
        type={voluntary ? 'info' : 'warning'}
        showIcon
        title={
          voluntary
            ? VOLUNTARY_PASSWORD_NOTICE
            : passwordChangeReason() === 'expired'
              ? EXPIRED_PASSWORD_NOTICE
              : FORCED_PASSWORD_NOTICE
        }
        style={{ marginBottom: 16 }}
      />
      <Form<Values> form={form} layout="vertical" onFinish={submit} requiredMark data-testid="password-change-form">
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" maxLength={128} data-testid="password-change-old" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          extra={PASSWORD_POLICY_TEXT}
          rules={[
            { required: true, message: '请输入新密码' },
            {
              validator: (_r, v: string) => {
                const problem = v ? accountPasswordProblem(v) : null;
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="password-change-new" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认新密码"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '请再次输入新密码' },
            ({ getFieldValue }) => ({
              validator: (_r, v: string) =>
                !v || v === getFieldValue('newPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error('两次输入的新密码不一致')),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="password-change-confirm" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
