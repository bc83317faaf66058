import { CheckCircleFilled, CloseCircleFilled } from '@ant-design/icons';
import type { OpenSection, QualificationCheck } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Card,
  Descriptions,
  Drawer,
  Form,
  Input,
  List,
  Modal,
  Space,
  Spin,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { isApiError } from '../../api/request';
import { openSectionsQuery, registerForSection, registrationCheckQuery, TENDER_KEY } from '../../api/tender';
import { LoadFailure, PageFrame } from '../../components/admin';
import { formatDate, formatDateTime } from '../../lib/format';
import { BidderFiles } from './FilesTab';

const yuan = (v: number) => v.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/**
 * /fiveInOne/registration (投标报名): the sections whose tender notice is published and whose deadline lies ahead.
 * An enterprise registers for one after the platform has checked its qualifications against the notice's requirements
 * (each line says what was required, what the enterprise holds, and why it falls short). Who else registered is never
 * shown here — only the enterprise's own registration.
 */
export default function RegistrationPage() {
  const q = useQuery(openSectionsQuery);
  const [chosen, setChosen] = useState<OpenSection | null>(null);
  const [filesOf, setFilesOf] = useState<OpenSection | null>(null);
  const frame = (children: React.ReactNode) => (
    <PageFrame section={{ title: '招标投标' }} title="投标报名">
      {children}
    </PageFrame>
  );
  if (q.isError) return frame(<LoadFailure error={q.error as Error} what="查看可报名标段" />);
  const columns: TableColumnsType<OpenSection> = [
    {
      title: '项目 / 标段',
      key: 'name',
      width: 320,
      render: (_v, s) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{s.projectName}</Typography.Text>
          <Typography.Text type="secondary">
            {s.projectCode} · {s.sectionCode} {s.sectionName}
          </Typography.Text>
        </Space>
      ),
    },
    { title: '招标人', dataIndex: 'tenderee', width: 200, ellipsis: true },
    {
      title: '资格要求',
      key: 'qual',
      width: 240,
      render: (_v, s) =>
        s.qualLabels ? (
          <Typography.Text>
            {s.qualLabels}
            {s.qualLabels.includes(';') ? <Tag style={{ marginLeft: 4 }}>{s.qualRelation}</Tag> : null}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">未设资质等级要求</Typography.Text>
        ),
    },
    {
      title: '业绩要求',
      dataIndex: 'perfRequirement',
      width: 220,
      render: (v: string | null) =>
        v ? <Typography.Text>{v}</Typography.Text> : <Typography.Text type="secondary">无</Typography.Text>,
    },
    { title: '投标保证金（元）', dataIndex: 'deposit', width: 140, align: 'right', render: yuan },
    {
      title: '文件发售期',
      key: 'sale',
      width: 200,
      render: (_v, s) => `${formatDate(s.docSaleStart)} 至 ${formatDate(s.docSaleEnd)}`,
    },
    { title: '投标截止', dataIndex: 'bidDeadline', width: 160, render: (v: string) => formatDateTime(v) },
    {
      title: '报名',
      key: 'ops',
      width: 150,
      fixed: 'right',
      render: (_v, s) =>
        s.registeredAt ? (
          <Space orientation="vertical" size={4}>
            <Tag color="success" data-testid={`registered-${s.sectionId}`}>
              已报名 {formatDateTime(s.registeredAt)}
            </Tag>
            <Button size="small" onClick={() => setFilesOf(s)} data-testid={`files-${s.sectionId}`}>
              招标文件
            </Button>
          </Space>
        ) : (
          <Button type="primary" size="small" onClick={() => setChosen(s)} data-testid={`register-${s.sectionId}`}>
            报名
          </Button>
        ),
    },
  ];
  return frame(
    <Card data-testid="registration-page">
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="报名时平台按招标公告的资格要求自动核验本单位资质（等级须不低于要求；「或」具备任一项即可，「且」须全部具备）。开标前不公开报名单位。"
      />
      <Table<OpenSection>
        rowKey="sectionId"
        size="small"
        loading={q.isLoading}
        columns={columns}
        dataSource={q.data?.records ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 1450 }}
        locale={{ emptyText: '暂无可报名的标段（招标公告发布后、投标截止前可报名）' }}
        data-testid="registration-table"
      />
      {chosen ? <RegisterDialog section={chosen} onClose={() => setChosen(null)} /> : null}
      <Drawer
        open={filesOf !== null}
        onClose={() => setFilesOf(null)}
        size={880}
        title={filesOf ? `招标文件：${filesOf.projectName} ${filesOf.sectionCode} ${filesOf.sectionName}` : '招标文件'}
        destroyOnHidden
        data-testid="bidder-files-drawer"
      >
        {filesOf ? <BidderFiles sectionId={filesOf.sectionId} /> : null}
      </Drawer>
    </Card>,
  );
}

function CheckLines({ check }: { check: QualificationCheck }) {
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert
        type={check.ok ? 'success' : 'error'}
        showIcon
        message={check.summary}
        data-testid="registration-check-summary"
      />
      {check.lines.length ? (
        <List
          size="small"
          bordered
          dataSource={check.lines}
          data-testid="registration-check-lines"
          renderItem={(l) => (
            <List.Item>
              <Space>
                {l.ok ? (
                  <CheckCircleFilled style={{ color: '#52c41a' }} aria-label="符合" />
                ) : (
                  <CloseCircleFilled style={{ color: '#ff4d4f' }} aria-label="不符合" />
                )}
                <Typography.Text>要求：{l.requirement}</Typography.Text>
                <Typography.Text type={l.ok ? 'secondary' : 'danger'}>
                  {l.ok ? `持有 ${l.held}（证书编号 ${l.certNo}）` : l.reason}
                </Typography.Text>
              </Space>
            </List.Item>
          )}
        />
      ) : null}
    </Space>
  );
}

function RegisterDialog({ section, onClose }: { section: OpenSection; onClose: () => void }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const check = useQuery(registrationCheckQuery(section.sectionId));
  const [form] = Form.useForm<{ contact: string; phone: string }>();
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<{ message: string; check: QualificationCheck | null } | null>(null);
  const ok = check.data?.ok === true && !refused;
  const submit = async () => {
    let v: { contact: string; phone: string };
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      await registerForSection({ sectionId: section.sectionId, contact: v.contact.trim(), phone: v.phone.trim() });
      void message.success('报名成功');
      await queryClient.invalidateQueries({ queryKey: TENDER_KEY });
      onClose();
    } catch (e) {
      const data = isApiError(e) ? (e.data as QualificationCheck | null) : null;
      setRefused({
        message: isApiError(e) ? e.message : '报名失败，请稍后重试',
        check: data && Array.isArray(data.lines) ? data : null,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={`报名：${section.sectionCode} ${section.sectionName}`}
      width={720}
      onCancel={onClose}
      okText="确认报名"
      okButtonProps={{ disabled: !ok, loading: busy, 'data-testid': 'registration-submit' } as ButtonProps}
      onOk={() => void submit()}
      data-testid="registration-dialog"
    >
      <Descriptions size="small" column={1} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label="项目">{`${section.projectName}（${section.projectCode}）`}</Descriptions.Item>
        <Descriptions.Item label="资格要求">
          {section.qualLabels
            ? `${section.qualLabels}${section.qualLabels.includes(';') ? `（${section.qualRelation === '且' ? '须全部具备' : '具备任一项即可'}）` : ''}`
            : '未设资质等级要求'}
        </Descriptions.Item>
        <Descriptions.Item label="业绩要求">{section.perfRequirement ?? '未设业绩要求'}</Descriptions.Item>
        <Descriptions.Item label="投标截止">{formatDateTime(section.bidDeadline)}</Descriptions.Item>
      </Descriptions>
      <Typography.Title level={5}>资格核验</Typography.Title>
      {check.isLoading ? <Spin /> : null}
      {check.isError ? <Alert type="error" showIcon message={(check.error as Error).message} /> : null}
      {refused ? (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 12 }}>
          <Alert type="error" showIcon message={refused.message} data-testid="registration-refused" />
        </Space>
      ) : null}
      {check.data ? <CheckLines check={refused?.check ?? check.data} /> : null}
      <Form form={form} layout="inline" style={{ marginTop: 16 }} disabled={!check.data?.ok}>
        <Form.Item
          name="contact"
          label="联系人"
          rules={[{ required: true, whitespace: true, message: '请填写联系人' }]}
        >
          <Input maxLength={20} data-testid="registration-contact" />
        </Form.Item>
        <Form.Item
          name="phone"
          label="联系电话"
          rules={[
            { required: true, message: '请填写联系电话' },
            { pattern: /^1[3-9]\d{9}$/, message: '请输入 11 位手机号码' },
          ]}
        >
          <Input maxLength={11} data-testid="registration-phone" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
