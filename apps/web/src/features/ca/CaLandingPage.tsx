import { CheckCircleFilled, CloseCircleFilled, LoadingOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Steps, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { AgentStatus, CaFrame, useCaAgent } from './parts';

/**
 * /caLoginPage: the CA sign-in landing — whether the key's driver and signing agent answer, what to install, and the
 * ways on (证书登录, 绑定证书).
 */
export default function CaLandingPage() {
  const navigate = useNavigate();
  const { state, retry, checking } = useCaAgent();
  const ready = state.status === 'ready';
  const icon =
    state.status === 'loading' ? (
      <LoadingOutlined />
    ) : ready && state.certs.length ? (
      <CheckCircleFilled style={{ color: '#52c41a' }} />
    ) : (
      <CloseCircleFilled style={{ color: '#ff4d4f' }} />
    );
  return (
    <CaFrame title="CA 证书登录" testId="ca-landing-page">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <div data-testid="ca-landing-status">
          <Space>
            {icon}
            <Typography.Text strong>
              {state.status === 'loading'
                ? '正在检测证书驱动/签名助手…'
                : ready
                  ? state.certs.length
                    ? `签名助手已启动，读取到 ${state.certs.length} 张证书`
                    : '签名助手已启动，未读取到证书'
                  : state.status === 'agentDown'
                    ? '驱动/签名助手未启动'
                    : '证书登录尚未配置'}
            </Typography.Text>
          </Space>
        </div>
        {ready && state.certs.length ? null : <AgentStatus state={state} retry={retry} checking={checking} />}
        <Steps
          orientation="vertical"
          size="small"
          current={-1}
          items={[
            {
              title: '安装驱动与签名助手',
              content:
                '首次使用请安装 CA 机构提供的 CA 锁驱动和证书签名助手（随 CA 锁附带，或向发证机构获取），安装后保持签名助手运行。',
            },
            { title: '插入 CA 锁', content: '将企业 CA 锁插入本机 USB 接口，页面会自动读取证书。' },
            {
              title: '首次使用先绑定证书',
              content: '用企业账号和密码将证书绑定到企业账号；绑定后即可插锁登录，无需输入密码。',
            },
          ]}
        />
        <Alert
          type="info"
          showIcon
          title="证书须由平台信任的 CA 机构签发且在有效期内，证书中的统一社会信用代码须与企业一致。"
        />
        <Space style={{ width: '100%', justifyContent: 'center' }} size={12}>
          <Button type="primary" size="large" onClick={() => navigate('/caLogin')} data-testid="ca-landing-login">
            证书登录
          </Button>
          <Button size="large" onClick={() => navigate('/caRegister')} data-testid="ca-landing-register">
            绑定证书
          </Button>
        </Space>
      </Space>
    </CaFrame>
  );
}
