import { UploadOutlined } from '@ant-design/icons';
import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATTERN,
  creditCodeInputProblem,
  isValidMobile,
  REGISTER_MESSAGES as M,
  REGIONS,
  registrationPasswordProblem,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Divider, Form, Input, Result, Row, Select, Steps, Typography, Upload } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { enterpriseTypesQuery } from '../../api/accounts';
import { fetchPublicKey } from '../../api/auth';
import { encrypt } from '../../api/crypto';
import {
  type SmsSent,
  sendLegalCode,
  submitRegistration,
  uploadLicence,
  verifyCreditCode,
  verifyPhoneCode,
} from '../../api/register';
import { fieldErrorsOf, SaveErrorAlert } from '../../components/admin';
import { Actions, formErrors, OutboxHint, REGISTER_PATHS, RegisterFrame, SmsCodeButton } from './shared';

interface Values {
  name: string;
  enterpriseType: string;
  region: string;
  address: string;
  legalPerson: string;
  legalPhone: string;
  smsCode: string;
  contactName: string;
  contactPhone: string;
  licence: { fileId: string; fileName: string } | undefined;
  account: string;
  password: string;
  confirm: string;
}

const FIELDS = [
  'name',
  'enterpriseType',
  'region',
  'address',
  'legalPerson',
  'legalPhone',
  'smsCode',
  'contactName',
  'contactPhone',
  'licence',
  'account',
  'password',
] as const;

/** The server's names for the fields this form names otherwise. */
const serverName = (name: (string | number)[]) => {
  const first = String(name[0]);
  if (first === 'legalProof' || first === 'code' || first === 'proof') return ['smsCode'];
  if (first === 'licenceFileId') return ['licence'];
  if (first === 'phone') return ['legalPhone'];
  return name;
};

const mobileRule = (required: string) => ({
  validator: async (_: unknown, v: string | undefined) => {
    if (!v?.trim()) throw new Error(required);
    if (!isValidMobile(v.trim())) throw new Error(M.phoneFormat);
  },
});

/** 企业注册 (/creditCode/register): the credit code first, then the application, then its number. */
export default function EnterpriseRegisterPage() {
  const [step, setStep] = useState(0);
  const [code, setCode] = useState('');
  const [taken, setTaken] = useState(false);
  const [checking, setChecking] = useState(false);
  const [codeForm] = Form.useForm<{ creditCode: string }>();
  const [form] = Form.useForm<Values>();
  const [errors, setErrors] = useState<string[]>([]);
  const [smsMode, setSmsMode] = useState<SmsSent['mode'] | null>(null);
  const [sentTo, setSentTo] = useState('');
  const [proof, setProof] = useState<{ phone: string; code: string; proof: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [done, setDone] = useState<{ applicationNo: string } | null>(null);
  const { data: types = [] } = useQuery(enterpriseTypesQuery);

  const checkCode = async ({ creditCode }: { creditCode: string }) => {
    const value = creditCode.trim().toUpperCase();
    setChecking(true);
    setTaken(false);
    setErrors([]);
    try {
      const r = await verifyCreditCode(value);
      if (r.registered) setTaken(true);
      else {
        setCode(r.creditCode);
        setStep(1);
      }
    } catch (err) {
      setErrors(formErrors(err, codeForm, ['creditCode']));
    } finally {
      setChecking(false);
    }
  };

  const submit = async (v: Values) => {
    if (submitting) return;
    setSubmitting(true);
    setErrors([]);
    try {
      const phone = v.legalPhone.trim();
      const smsCode = v.smsCode.trim();
      let p = proof && proof.phone === phone && proof.code === smsCode ? proof.proof : null;
      if (!p) {
        p = (await verifyPhoneCode(phone, 'legal', smsCode)).proof;
        setProof({ phone, code: smsCode, proof: p });
      }
      const { publicKey } = await fetchPublicKey();
      const password = await encrypt(v.password, publicKey);
      const r = await submitRegistration({
        name: v.name,
        creditCode: code,
        enterpriseType: v.enterpriseType,
        region: v.region as (typeof REGIONS)[number],
        address: v.address,
        legalPerson: v.legalPerson,
        legalPhone: phone,
        legalProof: p,
        contactName: v.contactName,
        contactPhone: v.contactPhone.trim(),
        account: v.account.trim(),
        password,
        licenceFileId: v.licence?.fileId ?? '',
      });
      setDone({ applicationNo: r.applicationNo });
      setStep(2);
    } catch (err) {
      const lines = formErrors(err, form, FIELDS, serverName);
      // a refused or spent proof is asked again with a fresh code
      if (fieldErrorsOf(err).some((f) => ['legalProof', 'code'].includes(String(f.name[0])))) setProof(null);
      setErrors(lines);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <RegisterFrame
      testId="enterprise-register"
      title="企业注册"
      subtitle="注册申请经平台审核通过后，由法定代表人完成企业激活即可登录"
      width={step === 1 ? 880 : 640}
    >
      <Steps
        current={step}
        status={step === 2 ? 'finish' : 'process'}
        size="small"
        style={{ marginBottom: 28 }}
        items={[{ title: '核验统一社会信用代码' }, { title: '填写注册信息' }, { title: '提交成功' }]}
      />
      {step === 0 ? (
        <Form form={codeForm} layout="vertical" onFinish={checkCode} requiredMark={false} size="large">
          <SaveErrorAlert lines={errors} testId="register-code-error" />
          <Form.Item
            name="creditCode"
            label="统一社会信用代码"
            extra="18 位，由数字和大写英文字母组成（不含 I、O、S、V、Z），见营业执照"
            normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
            rules={[
              {
                validator: async (_: unknown, v: string | undefined) => {
                  const p = creditCodeInputProblem(v ?? '');
                  if (p) throw new Error(p);
                },
              },
            ]}
          >
            <Input data-testid="register-credit-code" maxLength={18} placeholder="请输入统一社会信用代码" />
          </Form.Item>
          {taken ? (
            <Alert
              data-testid="register-code-taken"
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              title={M.creditCodeTaken}
              description={
                <span>
                  已通过审核的企业请 <Link to={REGISTER_PATHS.activate}>企业激活</Link> 或{' '}
                  <Link to={REGISTER_PATHS.creditCodeLogin}>统一社会信用代码登录</Link>；申请审核中的请{' '}
                  <Link to={REGISTER_PATHS.progress}>查询注册进度</Link>。
                </span>
              }
            />
          ) : null}
          <Button type="primary" htmlType="submit" block loading={checking} data-testid="register-code-next">
            下一步
          </Button>
        </Form>
      ) : null}
      {step === 1 ? (
        <Form<Values>
          form={form}
          layout="vertical"
          onFinish={submit}
          requiredMark
          scrollToFirstError
          onFinishFailed={() => setErrors([])}
        >
          <SaveErrorAlert lines={errors} testId="register-error" />
          <OutboxHint mode={smsMode} phone={sentTo} />
          <Divider titlePlacement="start" plain style={{ marginTop: 0 }}>
            企业信息
          </Divider>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                name="name"
                label="企业名称"
                rules={[{ required: true, whitespace: true, message: M.enterpriseNameRequired }]}
              >
                <Input data-testid="register-name" maxLength={200} placeholder="与营业执照一致" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="统一社会信用代码">
                <Input data-testid="register-code-locked" value={code} disabled />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="enterpriseType"
                label="企业类型"
                rules={[{ required: true, message: M.enterpriseTypeRequired }]}
              >
                {types.length ? (
                  <Select
                    data-testid="register-type"
                    placeholder="请选择企业类型"
                    options={types.map((t) => ({ value: t.value, label: t.label }))}
                  />
                ) : (
                  <Input data-testid="register-type" maxLength={40} placeholder="如：施工企业" />
                )}
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="region" label="所在地区" rules={[{ required: true, message: M.regionRequired }]}>
                <Select
                  data-testid="register-region"
                  placeholder="请选择所在地区"
                  options={REGIONS.map((r) => ({ value: r, label: r }))}
                />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item
                name="address"
                label="详细地址"
                rules={[{ required: true, whitespace: true, message: M.addressRequired }]}
              >
                <Input data-testid="register-address" maxLength={200} placeholder="如：太原市小店区长治路 227 号" />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item
                name="licence"
                label="营业执照"
                extra="PDF 或 JPG、PNG 图片，10 MB 以内"
                rules={[{ required: true, message: M.licenceRequired }]}
              >
                <LicenceUpload uploading={uploading} setUploading={setUploading} onError={setErrors} />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain>
            法定代表人
          </Divider>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                name="legalPerson"
                label="法定代表人姓名"
                rules={[{ required: true, whitespace: true, message: M.legalPersonRequired }]}
              >
                <Input data-testid="register-legal-person" maxLength={50} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="legalPhone" required label="法定代表人手机号" rules={[mobileRule(M.legalPhoneRequired)]}>
                <Input data-testid="register-legal-phone" maxLength={11} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item label="短信验证码" required extra="验证码发送至法定代表人手机，5 分钟内有效">
                <div style={{ display: 'flex', gap: 8 }}>
                  <Form.Item
                    name="smsCode"
                    noStyle
                    rules={[{ required: true, whitespace: true, message: '请输入短信验证码' }]}
                  >
                    <Input data-testid="register-sms-code" maxLength={6} placeholder="6 位数字" />
                  </Form.Item>
                  <SmsCodeButton
                    form={form}
                    phoneField="legalPhone"
                    fields={FIELDS}
                    testId="register-sms-send"
                    send={sendLegalCode}
                    onSent={(s, phone) => {
                      setSmsMode(s.mode);
                      setSentTo(phone);
                      setErrors([]);
                    }}
                    onError={setErrors}
                  />
                </div>
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain>
            联系人
          </Divider>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                name="contactName"
                label="联系人姓名"
                rules={[{ required: true, whitespace: true, message: M.contactRequired }]}
              >
                <Input data-testid="register-contact" maxLength={64} />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item name="contactPhone" required label="联系人手机号" rules={[mobileRule(M.contactPhoneRequired)]}>
                <Input data-testid="register-contact-phone" maxLength={11} />
              </Form.Item>
            </Col>
          </Row>
          <Divider titlePlacement="start" plain>
            企业管理员账号
          </Divider>
          <Row gutter={24}>
            <Col xs={24} md={12}>
              <Form.Item
                name="account"
                label="账号"
                extra="字母开头，字母、数字、下划线，4 到 32 位"
                rules={[
                  { required: true, whitespace: true, message: ACCOUNT_MESSAGES.accountRequired },
                  { pattern: ACCOUNT_PATTERN, message: ACCOUNT_MESSAGES.accountFormat },
                ]}
              >
                <Input data-testid="register-account" maxLength={32} autoComplete="username" />
              </Form.Item>
            </Col>
            <Col xs={0} md={12} />
            <Col xs={24} md={12}>
              <Form.Item
                name="password"
                required
                label="密码"
                extra="8 到 64 位，含大写字母、小写字母、数字、符号中的至少三种，且不能与账号相同"
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
                <Input.Password data-testid="register-password" maxLength={64} autoComplete="new-password" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="confirm"
                required
                label="确认密码"
                dependencies={['password']}
                rules={[
                  ({ getFieldValue }) => ({
                    validator: async (_: unknown, v: string | undefined) => {
                      if (!v) throw new Error('请再次输入密码');
                      if (v !== getFieldValue('password')) throw new Error('两次输入的密码不一致');
                    },
                  }),
                ]}
              >
                <Input.Password data-testid="register-confirm" maxLength={64} autoComplete="new-password" />
              </Form.Item>
            </Col>
          </Row>
          <Actions>
            <Button onClick={() => setStep(0)} disabled={submitting}>
              上一步
            </Button>
            <Button
              type="primary"
              htmlType="submit"
              loading={submitting}
              disabled={uploading}
              data-testid="register-submit"
            >
              提交注册申请
            </Button>
          </Actions>
        </Form>
      ) : null}
      {step === 2 && done ? (
        <Result
          status="success"
          title="注册申请已提交"
          subTitle={
            <span>
              申请编号{' '}
              <Typography.Text strong copyable data-testid="register-application-no">
                {done.applicationNo}
              </Typography.Text>
              ，请妥善保存。平台审核通过后，请法定代表人凭统一社会信用代码、姓名和手机号完成企业激活。
            </span>
          }
          extra={
            <Actions>
              <Link to={`${REGISTER_PATHS.progress}?creditCode=${code}&keyWord=${done.applicationNo}`}>
                <Button type="primary" data-testid="register-to-progress">
                  查询审核进度
                </Button>
              </Link>
              <Link to={REGISTER_PATHS.login}>
                <Button>返回登录</Button>
              </Link>
            </Actions>
          }
        />
      ) : null}
    </RegisterFrame>
  );
}

/** The licence field: one file uploaded at once; the field holds its id and name. */
function LicenceUpload({
  value,
  onChange,
  uploading,
  setUploading,
  onError,
}: {
  value?: { fileId: string; fileName: string };
  onChange?: (v: { fileId: string; fileName: string } | undefined) => void;
  uploading: boolean;
  setUploading: (b: boolean) => void;
  onError: (lines: string[]) => void;
}) {
  return (
    <Upload
      accept=".pdf,.jpg,.jpeg,.png"
      maxCount={1}
      showUploadList={false}
      customRequest={({ file }) => {
        setUploading(true);
        uploadLicence(file as File)
          .then((r) => {
            onChange?.({ fileId: r.fileId, fileName: r.fileName });
            onError([]);
          })
          .catch((err) => onError(formErrors(err, null)))
          .finally(() => setUploading(false));
      }}
    >
      <Button icon={<UploadOutlined />} loading={uploading} data-testid="register-licence">
        {value ? '重新上传' : '上传营业执照'}
      </Button>
      {value ? (
        <Typography.Text data-testid="register-licence-name" style={{ marginLeft: 12 }} type="success">
          {value.fileName}
        </Typography.Text>
      ) : null}
    </Upload>
  );
}
