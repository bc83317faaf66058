import { LockOutlined, ReloadOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { CaCertInfo, CaptchaResponse } from '@ks/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { fetchCaptcha, fetchPublicKey, type LoginFailureData } from '../../api/auth';
import { caRegister } from '../../api/ca';
import { encrypt } from '../../api/crypto';
import { isApiError } from '../../api/request';
import { AgentStatus, CaFrame, CertInfoView, CertPicker, chosenOr, failureText, signNonce, useCaAgent } from './parts';

interface Values {
  logValue: string;
  passWord: string;
  code?: string;
}

const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/;

/**
 * /caRegister: bind a CA key's certificate to an enterprise account. The visitor proves the account (account and
 * password, encrypted as on the sign-in page) and the key (its signature over a fresh nonce); the certificate's unified
 * social credit code must be the account's enterprise's. Afterwards the key signs in on /caLogin.
 */
export default function CaRegisterPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const { state, retry, checking } = useCaAgent();
  const [picked, setPicked] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [done, setDone] = useState<CaCertInfo | null>(null);
  const certs = state.status === 'ready' ? state.certs : [];
  const chosenId = chosenOr(certs, picked);
  const chosen = certs.find((c) => c.id === chosenId) ?? null;

  const refreshCaptcha = async () => {
    form.setFieldValue('code', '');
    try {
      setCaptcha(await fetchCaptcha());
    } catch {
      // the request client has said why
    }
  };

  const onFinish = async (values: Values) => {
    if (state.status !== 'ready' || !chosen || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      const { publicKey, nonce: loginNonce } = await fetchPublicKey();
      const [logValue, passWord] = await Promise.all([
        encrypt(values.logValue.trim(), publicKey, loginNonce),
        encrypt(values.passWord, publicKey, loginNonce),
      ]);
      const signed = await signNonce(state.agentUrl, chosen);
      const info = await caRegister({
        ...signed,
        logValue,
        passWord,
        loginNonce,
        ...(captcha ? { uuid: captcha.uuid, code: (values.code ?? '').trim() } : {}),
      });
      setDone(info);
      void queryClient.invalidateQueries({ queryKey: ['ca', 'ent-info'] });
    } catch (err) {
      setError(failureText(err));
      const data = (isApiError(err) ? err.data : null) as LoginFailureData | null;
      if (captcha || data?.captchaRequired) void refreshCaptcha();
    } finally {
      setSubmitting(false);
    }
  };

  if (done) {
    return (
      <CaFrame title="绑定证书" testId="ca-register-page">
        <Result
          status="success"
          title="证书绑定成功"
          subTitle={`${done.holder} 的证书已绑定到 ${done.enterpriseName ?? ''}，今后可插入 CA 锁直接登录。`}
          extra={
            <Button type="primary" onClick={() => navigate('/caLogin')} data-testid="ca-register-to-login">
              去证书登录
            </Button>
          }
          data-testid="ca-register-done"
        />
        <CertInfoView info={done} />
      </CaFrame>
    );
  }

  return (
    <CaFrame title="绑定证书" testId="ca-register-page">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Alert
          type="info"
          showIcon
          title="请插入企业 CA 锁，并输入该企业的账号和密码。证书中的统一社会信用代码须与账号所属企业一致。"
        />
        <AgentStatus state={state} retry={retry} checking={checking} />
        {state.status === 'ready' && certs.length ? (
          <>
            <CertPicker
              certs={certs}
              value={chosenId}
              shownElsewhere={error}
              onChange={(id) => {
                setPicked(id);
                setError(null);
              }}
            />
            <Form<Values>
              form={form}
              name="ca-register"
              size="large"
              onFinish={onFinish}
              requiredMark={false}
              data-testid="ca-register-form"
            >
              <Form.Item name="logValue" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
                <Input
                  prefix={<UserOutlined style={{ color: '#9aa3b5' }} />}
                  placeholder="请输入企业账号"
                  autoComplete="username"
                  maxLength={64}
                  data-testid="ca-register-account"
                />
              </Form.Item>
              <Form.Item name="passWord" rules={[{ required: true, message: '请输入密码' }]}>
                <Input.Password
                  prefix={<LockOutlined style={{ color: '#9aa3b5' }} />}
                  placeholder="请输入密码"
                  autoComplete="current-password"
                  maxLength={128}
                  data-testid="ca-register-password"
                />
              </Form.Item>
              {captcha ? (
                <Form.Item required>
                  <div style={{ display: 'flex', gap: 12 }}>
                    <Form.Item
                      name="code"
                      noStyle
                      rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}
                    >
                      <Input
                        prefix={<SafetyOutlined style={{ color: '#9aa3b5' }} />}
                        placeholder="请输入验证码"
                        autoComplete="off"
                        maxLength={16}
                        style={{ flex: 1 }}
                        data-testid="ca-register-captcha"
                      />
                    </Form.Item>
                    <Button
                      style={{ width: 120, height: 40, padding: 0, overflow: 'hidden' }}
                      title="看不清？换一张"
                      onClick={() => void refreshCaptcha()}
                    >
                      {DATA_IMAGE.test(captcha.img) ? (
                        <img src={captcha.img} alt="验证码" style={{ width: '100%', height: '100%' }} />
                      ) : (
                        <ReloadOutlined />
                      )}
                    </Button>
                  </div>
                </Form.Item>
              ) : null}
              {error ? (
                <Alert
                  type="error"
                  showIcon
                  title={error}
                  style={{ marginBottom: 16 }}
                  data-testid="ca-register-error"
                />
              ) : null}
              <Form.Item style={{ marginBottom: 0 }}>
                <Button
                  type="primary"
                  htmlType="submit"
                  block
                  loading={submitting}
                  disabled={!chosen}
                  data-testid="ca-register-submit"
                >
                  绑定证书
                </Button>
              </Form.Item>
            </Form>
          </>
        ) : null}
      </Space>
    </CaFrame>
  );
}
