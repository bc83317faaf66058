import {
  ClusterOutlined,
  HomeOutlined,
  LockOutlined,
  ReloadOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SolutionOutlined,
  UserOutlined,
} from '@ant-design/icons';
import {
  type CaptchaResponse,
  creditCodeInputProblem,
  LOGIN_ROLE_LABELS,
  LOGIN_ROLE_TYPES,
  type LoginRequest,
  type LoginResponse,
  type LoginRoleType,
  type PracticingStatus,
  SESSION_END_REASON_PARAM,
  sessionEndMessage,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Row, Tabs } from 'antd';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { fetchCaptcha, fetchCaptchaNeeded, fetchPublicKey, type LoginFailureData, login } from '../../api/auth';
import { encrypt } from '../../api/crypto';
import { clearLoginPrompt, getLoginPrompt, showLoginPrompt, subscribeLoginPrompt } from '../../api/loginPrompt';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../../api/platform';
import { usePortalConfig } from '../../api/portalConfig';
import { isApiError } from '../../api/request';
import { prompt } from '../../components/prompt';
import { SiteFooter } from '../../components/SiteFooter';
import { requirePasswordChange } from '../../lib/passwordChange';
import { homeUrlOrDefault } from '../../lib/paths';
import { getHomeUrl, saveLogin } from '../../lib/session';
import { PRIMARY_COLOR } from '../../lib/theme';
import { RegisterLinks } from '../register';
import { WechatLoginEntry } from '../wechat';
import { PracticeDialog } from './PracticeDialog';
import { needsPracticeDialog } from './practice';

export const ENCRYPT_FAILED = '登录信息加密失败，请刷新页面后重试';

interface LoginFormValues {
  logValue: string;
  passWord: string;
  code?: string;
}

/** The captcha image as the server sends it (a PNG data URL); only a data:image URL is shown. */
export function captchaSrc(img: string): string {
  return /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(img) ? img : '';
}

const FEATURES = [
  { icon: <SolutionOutlined />, title: '全流程电子化交易', text: '招标、投标、开标、评标、定标在线办理' },
  { icon: <SafetyCertificateOutlined />, title: '市场主体信用管理', text: '信用信息申报、变更与审核全程留痕' },
  { icon: <ClusterOutlined />, title: '业务系统统一入口', text: '一个账号进入各业务系统，待办集中提醒' },
];

function Intro({ platformName }: { platformName: string }) {
  return (
    <div
      style={{
        position: 'relative',
        boxSizing: 'border-box',
        height: '100%',
        minHeight: 560,
        overflow: 'hidden',
        color: '#fff',
        background: `linear-gradient(135deg, ${PRIMARY_COLOR} 0%, #0c4fd6 55%, #08339a 100%)`,
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        padding: '64px 8%',
      }}
    >
      <div
        aria-hidden
        style={{
          position: 'absolute',
          width: 520,
          height: 520,
          right: -180,
          top: -160,
          borderRadius: '50%',
          background: 'rgba(255,255,255,0.07)',
        }}
      />
      <div
        aria-hidden
        style={{
          position: 'absolute',
          width: 360,
          height: 360,
          left: -120,
          bottom: -140,
          borderRadius: '50%',
          background: 'rgba(255,255,255,0.05)',
        }}
      />
      <div style={{ position: 'relative', maxWidth: 560 }}>
        <div style={{ fontSize: 14, letterSpacing: 4, opacity: 0.8, marginBottom: 12 }}>
          PUBLIC RESOURCE TRADING CENTER
        </div>
        <h1 data-testid="login-platform-name" style={{ color: '#fff', fontSize: 34, lineHeight: 1.35, margin: 0 }}>
          {platformName}
        </h1>
        <p style={{ fontSize: 16, lineHeight: 1.9, opacity: 0.9, margin: '20px 0 40px' }}>
          汇聚工程建设招投标、政府采购等公共资源交易业务，提供公开透明的电子化交易服务与市场主体信用管理。
        </p>
        <div style={{ display: 'grid', gap: 18 }}>
          {FEATURES.map((f) => (
            <div key={f.title} style={{ display: 'flex', gap: 14, alignItems: 'flex-start' }}>
              <span
                style={{
                  flex: 'none',
                  width: 40,
                  height: 40,
                  borderRadius: 10,
                  display: 'inline-flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                  fontSize: 20,
                  background: 'rgba(255,255,255,0.16)',
                }}
              >
                {f.icon}
              </span>
              <span>
                <div style={{ fontSize: 16, fontWeight: 600 }}>{f.title}</div>
                <div style={{ fontSize: 13, opacity: 0.8 }}>{f.text}</div>
              </span>
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}

export const LOGIN_HEADING = '欢迎登录';
export const BACK_TO_PORTAL = '返回门户首页';

export interface LoginPageProps {
  /** The card heading: 欢迎登录, or 业务办理 on the business-handling entry (/admin-business, login mode ywbl). */
  heading?: string;
  /** /creditCode: the account is the enterprise's unified social credit code (企业/个人 only, no role tabs) */
  creditCode?: boolean;
}

/** The login screen (spec screen 8): /login, and the landing route `/` in login modes login and ywbl. */
export default function LoginPage({ heading = LOGIN_HEADING, creditCode = false }: LoginPageProps) {
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginFormValues>();
  const { data: platform } = useQuery(platformQuery);
  const platformName = platform?.platformName || DEFAULT_PLATFORM_NAME;
  const promptText = useSyncExternalStore(subscribeLoginPrompt, getLoginPrompt, getLoginPrompt);
  // the public portal is the landing page in login mode ggfw only (elsewhere `/` is this page)
  const portal = usePortalConfig()?.loginMode === 'ggfw';
  // why the last session ended (/login?reason=10017): the request client's prompt went with the page reload
  const [params, setParams] = useSearchParams();
  const [endedBecause, setEndedBecause] = useState(() => sessionEndMessage(params.get(SESSION_END_REASON_PARAM)));
  useEffect(() => {
    if (!params.has(SESSION_END_REASON_PARAM)) return;
    const next = new URLSearchParams(params);
    next.delete(SESSION_END_REASON_PARAM);
    setParams(next, { replace: true });
  }, [params, setParams]);

  const [role, setRole] = useState<LoginRoleType>('U');
  const [submitting, setSubmitting] = useState(false);
  const [captchaRequired, setCaptchaRequired] = useState(false);
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [practice, setPractice] = useState<PracticingStatus | null>(null);
  const afterPracticeRef = useRef<(() => void) | null>(null);

  // A message left from another page must not greet the next visit.
  useEffect(() => () => clearLoginPrompt(), []);

  const refreshCaptcha = useCallback(async () => {
    form.setFieldValue('code', '');
    try {
      setCaptcha(await fetchCaptcha());
    } catch {
      // the request client has put the reason in the login prompt
    }
  }, [form]);

  const goHome = useCallback(() => {
    void navigate(homeUrlOrDefault(getHomeUrl()), { replace: true });
  }, [navigate]);

  const afterLogin = useCallback(
    (res: LoginResponse) => {
      const next = () => {
        if (res.codeStatus === 1) {
          // nothing else is allowed until the password is changed: the dialog first, then home
          requirePasswordChange(goHome);
          return;
        }
        if (needsPracticeDialog(res.codeStatus, res.userInfo.practicingStatus)) {
          afterPracticeRef.current = goHome;
          setPractice(res.userInfo.practicingStatus);
          return;
        }
        goHome();
      };
      // the account was locked since the last sign-in: the owner reads why before going on
      if (res.securityNotice) prompt({ message: res.securityNotice, type: 1, onOk: next });
      else next();
    },
    [goHome],
  );

  // before the password is typed: does this account need a captcha from here now? (an office may share an address)
  const askCaptcha = useCallback(
    async (account: string) => {
      const name = account.trim();
      if (!name || captchaRequired) return;
      try {
        if (await fetchCaptchaNeeded(name)) {
          setCaptchaRequired(true);
          void refreshCaptcha();
        }
      } catch {
        // the sign-in itself will say so
      }
    },
    [captchaRequired, refreshCaptcha],
  );

  const onFinish = async (values: LoginFormValues) => {
    if (submitting) return;
    clearLoginPrompt();
    setEndedBecause(null);
    setSubmitting(true);
    let body: LoginRequest;
    try {
      // a fresh nonce for every attempt: the ciphertexts are bound to it (their OAEP label), so a copy is worthless
      const { publicKey, nonce } = await fetchPublicKey();
      const [logValue, passWord, loginRoleType] = await Promise.all([
        encrypt(values.logValue.trim(), publicKey, nonce),
        encrypt(values.passWord, publicKey, nonce),
        encrypt(role, publicKey, nonce),
      ]);
      body = { logValue, passWord, loginRoleType, nonce };
      if (captchaRequired && captcha) {
        body.uuid = captcha.uuid;
        body.code = (values.code ?? '').trim();
      }
    } catch (err) {
      // a failed public-key request has already been reported through the login prompt
      if (!isApiError(err)) {
        console.error(err);
        showLoginPrompt(ENCRYPT_FAILED);
      }
      setSubmitting(false);
      return;
    }
    try {
      const res = await login(body);
      saveLogin(res);
      setSubmitting(false);
      afterLogin(res);
    } catch (err) {
      setSubmitting(false);
      const data = (isApiError(err) ? err.data : null) as LoginFailureData | null;
      const required = captchaRequired || data?.captchaRequired === true;
      if (required) {
        setCaptchaRequired(true);
        void refreshCaptcha();
      }
    }
  };

  const closePractice = () => {
    setPractice(null);
    const next = afterPracticeRef.current;
    afterPracticeRef.current = null;
    next?.();
  };

  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: '#f3f6fb' }}>
      <Row style={{ flex: 1 }}>
        <Col xs={0} lg={14}>
          <Intro platformName={platformName} />
        </Col>
        <Col
          xs={24}
          lg={10}
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', padding: '48px 24px' }}
        >
          <Card
            style={{ width: '100%', maxWidth: 420, boxShadow: '0 12px 40px rgba(19, 98, 252, 0.12)' }}
            styles={{ body: { padding: '32px 36px 28px' } }}
          >
            {portal ? (
              <div style={{ marginBottom: 4 }}>
                <Link to="/" data-testid="login-portal-link" style={{ fontSize: 13 }}>
                  <HomeOutlined /> {BACK_TO_PORTAL}
                </Link>
              </div>
            ) : null}
            <div style={{ textAlign: 'center', marginBottom: 8 }}>
              <div data-testid="login-heading" style={{ fontSize: 22, fontWeight: 600, color: '#1f2a44' }}>
                {heading}
              </div>
              <div style={{ fontSize: 13, color: '#8a93a6', marginTop: 4 }}>{platformName}</div>
            </div>
            {creditCode ? null : (
              <Tabs
                centered
                activeKey={role}
                onChange={(key) => {
                  setRole(key as LoginRoleType);
                  clearLoginPrompt();
                }}
                items={LOGIN_ROLE_TYPES.map((key) => ({
                  key,
                  label: <span data-testid={`login-role-${key}`}>{LOGIN_ROLE_LABELS[key]}</span>,
                }))}
              />
            )}
            {endedBecause && !promptText ? (
              <Alert
                data-testid="login-ended"
                type="warning"
                showIcon
                title={endedBecause}
                closable={{ onClose: () => setEndedBecause(null) }}
                style={{ marginBottom: 16 }}
              />
            ) : null}
            {promptText ? (
              <Alert
                data-testid="login-prompt"
                type="error"
                showIcon
                title={promptText}
                closable={{ onClose: () => clearLoginPrompt() }}
                style={{ marginBottom: 16 }}
              />
            ) : null}
            <Form<LoginFormValues>
              form={form}
              name="login"
              size="large"
              autoComplete="on"
              onFinish={onFinish}
              requiredMark={false}
              data-testid="login-form"
            >
              <Form.Item
                name="logValue"
                normalize={creditCode ? (v: string) => v.toUpperCase().replace(/\s/g, '') : undefined}
                rules={[
                  creditCode
                    ? {
                        validator: async (_: unknown, v: string | undefined) => {
                          const p = creditCodeInputProblem(v ?? '');
                          if (p) throw new Error(p);
                        },
                      }
                    : { required: true, whitespace: true, message: '请输入账号' },
                ]}
              >
                <Input
                  data-testid="login-account"
                  prefix={<UserOutlined style={{ color: '#9aa3b5' }} />}
                  placeholder={creditCode ? '请输入统一社会信用代码' : '请输入账号'}
                  autoComplete="username"
                  maxLength={64}
                  onBlur={(e) => void askCaptcha(e.target.value)}
                />
              </Form.Item>
              <Form.Item name="passWord" rules={[{ required: true, message: '请输入密码' }]}>
                <Input.Password
                  data-testid="login-password"
                  prefix={<LockOutlined style={{ color: '#9aa3b5' }} />}
                  placeholder="请输入密码"
                  autoComplete="current-password"
                  maxLength={128}
                />
              </Form.Item>
              {captchaRequired ? (
                <Form.Item required>
                  <div style={{ display: 'flex', gap: 12 }}>
                    <Form.Item
                      name="code"
                      noStyle
                      rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}
                    >
                      <Input
                        data-testid="login-captcha"
                        prefix={<SafetyOutlined style={{ color: '#9aa3b5' }} />}
                        placeholder="请输入验证码"
                        autoComplete="off"
                        maxLength={16}
                        style={{ flex: 1 }}
                      />
                    </Form.Item>
                    <button
                      type="button"
                      data-testid="login-captcha-refresh"
                      title="看不清？换一张"
                      onClick={() => void refreshCaptcha()}
                      style={{
                        flex: 'none',
                        width: 120,
                        height: 40,
                        padding: 0,
                        border: '1px solid #d9d9d9',
                        borderRadius: 6,
                        background: '#fff',
                        cursor: 'pointer',
                        overflow: 'hidden',
                      }}
                    >
                      {captcha ? (
                        <img
                          data-testid="login-captcha-img"
                          src={captchaSrc(captcha.img)}
                          alt="验证码"
                          style={{ width: '100%', height: '100%', display: 'block' }}
                        />
                      ) : (
                        <ReloadOutlined />
                      )}
                    </button>
                  </div>
                </Form.Item>
              ) : null}
              <Form.Item style={{ marginBottom: 0 }}>
                <Button type="primary" htmlType="submit" block loading={submitting} data-testid="login-submit">
                  登录
                </Button>
              </Form.Item>
              <div style={{ marginTop: 12, textAlign: 'right', fontSize: 13 }}>
                <Link to="/caLoginPage" data-testid="login-ca-link">
                  <SafetyCertificateOutlined /> 证书登录
                </Link>
              </div>
            </Form>
            <WechatLoginEntry
              onSignedIn={(res) => {
                saveLogin(res);
                afterLogin(res);
              }}
            />
            <RegisterLinks current={creditCode ? 'creditCode' : 'login'} />
          </Card>
        </Col>
      </Row>
      <SiteFooter />
      <PracticeDialog status={practice} onClose={closePractice} />
    </div>
  );
}
