import {
  ACCOUNT_MESSAGES,
  ACCOUNT_PATTERN,
  idNumberInputProblem,
  isValidMobile,
  REGISTER_MESSAGES as M,
  registrationPasswordProblem,
} from '@ks/contracts';
import { Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { fetchPublicKey } from '../../api/auth';
import { encrypt } from '../../api/crypto';
import { registerPerson, type SmsSent, sendPhoneCode, verifyPhoneCode } from '../../api/register';
import { fieldErrorsOf, SaveErrorAlert } from '../../components/admin';
import { Actions, formErrors, OutboxHint, REGISTER_PATHS, RegisterFrame, SmsCodeButton } from './shared';

interface Values {
  realName: string;
  idNumber: string;
  phone: string;
  smsCode: string;
  account: string;
  password: string;
  confirm: string;
}

const FIELDS = ['realName', 'idNumber', 'phone', 'smsCode', 'account', 'password'];
const serverName = (name: (string | number)[]) => (['proof', 'code'].includes(String(name[0])) ? ['smsCode'] : name);

/**
 * 个人实名注册 (/realName): name, resident ID number (check digit and birth date checked as typed, and again by the
 * server), a phone proved by SMS, an account and password. The account signs in at once on the 企业/个人 tab.
 */
export default function RealNamePage() {
  const [form] = Form.useForm<Values>();
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [smsMode, setSmsMode] = useState<SmsSent['mode'] | null>(null);
  const [sentTo, setSentTo] = useState('');
  const [proof, setProof] = useState<{ phone: string; code: string; proof: string } | null>(null);
  const [done, setDone] = useState<{ account: string; userName: string; idNumber: string } | null>(null);

  const submit = async (v: Values) => {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    try {
      const phone = v.phone.trim();
      const smsCode = v.smsCode.trim();
      let p = proof && proof.phone === phone && proof.code === smsCode ? proof.proof : null;
      if (!p) {
        p = (await verifyPhoneCode(phone, 'realname', smsCode)).proof;
        setProof({ phone, code: smsCode, proof: p });
      }
      const { publicKey } = await fetchPublicKey();
      setDone(
        await registerPerson({
          realName: v.realName,
          idNumber: v.idNumber.trim().toUpperCase(),
          phone,
          proof: p,
          account: v.account.trim(),
          password: await encrypt(v.password, publicKey),
        }),
      );
    } catch (err) {
      if (fieldErrorsOf(err).some((f) => ['proof', 'code'].includes(String(f.name[0])))) setProof(null);
      setErrors(formErrors(err, form, FIELDS, serverName));
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <RegisterFrame testId="realname-page" title="个人实名注册" width={600}>
        <Result
          status="success"
          title="注册成功"
          subTitle={
            <span data-testid="realname-done">
              {done.userName}（身份证号 {done.idNumber}），您的账号 <b>{done.account}</b>{' '}
              已可登录，请在「企业/个人」页签登录。
            </span>
          }
          extra={
            <Link to={REGISTER_PATHS.login}>
              <Button type="primary" data-testid="realname-to-login">
                去登录
              </Button>
            </Link>
          }
        />
      </RegisterFrame>
    );
  }

  return (
    <RegisterFrame
      testId="realname-page"
      title="个人实名注册"
      subtitle="请填写本人真实信息，身份证号码注册后不可更改"
      width={600}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        scrollToFirstError
        onFinishFailed={() => setErrors([])}
      >
        <SaveErrorAlert lines={errors} testId="realname-error" />
        <OutboxHint mode={smsMode} phone={sentTo} />
        <Form.Item
          name="realName"
          label="真实姓名"
          rules={[{ required: true, whitespace: true, message: M.realNameRequired }]}
        >
          <Input data-testid="realname-name" maxLength={50} />
        </Form.Item>
        <Form.Item
          name="idNumber"
          required
          label="身份证号码"
          normalize={(v: string) => v.toUpperCase().replace(/\s/g, '')}
          validateTrigger="onBlur"
          rules={[
            {
              validator: async (_: unknown, v: string | undefined) => {
                const p = idNumberInputProblem(v ?? '');
                if (p) throw new Error(p);
              },
            },
          ]}
        >
          <Input data-testid="realname-id" maxLength={18} placeholder="18 位居民身份证号码" />
        </Form.Item>
        <Form.Item
          name="phone"
          required
          label="手机号码"
          rules={[
            {
              validator: async (_: unknown, v: string | undefined) => {
                if (!v?.trim()) throw new Error('请输入手机号码');
                if (!isValidMobile(v.trim())) throw new Error(M.phoneFormat);
              },
            },
          ]}
        >
          <Input data-testid="realname-phone" maxLength={11} />
        </Form.Item>
        <Form.Item label="短信验证码" required>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item
              name="smsCode"
              noStyle
              rules={[{ required: true, whitespace: true, message: '请输入短信验证码' }]}
            >
              <Input data-testid="realname-sms-code" maxLength={6} placeholder="6 位数字" />
            </Form.Item>
            <SmsCodeButton
              form={form}
              phoneField="phone"
              fields={FIELDS}
              testId="realname-sms-send"
              send={(phone) => sendPhoneCode(phone, 'realname')}
              onSent={(s, phone) => {
                setSmsMode(s.mode);
                setSentTo(phone);
                setErrors([]);
              }}
              onError={setErrors}
            />
          </div>
        </Form.Item>
        <Form.Item
          name="account"
          label="账号"
          extra="字母开头，字母、数字、下划线，4 到 32 位"
          rules={[
            { required: true, whitespace: true, message: ACCOUNT_MESSAGES.accountRequired },
            { pattern: ACCOUNT_PATTERN, message: ACCOUNT_MESSAGES.accountFormat },
          ]}
        >
          <Input data-testid="realname-account" maxLength={32} autoComplete="username" />
        </Form.Item>
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
          <Input.Password data-testid="realname-password" maxLength={64} autoComplete="new-password" />
        </Form.Item>
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
          <Input.Password data-testid="realname-confirm" maxLength={64} autoComplete="new-password" />
        </Form.Item>
        <Actions>
          <Button
            type="primary"
            htmlType="submit"
            loading={busy}
            data-testid="realname-submit"
            style={{ minWidth: 200 }}
          >
            注册
          </Button>
        </Actions>
        <div style={{ textAlign: 'center', marginTop: 16, fontSize: 13 }}>
          已有账号？<Link to={REGISTER_PATHS.login}>立即登录</Link>
        </div>
      </Form>
    </RegisterFrame>
  );
}
