import { LockOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { OPENING_DECRYPT_MINUTES_DEFAULT, type OpeningHall } from '@ks/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ButtonProps } from 'antd';
import { Alert, App, Button, Descriptions, Form, Input, InputNumber, Modal, Space, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { bidKeyByIdQuery } from '../../api/bids';
import { caConfigQuery } from '../../api/ca';
import {
  openingDecrypt,
  openingHallKey,
  openingStart,
  setHall,
  type UnwrappedBid,
  unwrapForOpening,
} from '../../api/opening';
import { isApiError } from '../../api/request';
import { formatMoney } from '../../lib/format';

/** The dialogs of the opening hall (issue 17): 开标, 解密投标文件, and a text (异议 / 答复). */

const testIdProps = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** 开标: the host names the decryption time (minutes) and confirms. */
export function StartDialog({ hall, open, onClose }: { hall: OpeningHall; open: boolean; onClose: () => void }) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ decryptMinutes: number }>();
  const start = useMutation({
    mutationFn: (decryptMinutes: number) => openingStart({ sectionId: hall.section.id, decryptMinutes }),
    onSuccess: (h) => {
      setHall(qc, h);
      onClose();
      void message.success(h.status === 'failed' ? '投标人不足，该标段流标' : '已开标，投标人开始解密');
    },
  });
  return (
    <Modal
      open={open}
      title="开标"
      okText="确认开标"
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={start.isPending}
      onOk={() =>
        form.validateFields().then(
          (v) => start.mutate(v.decryptMinutes),
          () => undefined,
        )
      }
      okButtonProps={testIdProps('opening-start-ok')}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        title="开标后立即开始解密计时，投标人须在解密时限内提交文件密钥；逾期未解密的投标文件不予唱标。开标不可撤销。"
      />
      <Form
        form={form}
        preserve={false}
        layout="inline"
        initialValues={{ decryptMinutes: OPENING_DECRYPT_MINUTES_DEFAULT }}
      >
        <Form.Item
          name="decryptMinutes"
          label="解密时限（分钟）"
          rules={[
            { required: true, message: '请输入解密时限' },
            { type: 'integer', message: '解密时限应为整数分钟' },
            { type: 'number', min: 1, max: 240, message: '解密时限为 1–240 分钟' },
          ]}
        >
          <InputNumber<number> min={1} max={240} step={5} data-testid="opening-start-minutes" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
        {hall.section.projectName} {hall.section.code} {hall.section.name}：已签到 {hall.signedInCount} 家。
      </Typography.Paragraph>
    </Modal>
  );
}

/** A text the hall asks for: an objection (异议) or the host's answer (答复). */
export function TextDialog({
  open,
  title,
  label,
  min,
  hint,
  okText,
  textTestId,
  okTestId,
  run,
  onClose,
}: {
  open: boolean;
  title: string;
  label: string;
  min: number;
  hint?: string;
  okText: string;
  textTestId: string;
  okTestId: string;
  run: (text: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [form] = Form.useForm<{ text: string }>();
  const send = useMutation({ mutationFn: run, onSuccess: onClose });
  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      cancelText="取消"
      onCancel={onClose}
      confirmLoading={send.isPending}
      onOk={() =>
        form.validateFields().then(
          (v) => send.mutate(v.text.trim()),
          () => undefined,
        )
      }
      okButtonProps={testIdProps(okTestId)}
      destroyOnHidden
    >
      {hint && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {hint}
        </Typography.Paragraph>
      )}
      <Form form={form} preserve={false} layout="vertical">
        <Form.Item
          name="text"
          label={label}
          rules={[
            { required: true, whitespace: true, message: `请填写${label}` },
            {
              validator: (_, v: string | undefined) => {
                const n = (v ?? '').trim().length;
                if (n === 0) return Promise.resolve();
                if (n < min) return Promise.reject(new Error(`${label}至少 ${min} 个字`));
                if (n > 500) return Promise.reject(new Error(`${label}不超过 500 字`));
                return Promise.resolve();
              },
            },
          ]}
        >
          <Input.TextArea rows={5} maxLength={500} showCount data-testid={textTestId} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The bidder's own 开标一览表, as opened in this browser. */
function OwnSummary({ unwrapped }: { unwrapped: UnwrappedBid }) {
  const s = unwrapped.summary;
  if (!s) return <Alert type="warning" showIcon title="该投标文件封存时未附开标一览表" />;
  return (
    <Descriptions
      size="small"
      bordered
      column={2}
      title="本单位开标一览表（已在本浏览器中解开）"
      data-testid="opening-own-summary"
      items={[
        { key: 'price', label: '投标报价（元）', children: formatMoney(s.price) },
        { key: 'duration', label: '工期（日历天）', children: s.durationDays },
        { key: 'quality', label: '质量标准', children: s.quality },
        { key: 'manager', label: '项目经理', children: s.manager },
      ]}
    />
  );
}

/**
 * 解密投标文件: the bidder unwraps the bid's file key in this browser — with the passphrase, or with the CA key through
 * the local signing agent — sees the 开标一览表 it opens, and hands the key over (openingDecrypt). The key never leaves
 * the browser before 提交文件密钥.
 */
export function DecryptDialog({ hall, open, onClose }: { hall: OpeningHall; open: boolean; onClose: () => void }) {
  const bid = hall.mine?.bid ?? null;
  const qc = useQueryClient();
  const { message } = App.useApp();
  const key = useQuery({ ...bidKeyByIdQuery(open && bid ? bid.keyId : '') });
  const ca = useQuery({ ...caConfigQuery, enabled: open });
  const agentUrl = ca.data?.enabled ? ca.data.agentUrl : null;
  const [tab, setTab] = useState<'passphrase' | 'ca' | null>(null);
  const activeTab = tab ?? (key.data?.kind === 'ca' ? 'ca' : 'passphrase');
  const unwrap = useMutation({
    mutationFn: (secret: { passphrase: string } | { agentUrl: string }) => unwrapForOpening(bid!, secret),
  });
  const submit = useMutation({
    mutationFn: (fileKey: string) => openingDecrypt({ bidId: bid!.id, fileKey }),
    onSuccess: (h) => {
      setHall(qc, h);
      close();
      void message.success('文件密钥已提交，投标文件已解密');
    },
    onError: (e) => {
      void qc.invalidateQueries({ queryKey: openingHallKey(hall.section.id) });
      // past the decryption time, or the hall moved on: nothing more to do here (the server's message says why)
      if (isApiError(e) && (e.status === 403 || e.status === 409)) close();
    },
  });
  const close = () => {
    unwrap.reset();
    submit.reset();
    setTab(null);
    onClose();
  };
  const unwrapped = unwrap.data;
  const error = unwrap.error ?? (submit.error && !isApiError(submit.error) ? submit.error : null);
  return (
    <Modal
      open={open}
      title="解密投标文件"
      onCancel={close}
      width={720}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button
            type="primary"
            disabled={!unwrapped}
            loading={submit.isPending}
            onClick={() => unwrapped && submit.mutate(unwrapped.fileKey)}
            data-testid="opening-submit-key"
          >
            提交文件密钥
          </Button>
        </Space>
      }
    >
      {!bid ? (
        <Alert type="info" showIcon title="贵单位在该标段没有封存的投标文件" />
      ) : (
        <Space orientation="vertical" style={{ width: '100%' }} size={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            投标文件「{bid.fileName}
            」的文件密钥在本浏览器中解开，先核对解开的开标一览表，再提交文件密钥；服务器以之解密所存密文并核对封存时的
            SHA-256。
          </Typography.Paragraph>
          {!unwrapped && (
            <Tabs
              size="small"
              activeKey={activeTab}
              onChange={(k) => setTab(k as 'passphrase' | 'ca')}
              items={[
                {
                  key: 'passphrase',
                  label: (
                    <span>
                      <LockOutlined /> 口令解密
                    </span>
                  ),
                  children: (
                    <Form
                      layout="inline"
                      onFinish={(v: { passphrase: string }) => unwrap.mutate({ passphrase: v.passphrase })}
                      data-testid="opening-passphrase-form"
                    >
                      <Form.Item name="passphrase" rules={[{ required: true, message: '请输入解密口令' }]}>
                        <Input.Password
                          placeholder="投标加密密钥的口令"
                          autoComplete="off"
                          style={{ width: 260 }}
                          data-testid="opening-passphrase"
                        />
                      </Form.Item>
                      <Button type="primary" htmlType="submit" loading={unwrap.isPending} data-testid="opening-unwrap">
                        解开文件密钥
                      </Button>
                    </Form>
                  ),
                },
                {
                  key: 'ca',
                  label: (
                    <span>
                      <SafetyCertificateOutlined /> CA 锁解密
                    </span>
                  ),
                  children: (
                    <Space orientation="vertical" style={{ width: '100%' }}>
                      <Typography.Text>
                        插入加密时所用的 CA 锁
                        {key.data?.kind === 'ca' && key.data.caHolder ? `（${key.data.caHolder}）` : ''}
                        ，由证书签名助手解开文件密钥。
                      </Typography.Text>
                      {ca.data && !agentUrl ? (
                        <Alert type="warning" showIcon title="平台未配置 CA 证书签名助手，无法用 CA 锁解密" />
                      ) : (
                        <Button
                          type="primary"
                          disabled={!agentUrl}
                          loading={unwrap.isPending}
                          onClick={() => agentUrl && unwrap.mutate({ agentUrl })}
                          data-testid="opening-unwrap-ca"
                        >
                          用 CA 锁解开文件密钥
                        </Button>
                      )}
                    </Space>
                  ),
                },
              ]}
            />
          )}
          {error && <Alert type="error" showIcon title={error.message} data-testid="opening-unwrap-error" />}
          {unwrapped && (
            <>
              <OwnSummary unwrapped={unwrapped} />
              <Alert
                type="info"
                showIcon
                title="核对无误后提交文件密钥：提交后服务器解密您的投标文件，唱标时按开标一览表唱出。"
              />
            </>
          )}
        </Space>
      )}
    </Modal>
  );
}
