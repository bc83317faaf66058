import { LockOutlined, SafetyCertificateOutlined, UploadOutlined } from '@ant-design/icons';
import type { BidKeyState, BidReceipt, BidSections, BidSummary } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Progress, Result, Space, Table, Tag, Typography } from 'antd';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import {
  BIDS_KEY,
  bidKeyQuery,
  bidSectionsQuery,
  saveBidKey,
  type UploadProgress,
  uploadSealedBid,
  withdrawBid,
} from '../../api/bids';
import { isApiError } from '../../api/request';
import { ConfirmAction, LoadFailure, PageFrame } from '../../components/admin';
import { makePassphraseKey } from '../../lib/bidCrypto';
import { useCurrentUser } from '../../lib/sessionHooks';
import { formatTime, Receipt } from './parts';
import { bidToolHref } from './paths';
import { SummaryDialog } from './summary';

const TITLE = '投标文件加密递交';
type SectionRow = BidSections[number];

/** The bidder's encryption key: a passphrase-protected key pair made here, or a bound RSA CA certificate. */
function KeyCard({ state }: { state: BidKeyState }) {
  const qc = useQueryClient();
  const [form] = Form.useForm<{ passphrase: string; again: string }>();
  const [changing, setChanging] = useState(false);
  const save = useMutation({
    mutationFn: async (v: { kind: 'passphrase'; passphrase: string } | { kind: 'ca'; caBindingId: string }) =>
      saveBidKey(v.kind === 'ca' ? v : await makePassphraseKey(v.passphrase)),
    onSuccess: () => {
      setChanging(false);
      form.resetFields();
      void qc.invalidateQueries({ queryKey: BIDS_KEY });
    },
  });
  const key = state.key;
  const usable = state.certificates.filter((c) => c.usable);
  return (
    <Card size="small" title="投标加密密钥" style={{ marginBottom: 16 }} data-testid="bid-key-card">
      {key && !changing ? (
        <Space direction="vertical" style={{ width: '100%' }}>
          <div data-testid="bid-key-current">
            {key.kind === 'ca' ? (
              <Tag icon={<SafetyCertificateOutlined />} color="blue">
                CA 证书：{key.caHolder}
              </Tag>
            ) : (
              <Tag icon={<LockOutlined />} color="green">
                口令保护的密钥（RSA-OAEP，私钥仅以您的口令加密保存）
              </Tag>
            )}
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              公钥指纹 {key.fingerprint}
            </Typography.Text>
          </div>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            投标文件在您的浏览器中加密后才上传；服务器只保存密文，任何人（包括平台管理员）在开标时您解密之前都无法读取。
            {key.kind === 'passphrase' && '请牢记口令：口令遗失则无法解密，平台也无法找回。'}
          </Typography.Paragraph>
          <Button size="small" onClick={() => setChanging(true)} data-testid="bid-key-change">
            更换密钥
          </Button>
        </Space>
      ) : (
        <Space direction="vertical" style={{ width: '100%' }}>
          {!key && <Alert type="info" showIcon message="递交投标文件前，请先设置加密密钥" />}
          {changing && (
            <Alert
              type="warning"
              showIcon
              message="更换后新上传的文件使用新密钥；已递交的文件仍须用原密钥（原口令）解密"
            />
          )}
          {usable.length > 0 && (
            <Space wrap>
              {usable.map((c) => (
                <Button
                  key={c.id}
                  icon={<SafetyCertificateOutlined />}
                  loading={save.isPending}
                  onClick={() => save.mutate({ kind: 'ca', caBindingId: c.id })}
                  data-testid="bid-key-use-ca"
                >
                  使用 CA 证书（{c.holder}）
                </Button>
              ))}
            </Space>
          )}
          <Form
            form={form}
            layout="inline"
            onFinish={(v) => save.mutate({ kind: 'passphrase', passphrase: v.passphrase })}
            data-testid="bid-key-form"
          >
            <Form.Item
              name="passphrase"
              rules={[
                { required: true, message: '请输入口令' },
                { min: 8, message: '口令至少 8 位' },
              ]}
            >
              <Input.Password
                placeholder="设置解密口令（至少 8 位）"
                data-testid="bid-passphrase"
                autoComplete="new-password"
              />
            </Form.Item>
            <Form.Item
              name="again"
              dependencies={['passphrase']}
              rules={[
                { required: true, message: '请再次输入口令' },
                ({ getFieldValue }) => ({
                  validator: (_, v) =>
                    v === getFieldValue('passphrase')
                      ? Promise.resolve()
                      : Promise.reject(new Error('两次输入的口令不一致')),
                }),
              ]}
            >
              <Input.Password
                placeholder="再次输入口令"
                data-testid="bid-passphrase-again"
                autoComplete="new-password"
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="bid-key-create">
              生成密钥
            </Button>
            {changing && <Button onClick={() => setChanging(false)}>取消</Button>}
          </Form>
          {save.isPending && <Typography.Text type="secondary">正在浏览器中生成密钥…</Typography.Text>}
        </Space>
      )}
    </Card>
  );
}

/**
 * Upload (or replace) the section's bid: choose the file, fill in its 开标一览表, encrypt both here, send the
 * ciphertext, show the receipt.
 */
function UploadCell({ row, state }: { row: SectionRow; state: BidKeyState }) {
  const qc = useQueryClient();
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<File | null>(null);
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [receipt, setReceipt] = useState<BidReceipt | null>(null);
  const upload = useMutation({
    mutationFn: (v: { file: File; summary: BidSummary }) =>
      uploadSealedBid(row.id, v.file, state.key!, v.summary, setProgress),
    onSuccess: (r) => {
      setReceipt(r);
      void qc.invalidateQueries({ queryKey: BIDS_KEY });
    },
    onSettled: () => setProgress(null),
  });
  if (!row.open) return <Tag>投标已截止</Tag>;
  return (
    <Space direction="vertical" size={4}>
      <Space wrap>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="bid-file-input"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) setChosen(f);
          }}
        />
        <SummaryDialog
          fileName={chosen?.name ?? ''}
          open={chosen !== null}
          onCancel={() => setChosen(null)}
          onOk={(summary) => {
            const file = chosen!;
            setChosen(null);
            upload.mutate({ file, summary });
          }}
        />
        <Button
          size="small"
          type="primary"
          icon={<UploadOutlined />}
          disabled={!state.key || upload.isPending}
          onClick={() => input.current?.click()}
          data-testid="bid-upload"
        >
          {row.sealed ? '替换' : '加密上传'}
        </Button>
        {row.sealed && (
          <>
            <Link to={bidToolHref(row.id)} data-testid="bid-tool-link">
              解密自检
            </Link>
            <ConfirmAction
              title="撤回后该标段视为未递交投标文件，确定撤回？"
              run={() => withdrawBid(row.sealed!.id)}
              successText="投标文件已撤回"
              onDone={() => {
                setReceipt(null);
                void qc.invalidateQueries({ queryKey: BIDS_KEY });
              }}
              danger
              testId="bid-withdraw"
            >
              撤回
            </ConfirmAction>
          </>
        )}
      </Space>
      {progress && (
        <Progress
          percent={Math.round((progress.done / progress.total) * 100)}
          size="small"
          status="active"
          format={() => `加密上传 ${progress.done}/${progress.total}`}
          data-testid="bid-progress"
        />
      )}
      {upload.error && !isApiError(upload.error) && (
        <Alert type="error" showIcon title={upload.error.message} data-testid="bid-upload-error" />
      )}
      {receipt && (
        <Alert
          type="success"
          showIcon
          message="投标文件已加密封存，请保存回执"
          description={<Receipt receipt={receipt} />}
        />
      )}
    </Space>
  );
}

function BidFiles() {
  const key = useQuery(bidKeyQuery);
  const sections = useQuery(bidSectionsQuery);
  if (key.error || sections.error) return <LoadFailure error={(key.error ?? sections.error)!} what="投标文件" />;
  if (!key.data || !sections.data) return <Card loading />;
  const state = key.data;
  return (
    <>
      <KeyCard state={state} />
      <Card size="small" title="已报名的标段">
        <Table<SectionRow>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={sections.data}
          data-testid="bid-sections"
          locale={{ emptyText: '贵单位尚未报名任何标段' }}
          expandable={{
            rowExpandable: (r) => Boolean(r.sealed),
            expandedRowRender: (r) => (r.sealed ? <Receipt receipt={r.sealed} /> : null),
          }}
          columns={[
            { title: '项目', dataIndex: 'projectName', ellipsis: true },
            { title: '标段', key: 'section', width: 200, render: (_, r) => `${r.code} ${r.name}` },
            { title: '投标截止', dataIndex: 'bidDeadline', width: 170, render: (v: string) => formatTime(v) },
            {
              title: '投标文件',
              key: 'sealed',
              width: 260,
              render: (_, r) =>
                r.sealed ? (
                  <Space direction="vertical" size={0} data-testid="bid-sealed">
                    <Tag color="green" icon={<LockOutlined />}>
                      已加密封存
                    </Tag>
                    <Typography.Text style={{ fontSize: 12 }}>
                      {r.sealed.fileName}（{formatTime(r.sealed.sealedAt)}）
                    </Typography.Text>
                  </Space>
                ) : (
                  <Tag>未递交</Tag>
                ),
            },
            { title: '操作', key: 'ops', width: 320, render: (_, r) => <UploadCell row={r} state={state} /> },
          ]}
        />
      </Card>
    </>
  );
}

/**
 * 投标文件加密递交 `/sealedBid/index` (issue 16; the sidebar's 招标管理 › 投标文件加密递交): the bidder's key, the sections
 * their enterprise registered for, encrypted upload with the receipt, replacement and withdrawal before the deadline.
 */
export default function BidFilesPage() {
  const { userInfo } = useCurrentUser();
  const bidder = userInfo?.loginRoleType === 'U' && Boolean(userInfo.enterpriseName);
  return (
    <PageFrame section={{ title: '招标投标' }} title={TITLE}>
      {bidder ? (
        <BidFiles />
      ) : (
        <div data-testid="bid-not-bidder">
          <Result
            status="info"
            title="投标文件由投标企业在自己的浏览器中加密递交"
            subTitle="开标解密前，任何人（包括平台管理员）都不能下载或预览投标文件的内容。"
          />
        </div>
      )}
    </PageFrame>
  );
}
