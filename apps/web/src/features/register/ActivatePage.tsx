import { creditCodeInputProblem, isValidMobile, REGISTER_MESSAGES as M } from '@ks/contracts';
import { Button, Form, Input, Result, Steps } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import {
  type ActivationBasic,
  activateEnterprise,
  type SmsSent,
  sendActivationCode,
  verifyActivation,
} from '../../api/register';
import { SaveErrorAlert } from '../../components/admin';
import { Actions, formErrors, OutboxHint, REGISTER_PATHS, RegisterFrame, SmsCodeButton } from './shared';

interface Values extends ActivationBasic {
  code?: string;
}

const FIELDS = ['creditCode', 'legalPerson', 'legalPhone', 'code'];

/**
 * 企业激活 (/creditCode/activate): the credit code, the legal representative's name and phone of an approved
 * registration, then the SMS code sent to that phone; the enterprise's account can sign in afterwards.
 */
export default function ActivatePage() {
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [basic, setBasic] = useState<ActivationBasic | null>(null);
  const [match, setMatch] = useState<{ enterpriseName: string; account: string } | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [smsMode, setSmsMode] = useState<SmsSent['mode'] | null>(null);

  const verify = async (v: Values) => {
    setBusy(true);
    setErrors([]);
    const b = {
      creditCode: v.creditCode.trim().toUpperCase(),
      legalPerson: v.legalPerson.trim(),
      legalPhone: v.legalPhone.trim(),
    };
    try {
      setMatch(await verifyActivation(b));
      setBasic(b);
      setStep(1);
    } catch (err) {
      setErrors(formErrors(err, form, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  const activate = async (v: Values) => {
    if (!basic) return;
    setBusy(true);
    setErrors([]);
    try {
      await activateEnterprise({ ...basic, code: (v.code ?? '').trim() });
      setStep(2);
    } catch (err) {
      setErrors(formErrors(err, form, FIELDS));
    } finally {
      setBusy(false);
    }
  };

  return (
    <RegisterFrame
      testId="activate-page"
      title="企业激活"
      subtitle="注册申请审核通过后，由法定代表人验证手机完成激活"
      width={600}
    >
      <Steps
        current={step}
        status={step === 2 ? 'finish' : 'process'}
        size="small"
        style={{ marginBottom: 28 }}
        items={[{ title: '核验企业信息' }, { title: '短信验证' }, { title: '激活完成' }]}
      />
      {step < 2 ? (
        <Form<Values> form={form} layout="vertical" requiredMark={false} onFinish={step === 0 ? verify : activate}>
          <SaveErrorAlert lines={errors} testId="activate-error" />
          <OutboxHint mode={smsMode} phone={basic?.legalPhone} />
          <Form.Item
            name="creditCode"
            label="统一社会信用代码"
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
            <Input data-testid="activate-credit-code" maxLength={18} disabled={step > 0} />
          </Form.Item>
          <Form.Item
            name="legalPerson"
            label="法定代表人姓名"
            rules={[{ required: true, whitespace: true, message: M.legalPersonRequired }]}
          >
            <Input data-testid="activate-legal-person" maxLength={50} disabled={step > 0} />
          </Form.Item>
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
            <Input data-testid="activate-legal-phone" maxLength={11} disabled={step > 0} />
          </Form.Item>
          {step === 1 && match ? (
            <>
              <div style={{ marginBottom: 16, color: '#52607a' }} data-testid="activate-match">
                企业：<b>{match.enterpriseName}</b>，管理员账号：<b>{match.account}</b>
              </div>
              <Form.Item label="短信验证码" required>
                <div style={{ display: 'flex', gap: 8 }}>
                  <Form.Item
                    name="code"
                    noStyle
                    rules={[{ required: true, whitespace: true, message: '请输入短信验证码' }]}
                  >
                    <Input data-testid="activate-code" maxLength={6} placeholder="6 位数字" />
                  </Form.Item>
                  <SmsCodeButton
                    form={form}
                    phoneField="legalPhone"
                    fields={FIELDS}
                    testId="activate-send"
                    send={() => sendActivationCode(basic!)}
                    onSent={(s) => {
                      setSmsMode(s.mode);
                      setErrors([]);
                    }}
                    onError={setErrors}
                  />
                </div>
              </Form.Item>
            </>
          ) : null}
          <Actions>
            {step === 1 ? (
              <Button
                onClick={() => {
                  setStep(0);
                  setMatch(null);
                  setErrors([]);
                }}
              >
                上一步
              </Button>
            ) : null}
            <Button
              type="primary"
              htmlType="submit"
              loading={busy}
              data-testid={step === 0 ? 'activate-verify' : 'activate-submit'}
            >
              {step === 0 ? '下一步' : '激活'}
            </Button>
          </Actions>
          {step === 0 ? (
            <div style={{ textAlign: 'center', marginTop: 16, fontSize: 13 }}>
              还没有注册？<Link to={REGISTER_PATHS.enterprise}>企业注册</Link>　
              <Link to={REGISTER_PATHS.progress}>查询注册进度</Link>
            </div>
          ) : null}
        </Form>
      ) : (
        <Result
          status="success"
          title="企业账号已激活"
          subTitle={`请使用账号 ${match?.account ?? ''} 或统一社会信用代码登录`}
          extra={
            <Actions>
              <Link to={REGISTER_PATHS.creditCodeLogin}>
                <Button type="primary" data-testid="activate-to-login">
                  统一社会信用代码登录
                </Button>
              </Link>
              <Link to={REGISTER_PATHS.login}>
                <Button>账号登录</Button>
              </Link>
            </Actions>
          }
        />
      )}
    </RegisterFrame>
  );
}
