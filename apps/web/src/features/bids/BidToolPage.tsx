import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Progress, Result, Space, Typography } from 'antd';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  bidKeyByIdQuery,
  bidOverviewQuery,
  type TestDecryption,
  testDecrypt,
  type UploadProgress,
} from '../../api/bids';
import { caConfigQuery } from '../../api/ca';
import { LoadFailure, PageFrame } from '../../components/admin';
import { useCurrentUser } from '../../lib/sessionHooks';
import { formatBytes, formatTime, Receipt } from './parts';
import { BID_FILES_PATH } from './paths';

const TITLE = '投标文件解密自检';

function Match({ ok, what, value }: { ok: boolean; what: string; value: string }) {
  return (
    <Space>
      {ok ? <CheckCircleFilled style={{ color: '#52c41a' }} /> : <CloseCircleFilled style={{ color: '#ff4d4f' }} />}
      <span data-testid={`check-${what}`}>{ok ? '与回执一致' : '与回执不一致'}</span>
      <Typography.Text code style={{ fontSize: 12 }}>
        {value}
      </Typography.Text>
    </Space>
  );
}

function Tool({ sectionId }: { sectionId: string }) {
  const overview = useQuery(bidOverviewQuery(sectionId));
  const sealedKeyId = overview.data?.files.find((x) => x.status === 'sealed')?.keyId ?? '';
  const key = useQuery(bidKeyByIdQuery(sealedKeyId));
  const ca = useQuery({ ...caConfigQuery, enabled: key.data?.kind === 'ca' });
  const agentUrl = ca.data?.enabled ? ca.data.agentUrl : null;
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const run = useMutation({
    mutationFn: (v: { passphrase: string } | { agentUrl: string }) => {
      const f = overview.data!.files.find((x) => x.status === 'sealed')!;
      return testDecrypt(
        {
          id: f.id,
          sectionId: f.sectionId,
          fileName: f.fileName,
          plainSize: f.plainSize,
          cipherSize: f.cipherSize,
          cipherSha256: f.cipherSha256!,
          plainSha256: f.plainSha256!,
          sealedAt: f.sealedAt!,
          keyFingerprint: '',
          chunkCount: f.chunkCount,
          wrappedKey: f.wrappedKey,
          keyId: f.keyId,
        },
        v,
        setProgress,
      );
    },
    onSettled: () => setProgress(null),
  });
  if (overview.error) return <LoadFailure error={overview.error} what="投标文件" />;
  if (!overview.data) return <Card loading />;
  const { section, files } = overview.data;
  const sealed = files.find((f) => f.status === 'sealed');
  const result: TestDecryption | undefined = run.data;
  return (
    <Card
      size="small"
      title={`${section.projectName} ${section.code} ${section.name}`}
      extra={<Link to={BID_FILES_PATH}>返回投标文件</Link>}
    >
      {!sealed ? (
        <Alert type="info" showIcon message="该标段没有已封存的投标文件" />
      ) : !section.open ? (
        <Alert type="warning" showIcon message="投标截止时间已过：投标文件在开标时由您解密" />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            从服务器取回您的密文，在本浏览器中用您的口令解开私钥并逐段解密，核对密文与明文的 SHA-256
            是否与回执一致。解密的内容不离开本浏览器，也不保存。
          </Typography.Paragraph>
          <Receipt
            receipt={{
              id: sealed.id,
              sectionId: sealed.sectionId,
              fileName: sealed.fileName,
              plainSize: sealed.plainSize,
              cipherSize: sealed.cipherSize,
              cipherSha256: sealed.cipherSha256!,
              plainSha256: sealed.plainSha256!,
              sealedAt: sealed.sealedAt!,
              keyFingerprint: '—',
            }}
          />
          {key.error ? (
            <LoadFailure error={key.error} what="加密密钥" />
          ) : !key.data ? null : key.data.kind === 'ca' ? (
            <Space direction="vertical" style={{ width: '100%' }} data-testid="bid-tool-ca">
              <Typography.Text>
                这份文件的密钥在 CA 证书（{key.data.caHolder ?? '—'}）中：插入该 CA 锁，由证书签名助手解开文件密钥。
              </Typography.Text>
              {ca.data && !agentUrl ? (
                <Alert type="warning" showIcon message="平台未配置 CA 证书签名助手，无法用 CA 证书解密" />
              ) : (
                <Button
                  type="primary"
                  disabled={!agentUrl}
                  loading={run.isPending}
                  onClick={() => agentUrl && run.mutate({ agentUrl })}
                  data-testid="bid-tool-run-ca"
                >
                  用 CA 证书解密自检
                </Button>
              )}
            </Space>
          ) : (
            <Form layout="inline" onFinish={(v: { passphrase: string }) => run.mutate(v)} data-testid="bid-tool-form">
              <Form.Item name="passphrase" rules={[{ required: true, message: '请输入解密口令' }]}>
                <Input.Password placeholder="解密口令" data-testid="bid-tool-passphrase" autoComplete="off" />
              </Form.Item>
              <Button type="primary" htmlType="submit" loading={run.isPending} data-testid="bid-tool-run">
                解密自检
              </Button>
            </Form>
          )}
          {progress && (
            <Progress
              percent={Math.round((progress.done / Math.max(1, progress.total)) * 100)}
              size="small"
              status="active"
            />
          )}
          {run.error && <Alert type="error" showIcon message={run.error.message} data-testid="bid-tool-error" />}
          {result && (
            <Descriptions size="small" column={1} bordered data-testid="bid-tool-result">
              <Descriptions.Item label="解密">
                <span data-testid="bid-tool-verdict">
                  {result.plainMatches && result.cipherMatches ? '解密成功，文件完好' : '文件与回执不符'}
                </span>
                （明文 {formatBytes(result.plainSize)}，{formatTime(new Date().toISOString())} 自检）
              </Descriptions.Item>
              <Descriptions.Item label="密文 SHA-256">
                <Match ok={result.cipherMatches} what="cipher" value={result.cipherSha256} />
              </Descriptions.Item>
              <Descriptions.Item label="明文 SHA-256">
                <Match ok={result.plainMatches} what="plain" value={result.plainSha256} />
              </Descriptions.Item>
            </Descriptions>
          )}
        </Space>
      )}
    </Card>
  );
}

/** 投标文件解密自检 `/sealedBid/tool?sectionId=`: the bidder test-decrypts their own sealed bid before the deadline. */
export default function BidToolPage() {
  const [params] = useSearchParams();
  const sectionId = params.get('sectionId') ?? '';
  const { userInfo } = useCurrentUser();
  const bidder = userInfo?.loginRoleType === 'U' && Boolean(userInfo.enterpriseName);
  return (
    <PageFrame section={{ title: '招标投标' }} title={TITLE}>
      {!bidder ? (
        <Result status="info" title="解密自检只供投标人检查自己的投标文件" />
      ) : sectionId ? (
        <Tool sectionId={sectionId} />
      ) : (
        <Result
          status="info"
          title="请从投标文件列表选择要自检的标段"
          extra={<Link to={BID_FILES_PATH}>投标文件</Link>}
        />
      )}
    </PageFrame>
  );
}
