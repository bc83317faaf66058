import { SafetyCertificateOutlined } from '@ant-design/icons';
import {
  CA_EXPIRY_LABELS,
  CA_MSG,
  type CaAgentCert,
  type CaCertInfo,
  type CaExpiryState,
  type CaSigned,
} from '@ks/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Select, Skeleton, Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { caConfigQuery, fetchCaEntInfo, fetchCaNonce } from '../../api/ca';
import { DEFAULT_PLATFORM_NAME, platformQuery } from '../../api/platform';
import { SiteFooter } from '../../components/SiteFooter';
import { AgentError, agentSign, listAgentCerts } from '../../lib/caAgent';
import { formatDate } from '../../lib/format';

/** The CA pages' shared pieces: the agent's state, the certificate picker, the signing, the frame. */

export type AgentState =
  | { status: 'loading' }
  | { status: 'notConfigured'; message: string }
  | { status: 'agentDown'; message: string }
  | { status: 'ready'; agentUrl: string; certs: CaAgentCert[] };

/** CA sign-in's configuration and the certificates the local signing agent offers (asked again by retry). */
export function useCaAgent(): { state: AgentState; retry: () => void; checking: boolean } {
  const config = useQuery(caConfigQuery);
  const agentUrl = config.data?.enabled ? config.data.agentUrl : null;
  const certs = useQuery({
    queryKey: ['ca', 'agent', agentUrl],
    queryFn: () => listAgentCerts(agentUrl as string),
    enabled: Boolean(agentUrl),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });
  const retry = () => {
    if (config.isError) void config.refetch();
    else void certs.refetch();
  };
  let state: AgentState;
  if (config.isPending) state = { status: 'loading' };
  else if (config.isError) state = { status: 'notConfigured', message: config.error.message };
  else if (!config.data.enabled || !config.data.agentUrl) {
    state = { status: 'notConfigured', message: config.data.message ?? CA_MSG.notConfigured };
  } else if (certs.isPending) state = { status: 'loading' };
  else if (certs.isError) {
    const e = certs.error;
    state = {
      status: 'agentDown',
      message: e instanceof AgentError && e.kind === 'refused' ? `${e.message}` : CA_MSG.agentDown,
    };
  } else state = { status: 'ready', agentUrl: config.data.agentUrl, certs: certs.data };
  return { state, retry, checking: config.isFetching || certs.isFetching };
}

/** What the page says about the agent: not configured, not running (with 重试), or no certificate. */
export function AgentStatus({ state, retry, checking }: { state: AgentState; retry: () => void; checking: boolean }) {
  if (state.status === 'loading') return <Skeleton active paragraph={{ rows: 2 }} data-testid="ca-agent-loading" />;
  if (state.status === 'notConfigured') {
    return <Alert type="warning" showIcon title={state.message} data-testid="ca-not-configured" />;
  }
  const retryButton = (
    <Button size="small" onClick={retry} loading={checking} data-testid="ca-agent-retry">
      重试
    </Button>
  );
  if (state.status === 'agentDown') {
    return (
      <Alert
        type="error"
        showIcon
        title="驱动/签名助手未启动"
        description={state.message}
        action={retryButton}
        data-testid="ca-agent-down"
      />
    );
  }
  if (!state.certs.length) {
    return (
      <Alert type="warning" showIcon title={CA_MSG.noCertificates} action={retryButton} data-testid="ca-no-certs" />
    );
  }
  return null;
}

export function ExpiryTag({ expiry, notAfter }: { expiry: CaExpiryState; notAfter?: string }) {
  const color = expiry === 'expired' ? 'error' : expiry === 'expiring' ? 'warning' : 'success';
  return (
    <Space size={4}>
      {notAfter ? <span>{formatDate(notAfter)}</span> : null}
      <Tag color={color} data-testid={`ca-expiry-${expiry}`}>
        {CA_EXPIRY_LABELS[expiry]}
      </Tag>
    </Space>
  );
}

const ALGORITHM_LABELS: Record<CaCertInfo['algorithm'], string> = { RSA: 'RSA', ECDSA: 'ECDSA', SM2: 'SM2（国密）' };
export const algorithmLabel = (a: CaCertInfo['algorithm']) => ALGORITHM_LABELS[a] ?? a;

/** The checked certificate as the server read it. */
export function CertInfoView({ info }: { info: CaCertInfo }) {
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      data-testid="ca-cert-info"
      styles={{ label: { width: 140, whiteSpace: 'nowrap' } }}
    >
      <Descriptions.Item label="证书持有者">{info.holder}</Descriptions.Item>
      <Descriptions.Item label="对应企业">
        {info.enterpriseName ?? <Tag color="warning">{CA_MSG.notRegistered}</Tag>}
      </Descriptions.Item>
      <Descriptions.Item label="统一社会信用代码">{info.creditCode}</Descriptions.Item>
      <Descriptions.Item label="颁发机构">{info.issuer}</Descriptions.Item>
      <Descriptions.Item label="算法">{algorithmLabel(info.algorithm)}</Descriptions.Item>
      <Descriptions.Item label="有效期至">
        <ExpiryTag expiry={info.expiry} notAfter={info.notAfter} />
      </Descriptions.Item>
      <Descriptions.Item label="绑定状态">
        {info.bound ? (
          <Tag color="success" data-testid="ca-bound">
            已绑定
          </Tag>
        ) : (
          <Tag data-testid="ca-unbound">未绑定</Tag>
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The server's reading of a certificate (ent-info): its info, or the refusal (expired, foreign …) in words. */
export function useCertInfo(cert: CaAgentCert | null) {
  return useQuery({
    queryKey: ['ca', 'ent-info', cert?.certificate ?? ''],
    queryFn: () => fetchCaEntInfo(cert!.certificate),
    enabled: Boolean(cert),
    retry: false,
    staleTime: 0,
  });
}

/** Choose one of the agent's certificates; the server's reading of it below. */
export function CertPicker({
  certs,
  value,
  onChange,
  shownElsewhere,
}: {
  certs: CaAgentCert[];
  value: string | null;
  onChange: (id: string) => void;
  /** a message the page shows already (the same refusal after 证书登录): not repeated here */
  shownElsewhere?: string | null;
}) {
  const chosen = certs.find((c) => c.id === value) ?? null;
  const info = useCertInfo(chosen);
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Select<string>
        style={{ width: '100%' }}
        placeholder="请选择证书"
        value={value ?? undefined}
        onChange={onChange}
        options={certs.map((c) => ({ value: c.id, label: c.label || c.id }))}
        data-testid="ca-cert-select"
        suffixIcon={<SafetyCertificateOutlined />}
      />
      {chosen ? (
        info.isPending ? (
          <Skeleton active paragraph={{ rows: 3 }} />
        ) : info.isError ? (
          info.error.message === shownElsewhere ? null : (
            <Alert type="error" showIcon title={info.error.message} data-testid="ca-cert-error" />
          )
        ) : (
          <CertInfoView info={info.data} />
        )
      ) : null}
    </Space>
  );
}

/** The first certificate, chosen when the list arrives and nothing is chosen yet. */
export function chosenOr(certs: CaAgentCert[], id: string | null): string | null {
  if (id && certs.some((c) => c.id === id)) return id;
  return certs[0]?.id ?? null;
}

/** A fresh nonce signed by the chosen key through the agent: the body of every CA call. */
export async function signNonce(agentUrl: string, cert: CaAgentCert): Promise<CaSigned> {
  const { nonce } = await fetchCaNonce();
  const signature = await agentSign(agentUrl, cert.id, nonce);
  return { certificate: cert.certificate, nonce, signature };
}

/** The message of a failure of the agent or the server, in words. */
export function failureText(err: unknown): string {
  if (err instanceof AgentError) return err.kind === 'unreachable' ? CA_MSG.agentDown : err.message;
  if (err instanceof Error && err.message) return err.message;
  return '操作失败，请重试';
}

/** The frame of the public CA pages: a centred card under the platform's name, links back, the footer. */
export function CaFrame({ title, children, testId }: { title: string; children: ReactNode; testId: string }) {
  const { data: platform } = useQuery(platformQuery);
  const platformName = platform?.platformName || DEFAULT_PLATFORM_NAME;
  return (
    <div style={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', background: '#f3f6fb' }}>
      <div style={{ flex: 1, display: 'flex', justifyContent: 'center', padding: '48px 16px' }}>
        <Card
          style={{
            width: '100%',
            maxWidth: 560,
            alignSelf: 'flex-start',
            boxShadow: '0 12px 40px rgba(19,98,252,.10)',
          }}
          styles={{ body: { padding: '28px 32px' } }}
          data-testid={testId}
        >
          <div style={{ textAlign: 'center', marginBottom: 20 }}>
            <div style={{ fontSize: 22, fontWeight: 600, color: '#1f2a44' }} data-testid="ca-heading">
              <SafetyCertificateOutlined style={{ color: '#1362fc', marginRight: 8 }} />
              {title}
            </div>
            <div style={{ fontSize: 13, color: '#8a93a6', marginTop: 4 }}>{platformName}</div>
          </div>
          {children}
          <div style={{ marginTop: 20, textAlign: 'center', fontSize: 13 }}>
            <Space separator={<span style={{ color: '#d0d5dd' }}>|</span>}>
              <Link to="/caLoginPage">证书登录说明</Link>
              <Link to="/caLogin">证书登录</Link>
              <Link to="/caRegister">绑定证书</Link>
              <Link to="/login">账号登录</Link>
            </Space>
          </div>
        </Card>
      </div>
      <SiteFooter />
    </div>
  );
}
