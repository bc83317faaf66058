import { PlusOutlined } from '@ant-design/icons';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATTERN,
  type AdminEnterpriseCreate,
  creditCodeProblem,
  isValidMobile,
  REGISTER_MESSAGES as M,
  REGIONS,
  registrationPasswordProblem,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Form, Input, Row, Select } from 'antd';
import { useState } from 'react';
import { enterpriseTypesQuery } from '../../api/accounts';
import { adminCreateEnterprise } from '../../api/register';
import { FormDialog } from '../../components/admin';

type Values = AdminEnterpriseCreate;

const FIELDS = [
  'name',
  'creditCode',
  'enterpriseType',
  'region',
  'address',
  'legalPerson',
  'legalPhone',
  'account',
  'password',
  'overrideReason',
];

/**
 * 登记企业 on 企业信息 (administrators): an enterprise and its administrator account registered by hand. A credit code
 * of the wrong shape is refused; one whose check character fails (early pilot-region codes) needs a reason, logged.
 */
export function AdminRegisterButton({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const code = String(Form.useWatch('creditCode', form) ?? '');
  const checkFails = creditCodeProblem(code.trim().toUpperCase()) === 'checkDigit';
  const { data: types = [] } = useQuery(enterpriseTypesQuery);
  return (
    <>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        onClick={() => setOpen(true)}
        data-testid="enterprise-register-open"
      >
        登记企业
      </Button>
      <FormDialog<Values>
        open={open}
        form={form}
        title="登记企业"
        width={720}
        testId="enterprise-register-save"
        fields={FIELDS}
        successText="企业已登记"
        intro="登记企业及其管理员账号；管理员账号首次登录须修改密码。"
        submit={(v) => adminCreateEnterprise({ ...v, creditCode: v.creditCode.trim().toUpperCase() })}
        onClose={() => setOpen(false)}
        onSaved={() => {
          setOpen(false);
          onCreated();
        }}
      >
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item
              name="name"
              label="企业名称"
              rules={[{ required: true, whitespace: true, message: M.enterpriseNameRequired }]}
            >
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="creditCode"
              label="统一社会信用代码"
              normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
              rules={[
                {
                  validator: async (_: unknown, v: string | undefined) => {
                    if (!v) throw new Error(M.creditCodeRequired);
                    // a failing check character is allowed here, with a reason; a wrong shape never
                    if (creditCodeProblem(v) === 'format') throw new Error(M.creditCodeFormat);
                  },
                },
              ]}
            >
              <Input maxLength={18} data-testid="admin-register-code" />
            </Form.Item>
          </Col>
          {checkFails ? (
            <Col span={24}>
              <Alert
                type="warning"
                showIcon
                style={{ marginBottom: 12 }}
                title={M.creditCodeCheckDigit}
                description="早期试点地区赋码的企业可能无法通过校验。如确认代码真实有效，请填写登记原因，原因将记入操作日志。"
              />
              <Form.Item
                name="overrideReason"
                label="登记原因"
                rules={[{ required: true, whitespace: true, message: M.overrideReasonRequired }]}
              >
                <Input.TextArea rows={2} maxLength={200} showCount data-testid="admin-register-reason" />
              </Form.Item>
            </Col>
          ) : null}
          <Col span={12}>
            <Form.Item
              name="enterpriseType"
              label="企业类型"
              rules={[{ required: true, message: M.enterpriseTypeRequired }]}
            >
              <Select options={types.map((t) => ({ value: t.value, label: t.label }))} placeholder="请选择企业类型" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="region" label="所在地区" rules={[{ required: true, message: M.regionRequired }]}>
              <Select options={REGIONS.map((r) => ({ value: r, label: r }))} placeholder="请选择所在地区" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="address"
              label="详细地址"
              rules={[{ required: true, whitespace: true, message: M.addressRequired }]}
            >
              <Input maxLength={200} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="legalPerson"
              label="法定代表人"
              rules={[{ required: true, whitespace: true, message: M.legalPersonRequired }]}
            >
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="legalPhone"
              label="法定代表人手机号"
              rules={[
                {
                  validator: async (_: unknown, v: string | undefined) => {
                    if (!v?.trim()) throw new Error(M.legalPhoneRequired);
                    if (!isValidMobile(v.trim())) throw new Error(M.phoneFormat);
                  },
                },
              ]}
            >
              <Input maxLength={11} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="account"
              label="管理员账号"
              rules={[
                { required: true, whitespace: true, message: ACCOUNT_MESSAGES.accountRequired },
                { pattern: ACCOUNT_PATTERN, message: ACCOUNT_MESSAGES.accountFormat },
              ]}
            >
              <Input maxLength={32} autoComplete="off" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item
              name="password"
              label="初始密码"
              dependencies={['account']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: async (_: unknown, v: string | undefined) => {
                    if (!v) throw new Error(ACCOUNT_MESSAGES.passwordRequired);
                    const p = registrationPasswordProblem(v, String(getFieldValue('account') ?? ''));
                    if (p) throw new Error(p);
                  },
                }),
              ]}
            >
              <Input.Password maxLength={64} autoComplete="new-password" />
            </Form.Item>
          </Col>
        </Row>
      </FormDialog>
    </>
  );
}
