import {
  DEPOSIT_STATUS_LABELS,
  type Deposit,
  GUARANTEE_STATUS_LABELS,
  type Guarantee,
  type GuaranteeStatus,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../components/admin';
import {
  applicationFormHref,
  applyGuarantee,
  confirmReceived,
  DEPOSITS_KEY,
  depositsQuery,
  downloadLetter,
  guaranteeResult,
  payDeposit,
  refundDeposit,
  retryGuarantee,
} from './api';
import { when, yuan } from './format';

/**
 * 保证金与保函 `/custom/guarantee`: a bidder's deposits for the sections their enterprise registered for (pay into the
 * virtual sub-account, or apply for an electronic guarantee letter instead) and their guarantee letters (status,
 * issuer, download); for the trading centre every bidder's, with 确认到账 and 退还. What may be done comes from the
 * server (`operations`); its refusals are shown as it words them.
 */
const DEPOSIT_COLORS: Record<Deposit['status'], string> = {
  unpaid: 'default',
  paid: 'processing',
  received: 'success',
  refunded: 'purple',
};
const LETTER_COLORS: Record<GuaranteeStatus, string> = {
  applying: 'processing',
  rejected: 'error',
  requested: 'warning',
  processing: 'processing',
  issued: 'success',
  failed: 'error',
};

function errorText(e: unknown) {
  return e instanceof Error ? e.message : '操作失败，请稍后再试';
}

export default function GuaranteePage() {
  const q = useQuery(depositsQuery());
  const client = useQueryClient();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [paying, setPaying] = useState<Deposit | null>(null);
  const [refunding, setRefunding] = useState<Deposit | null>(null);
  const [form] = Form.useForm<{ payerAccount: string; payerBank: string }>();
  const [refundForm] = Form.useForm<{ note: string }>();
  const data = q.data;
  const centre = data?.deposits.some((d) => d.operations.receive || d.operations.refund) ?? false;
  const showBidder = (data?.deposits ?? []).some((d, _i, all) => d.enterpriseId !== all[0]?.enterpriseId);

  const run = async (key: string, work: () => Promise<unknown>) => {
    setBusy(key);
    setError(null);
    try {
      await work();
      await client.invalidateQueries({ queryKey: DEPOSITS_KEY });
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(null);
    }
  };

  const pay = async () => {
    if (!paying) return;
    // an invalid form shows its messages beside the fields
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const ok = await run(`pay-${paying.sectionId}`, () =>
      payDeposit({
        sectionId: paying.sectionId,
        amount: paying.amount,
        payerAccount: v.payerAccount,
        payerBank: v.payerBank,
      }),
    );
    if (ok) {
      setPaying(null);
      form.resetFields();
    }
  };
  const refund = async () => {
    if (!refunding?.id) return;
    const v = await refundForm.validateFields().catch(() => null);
    if (!v) return;
    const ok = await run(`refund-${refunding.id}`, () =>
      refundDeposit({ id: refunding.id!, version: refunding.version, note: v.note }),
    );
    if (ok) {
      setRefunding(null);
      refundForm.resetFields();
    }
  };
  const apply = (d: Deposit) =>
    run(`apply-${d.sectionId}`, async () => {
      const r = await applyGuarantee(d.sectionId);
      void navigate(applicationFormHref(r.id));
    });

  const depositColumns = [
    {
      title: '项目 / 标段',
      key: 'section',
      render: (_: unknown, d: Deposit) => (
        <div>
          <div>{d.projectName ?? '—'}</div>
          <Typography.Text type="secondary">
            {d.projectCode} · {d.sectionCode} {d.sectionName}
          </Typography.Text>
        </div>
      ),
    },
    ...(showBidder || centre ? [{ title: '投标人', dataIndex: 'enterpriseName', key: 'ent' }] : []),
    {
      title: '保证金（元）',
      key: 'amount',
      align: 'right' as const,
      render: (_: unknown, d: Deposit) => yuan(d.amount),
    },
    { title: '虚拟子账号', dataIndex: 'virtualAccount', key: 'va' },
    {
      title: '状态',
      key: 'status',
      render: (_: unknown, d: Deposit) => (
        <Space size={4} wrap>
          <Tag color={DEPOSIT_COLORS[d.status]} data-testid={`deposit-status-${d.sectionCode}`}>
            {DEPOSIT_STATUS_LABELS[d.status]}
          </Tag>
          {d.securedBy === 'guarantee' ? <Tag color="success">保函替代</Tag> : null}
        </Space>
      ),
    },
    {
      title: '缴纳 / 到账 / 退还',
      key: 'times',
      render: (_: unknown, d: Deposit) => (
        <div style={{ fontSize: 12 }}>
          <div>缴纳：{d.paidAt ? `${when(d.paidAt)}（${d.paidBy}）` : '—'}</div>
          <div>到账：{d.receivedAt ? `${when(d.receivedAt)}（${d.receivedBy}）` : '—'}</div>
          <div>退还：{d.refundedAt ? `${when(d.refundedAt)}（${d.refundedBy}）` : '—'}</div>
        </div>
      ),
    },
    { title: '缴纳截止', key: 'due', render: (_: unknown, d: Deposit) => when(d.dueAt) },
    {
      title: '操作',
      key: 'ops',
      render: (_: unknown, d: Deposit) => (
        <Space size={4} wrap>
          {d.operations.pay ? (
            <Button size="small" type="link" data-testid={`deposit-pay-${d.sectionCode}`} onClick={() => setPaying(d)}>
              缴纳
            </Button>
          ) : null}
          {d.operations.applyGuarantee ? (
            <Button
              size="small"
              type="link"
              loading={busy === `apply-${d.sectionId}`}
              data-testid={`deposit-apply-${d.sectionCode}`}
              onClick={() => void apply(d)}
            >
              申请保函
            </Button>
          ) : null}
          {d.operations.receive && d.id ? (
            <Button
              size="small"
              type="link"
              loading={busy === `recv-${d.id}`}
              onClick={() => void run(`recv-${d.id}`, () => confirmReceived({ id: d.id!, version: d.version }))}
            >
              确认到账
            </Button>
          ) : null}
          {d.operations.refund ? (
            <Button size="small" type="link" onClick={() => setRefunding(d)}>
              退还
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  const letterColumns = [
    {
      title: '标段',
      key: 'section',
      render: (_: unknown, g: Guarantee) => (
        <div>
          <div>{g.projectName ?? '—'}</div>
          <Typography.Text type="secondary">
            {g.sectionCode} {g.sectionName}
          </Typography.Text>
        </div>
      ),
    },
    ...(centre || showBidder ? [{ title: '投标人', dataIndex: 'enterpriseName', key: 'ent' }] : []),
    {
      title: '金额（元）',
      key: 'amount',
      align: 'right' as const,
      render: (_: unknown, g: Guarantee) => yuan(g.amount),
    },
    { title: '出函机构', key: 'issuer', render: (_: unknown, g: Guarantee) => g.issuerName ?? '—' },
    { title: '保函编号', key: 'no', render: (_: unknown, g: Guarantee) => g.guaranteeNo ?? '—' },
    {
      title: '状态',
      key: 'status',
      render: (_: unknown, g: Guarantee) => (
        <div>
          <Tag color={LETTER_COLORS[g.status]} data-testid={`letter-status-${g.sectionCode}`}>
            {GUARANTEE_STATUS_LABELS[g.status]}
          </Tag>
          {g.lastError ? (
            <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }}>
              {g.lastError}
            </Typography.Text>
          ) : null}
        </div>
      ),
    },
    {
      title: '申请 / 出函',
      key: 'times',
      render: (_: unknown, g: Guarantee) => (
        <div style={{ fontSize: 12 }}>
          <div>
            申请：{when(g.appliedAt)}（{g.appliedBy}）
          </div>
          <div>出函：{when(g.issuedAt)}</div>
        </div>
      ),
    },
    {
      title: '操作',
      key: 'ops',
      render: (_: unknown, g: Guarantee) => (
        <Space size={4} wrap>
          {g.operations.download ? (
            <Button
              size="small"
              type="link"
              data-testid={`letter-download-${g.sectionCode}`}
              loading={busy === `dl-${g.id}`}
              onClick={() => void run(`dl-${g.id}`, () => downloadLetter(g.id, g.fileName ?? '投标保函.pdf'))}
            >
              下载
            </Button>
          ) : null}
          {g.operations.edit ? (
            <Button size="small" type="link" onClick={() => void navigate(applicationFormHref(g.id))}>
              填写申请
            </Button>
          ) : null}
          {g.status === 'requested' || g.status === 'processing' ? (
            <Button size="small" type="link" onClick={() => void run(`res-${g.id}`, () => guaranteeResult(g.id))}>
              查询结果
            </Button>
          ) : null}
          {g.operations.retry ? (
            <Button size="small" type="link" onClick={() => void run(`retry-${g.id}`, () => retryGuarantee(g.id))}>
              重新出函
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  return (
    <PageFrame section={{ title: '电子保函' }} title="保证金与保函" wide>
      <div data-testid="guarantee-page">
        {data && !data.issuer.configured ? (
          <Alert
            type="warning"
            showIcon
            data-testid="guarantee-issuer-missing"
            style={{ marginBottom: 12 }}
            message="未配置出函机构，暂不能申请电子保函"
            description="可按下表的虚拟子账号缴纳现金保证金；如需以电子保函替代，请联系交易中心配置出函机构。"
          />
        ) : null}
        {data?.issuer.configured ? (
          <Typography.Paragraph type="secondary">
            出函机构：{data.issuer.name}。电子保函经审核通过后由出函机构出具，出具后即可替代现金保证金。
          </Typography.Paragraph>
        ) : null}
        {error ? (
          <Alert
            type="error"
            showIcon
            closable
            onClose={() => setError(null)}
            message={error}
            style={{ marginBottom: 12 }}
            data-testid="guarantee-error"
          />
        ) : null}
        {q.isError ? <Alert type="error" showIcon message={errorText(q.error)} /> : null}
        <Typography.Title level={5}>投标保证金</Typography.Title>
        <Table<Deposit>
          data-testid="deposit-table"
          rowKey={(d) => `${d.sectionId}:${d.enterpriseId}`}
          loading={q.isLoading}
          columns={depositColumns}
          dataSource={data?.deposits ?? []}
          pagination={false}
          size="small"
          locale={{ emptyText: '暂无保证金：报名标段后，这里显示应缴的保证金' }}
        />
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          电子保函
        </Typography.Title>
        <Table<Guarantee>
          data-testid="letter-table"
          rowKey="id"
          loading={q.isLoading}
          columns={letterColumns}
          dataSource={data?.guarantees ?? []}
          pagination={false}
          size="small"
          locale={{ emptyText: '暂无电子保函' }}
        />
      </div>
      <Modal
        title="缴纳投标保证金"
        open={paying !== null}
        onCancel={() => setPaying(null)}
        onOk={() => void pay()}
        okText="确认缴纳"
        confirmLoading={busy?.startsWith('pay-')}
        destroyOnHidden
      >
        {paying ? (
          <>
            <Typography.Paragraph>
              标段 {paying.sectionCode} {paying.sectionName}，保证金 <b>{yuan(paying.amount)}</b>{' '}
              元，请从本单位账户汇入虚拟子账号 <b>{paying.virtualAccount}</b>，缴纳截止 {when(paying.dueAt)}。
            </Typography.Paragraph>
            <Form form={form} layout="vertical">
              <Form.Item
                name="payerAccount"
                label="付款账号"
                rules={[{ required: true, pattern: /^\d{8,30}$/, message: '付款账号为 8–30 位数字' }]}
              >
                <Input data-testid="deposit-payer-account" maxLength={30} />
              </Form.Item>
              <Form.Item
                name="payerBank"
                label="付款银行"
                rules={[{ required: true, whitespace: true, message: '请填写付款银行' }]}
              >
                <Input data-testid="deposit-payer-bank" maxLength={60} />
              </Form.Item>
            </Form>
          </>
        ) : null}
      </Modal>
      <Modal
        title="退还投标保证金"
        open={refunding !== null}
        onCancel={() => setRefunding(null)}
        onOk={() => void refund()}
        okText="确认退还"
        destroyOnHidden
      >
        <Form form={refundForm} layout="vertical">
          <Form.Item
            name="note"
            label="退还说明"
            rules={[{ required: true, whitespace: true, message: '请填写退还说明' }]}
          >
            <Input maxLength={200} />
          </Form.Item>
        </Form>
      </Modal>
    </PageFrame>
  );
}
