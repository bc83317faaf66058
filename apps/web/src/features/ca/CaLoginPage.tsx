import { CA_MSG, type LoginResponse, type PracticingStatus } from '@ks/contracts';
import { Alert, Button, Space } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { caSignIn } from '../../api/ca';
import { prompt } from '../../components/prompt';
import { requirePasswordChange } from '../../lib/passwordChange';
import { homeUrlOrDefault } from '../../lib/paths';
import { getHomeUrl, saveLogin } from '../../lib/session';
import { needsPracticeDialog, PracticeDialog } from '../auth';
import { AgentStatus, CaFrame, CertPicker, chosenOr, failureText, signNonce, useCaAgent } from './parts';

/**
 * /caLogin: sign in with a CA key (CA锁). The local signing agent lists the keys' certificates; the server reads the
 * chosen one (its enterprise, whether it is bound); 证书登录 signs a fresh nonce with the key and signs in as the
 * enterprise user who bound the certificate — then home, as the password sign-in goes.
 */
export default function CaLoginPage() {
  const navigate = useNavigate();
  const { state, retry, checking } = useCaAgent();
  const [picked, setPicked] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [practice, setPractice] = useState<PracticingStatus | null>(null);
  const afterPracticeRef = useRef<(() => void) | null>(null);
  const certs = state.status === 'ready' ? state.certs : [];
  const chosenId = chosenOr(certs, picked);
  const chosen = certs.find((c) => c.id === chosenId) ?? null;

  const goHome = useCallback(() => {
    void navigate(homeUrlOrDefault(getHomeUrl()), { replace: true });
  }, [navigate]);

  const afterLogin = (res: LoginResponse) => {
    const next = () => {
      if (res.codeStatus === 1) {
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
    if (res.securityNotice) prompt({ message: res.securityNotice, type: 1, onOk: next });
    else next();
  };

  const onSignIn = async () => {
    if (state.status !== 'ready' || !chosen || submitting) return;
    setSubmitting(true);
    setError(null);
    try {
      const res = await caSignIn(await signNonce(state.agentUrl, chosen));
      saveLogin(res);
      setSubmitting(false);
      afterLogin(res);
    } catch (err) {
      setSubmitting(false);
      setError(failureText(err));
    }
  };

  return (
    <CaFrame title="证书登录" testId="ca-login-page">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
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
            {error ? (
              <Alert
                type="error"
                showIcon
                title={error}
                data-testid="ca-login-error"
                action={
                  error === CA_MSG.notBound ? (
                    <Button size="small" type="link" onClick={() => navigate('/caRegister')}>
                      去绑定
                    </Button>
                  ) : undefined
                }
              />
            ) : null}
            <Button
              type="primary"
              size="large"
              block
              loading={submitting}
              disabled={!chosen}
              onClick={() => void onSignIn()}
              data-testid="ca-login-submit"
            >
              证书登录
            </Button>
          </>
        ) : null}
      </Space>
      <PracticeDialog
        status={practice}
        onClose={() => {
          setPractice(null);
          const next = afterPracticeRef.current;
          afterPracticeRef.current = null;
          next?.();
        }}
      />
    </CaFrame>
  );
}
