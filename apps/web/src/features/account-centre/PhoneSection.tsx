import { AccountMsg, isValidMobile, SmsMsg } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Descriptions, Form, Input, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { phoneStateQuery, updatePhone, verifySmsCode } from '../../api/accountCentre';
import { messageOf, SmsCodeButton, showErrors } from './shared';

interface Values {
  phone: string;
  code: string;
}

/** 手机号: the bound phone (masked, verified or not) and changing it with a code sent to the new phone. */
export function PhoneSection() {
  const state = useQuery(phoneStateQuery);
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const { message } = App.useApp();

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      const { proof } = await verifySmsCode(v.phone, 'phone', v.code);
      const next = await updatePhone(v.phone, proof);
      queryClient.setQueryData(phoneStateQuery.queryKey, next);
      setOpen(false);
      form.resetFields();
      void message.success(AccountMsg.PHONE_CHANGED);
    } catch (err) {
      showErrors(form, err, ['phone', 'code'], 'code');
    } finally {
      setSaving(false);
    }
  };

  const s = state.data;
  return (
    <Card
      title="手机号"
      data-testid="ucenter-phone"
      extra={
        <Button onClick={() => setOpen(true)} data-testid="ucenter-phone-change">
          {s?.hasPhone ? '更换手机号' : '绑定手机号'}
        </Button>
      }
    >
      <Descriptions
        size="small"
        column={1}
        items={[
          {
            key: 'phone',
            label: '当前手机号',
            children: state.isError ? (
              <span>{messageOf(state.error)}</span>
            ) : (
              <Space>
                <span data-testid="ucenter-phone-value">{s ? (s.maskedPhone ?? '未绑定') : '…'}</span>
                {s?.hasPhone ? (
                  <Tag color={s.verified ? 'success' : 'default'}>{s.verified ? '已验证' : '未验证'}</Tag>
                ) : null}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={open}
        title={s?.hasPhone ? '更换手机号' : '绑定手机号'}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        okText="确定"
        okButtonProps={{ loading: saving, 'data-testid': 'ucenter-phone-submit' } as never}
        destroyOnHidden
        width={440}
      >
        <Form<Values> form={form} layout="vertical" onFinish={(v) => void submit(v)} data-testid="ucenter-phone-form">
          <Form.Item
            name="phone"
            label="新手机号"
            rules={[
              { required: true, message: SmsMsg.PHONE_REQUIRED },
              {
                validator: (_r, v: string) =>
                  !v || isValidMobile(v) ? Promise.resolve() : Promise.reject(new Error(SmsMsg.PHONE_INVALID)),
              },
            ]}
          >
            <Input maxLength={11} inputMode="numeric" autoComplete="tel" data-testid="ucenter-phone-new" />
          </Form.Item>
          <Form.Item label="短信验证码" required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="code"
                noStyle
                rules={[
                  { required: true, message: SmsMsg.CODE_REQUIRED },
                  { pattern: /^\d{6}$/, message: SmsMsg.CODE_FORMAT },
                ]}
              >
                <Input
                  maxLength={6}
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  data-testid="ucenter-phone-code"
                />
              </Form.Item>
              <SmsCodeButton
                purpose="phone"
                testId="ucenter-phone-send"
                phone={() => {
                  const p = String(form.getFieldValue('phone') ?? '').trim();
                  if (isValidMobile(p)) return p;
                  void form.validateFields(['phone']);
                  return null;
                }}
                onSent={() => void message.success(SmsMsg.SENT)}
                onError={(err) => showErrors(form, err, ['phone'], 'phone')}
              />
            </Space.Compact>
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
