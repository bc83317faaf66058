import { accountPasswordProblem, PASSWORD_POLICY_TEXT } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { secretTimeQuery } from '../../api/accountCentre';
import { fetchPublicKey, updateSecret } from '../../api/auth';
import { encrypt } from '../../api/crypto';
import { showErrors } from './shared';

interface Values {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/**
 * 密码: how old the password is, the policy, and changing it (the account's other sessions end). The account-name and
 * history rules are the server's (the web does not know the account name or old passwords).
 */
export function PasswordSection() {
  const age = useQuery(secretTimeQuery);
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  const submit = async (values: Values) => {
    setSaving(true);
    try {
      const { publicKey } = await fetchPublicKey();
      const [oldPassword, newPassword] = await Promise.all([
        encrypt(values.oldPassword, publicKey),
        encrypt(values.newPassword, publicKey),
      ]);
      await updateSecret({ oldPassword, newPassword });
      form.resetFields();
      void message.success('密码已修改，其他设备上的登录已退出');
      void queryClient.invalidateQueries({ queryKey: secretTimeQuery.queryKey });
    } catch (err) {
      showErrors(form, err, ['oldPassword', 'newPassword'], 'oldPassword');
    } finally {
      setSaving(false);
    }
  };

  const a = age.data;
  return (
    <Card title="密码" data-testid="ucenter-password">
      {a ? (
        <Alert
          type={a.mustChange ? 'warning' : 'info'}
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="ucenter-password-age"
          title={
            a.mustChange
              ? `密码已使用 ${a.days} 天，请立即修改`
              : `密码已使用 ${a.days} 天${a.maxDays > 0 ? `，每 ${a.maxDays} 天须修改一次` : ''}`
          }
        />
      ) : null}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={(v) => void submit(v)}
        style={{ maxWidth: 420 }}
        data-testid="ucenter-password-form"
      >
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" maxLength={128} data-testid="ucenter-password-old" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          extra={<Typography.Text type="secondary">{PASSWORD_POLICY_TEXT}</Typography.Text>}
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
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="ucenter-password-new" />
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
          <Input.Password autoComplete="new-password" maxLength={64} data-testid="ucenter-password-confirm" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="ucenter-password-submit">
          修改密码
        </Button>
      </Form>
    </Card>
  );
}
