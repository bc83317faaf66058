import {
  NOTICE_MESSAGES,
  type NoticeKind,
  type QualRelation,
  type TenderNotice,
  type TenderNoticeInput,
  type TenderProject,
  type TenderSection,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Input,
  Radio,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { Link } from 'react-router';
import { saveTenderNotice, sectionNoticesKey, sectionNoticesQuery, submitTenderNotice } from '../../api/tender';
import { LoadFailure, SaveErrorAlert } from '../../components/admin';
import { applySaveError } from '../../components/admin/saveErrors';
import { LazyRichTextEditor } from '../../components/editor/LazyRichTextEditor';
import { isEditableStatus, statusMeta } from '../../engine/model';
import { formatDateTime } from '../../lib/format';
import { ENGINE_PAGES } from '../../lib/paths';
import { QualificationDialog } from './QualificationDialog';
import { SectionSwitch } from './SectionSwitch';

interface NoticeForm {
  title: string;
  bodyHtml: string;
  qualLabels: string;
  qualItems: string[];
  qualRelation: QualRelation;
  affectsBids: boolean;
  newDeadline: Dayjs | null;
  reason: string;
}

const FIELDS = ['title', 'bodyHtml', 'qualItems', 'qualRelation', 'affectsBids', 'newDeadline', 'reason'];

/**
 * 招标公告: the section's tender notice and its change notices. The project's side writes a notice — title, text in
 * the rich-text editor, qualification requirements from the qualification dialog (screen 14) with 且 / 或 — saves it
 * and submits it into review; when the review passes it is published on the portal's transaction information. Once
 * the tender notice is out, amendments go as change notices (变更公告), which move the deadline when the 15-day rule
 * asks for it. Others see the notices and their state.
 */
export function NoticeTab({ project }: { project: TenderProject }) {
  if (project.sections.length === 0) return <Empty description="请先在「项目信息」中划分标段，再为标段编写招标公告" />;
  if (project.status !== 'passed') {
    return <Empty description={NOTICE_MESSAGES.projectNotPassed} data-testid="notice-project-pending" />;
  }
  return (
    <SectionSwitch sections={project.sections} testId="notice-section">
      {(section) => (
        <SectionNotices key={section.id} section={section} projectName={String(project.values.xmmc ?? '')} />
      )}
    </SectionSwitch>
  );
}

function SectionNotices({ section, projectName }: { section: TenderSection; projectName: string }) {
  const queryClient = useQueryClient();
  const q = useQuery(sectionNoticesQuery(section.id));
  const [editing, setEditing] = useState<TenderNotice | 'new' | null>(null);
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看招标公告" />;
  if (!q.data) return <Card loading />;
  const d = q.data;
  const refresh = () => queryClient.invalidateQueries({ queryKey: sectionNoticesKey(section.id) });
  const published = Boolean(d.publishedAt);
  const pending = d.notices.some((n) => n.status === 'pending');
  const kind: NoticeKind = published ? '变更公告' : '招标公告';
  const detailHref = (id: string) =>
    `${ENGINE_PAGES.dynamic.detail}?${new URLSearchParams({ systemCoding: 'ZBTB', gnCoding: 'ZBTB_ZBGG', id })}`;

  const columns: TableColumnsType<TenderNotice> = [
    { title: '公告类型', dataIndex: 'kind', width: 100 },
    { title: '公告标题', dataIndex: 'title', ellipsis: true },
    {
      title: '状态',
      dataIndex: 'status',
      width: 100,
      render: (s: string) => <Tag color={statusMeta(s).tag}>{statusMeta(s).text}</Tag>,
    },
    { title: '更新时间', dataIndex: 'updatedAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'ops',
      width: 150,
      render: (_v, n) => (
        <Space size={4}>
          {d.canEdit && isEditableStatus(n.status) ? (
            <Button type="link" size="small" onClick={() => setEditing(n)} data-testid={`notice-edit-${n.id}`}>
              编辑
            </Button>
          ) : null}
          <Link to={detailHref(n.id)}>审核记录</Link>
        </Space>
      ),
    },
  ];

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      {published ? (
        <Alert
          type="success"
          showIcon
          data-testid="notice-published"
          message={`招标公告已于 ${formatDateTime(d.publishedAt)} 发布到门户交易信息`}
          description={`资格要求：${d.qualLabels || '未设资质等级要求'}${d.qualLabels ? `（${d.qualRelation === '且' ? '须同时具备' : '具备任一项即可'}）` : ''}；投标截止（开标）时间：${formatDateTime(d.bidDeadline)}`}
        />
      ) : (
        <Alert
          type="info"
          showIcon
          message="招标公告审核通过后发布到门户交易信息，发布后投标人即可报名；发布后的修改请以变更公告发出。"
        />
      )}
      <Card
        size="small"
        title={`公告（${d.notices.length}）`}
        extra={
          d.canEdit && editing === null ? (
            <Button
              type="primary"
              size="small"
              disabled={pending}
              onClick={() => setEditing('new')}
              data-testid="notice-new"
              title={pending ? NOTICE_MESSAGES.pendingExists : undefined}
            >
              {published ? '编写变更公告' : '编写招标公告'}
            </Button>
          ) : null
        }
      >
        <Table<TenderNotice>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={d.notices}
          pagination={false}
          data-testid="notice-table"
          locale={{ emptyText: d.canEdit ? '尚无公告，请点击「编写招标公告」' : '尚无公告' }}
        />
      </Card>
      {editing !== null ? (
        <NoticeEditor
          key={editing === 'new' ? 'new' : editing.id}
          section={section}
          kind={editing === 'new' ? kind : editing.kind}
          notice={editing === 'new' ? null : editing}
          defaultTitle={`${projectName}${section.name}${kind}`}
          onClose={() => setEditing(null)}
          onChanged={() => void refresh()}
        />
      ) : null}
    </Space>
  );
}

function NoticeEditor({
  section,
  kind,
  notice,
  defaultTitle,
  onClose,
  onChanged,
}: {
  section: TenderSection;
  kind: NoticeKind;
  notice: TenderNotice | null;
  defaultTitle: string;
  onClose: () => void;
  /** a save or a submission changed the section's notices */
  onChanged: () => void;
}) {
  const { message } = App.useApp();
  // the notice as last saved here: a new one has an id and a version after its first save
  const [current, setCurrent] = useState<TenderNotice | null>(notice);
  const [form] = Form.useForm<NoticeForm>();
  const [dialog, setDialog] = useState(false);
  const [busy, setBusy] = useState<'save' | 'submit' | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const items = Form.useWatch('qualItems', form) ?? [];
  const affects = Form.useWatch('affectsBids', form);
  const change = kind === '变更公告';

  const send = async (then: 'save' | 'submit') => {
    let v: NoticeForm;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    setBusy(then);
    setErrors([]);
    const body: TenderNoticeInput = {
      sectionId: section.id,
      kind,
      title: v.title.trim(),
      bodyHtml: v.bodyHtml ?? '',
      qualItems: v.qualItems ?? [],
      qualLabels: v.qualLabels ?? '',
      qualRelation: v.qualRelation,
      affectsBids: change ? Boolean(v.affectsBids) : false,
      newDeadline: change && v.newDeadline ? v.newDeadline.second(0).millisecond(0).toISOString() : null,
      reason: change ? (v.reason ?? '').trim() : '',
      ...(current ? { id: current.id, version: current.version } : {}),
    };
    try {
      const saved = await saveTenderNotice(body);
      setCurrent(saved);
      onChanged();
      if (then === 'submit') {
        await submitTenderNotice(saved.id, saved.version);
        void message.success('已提交审核，审核通过后发布到门户');
        onChanged();
        onClose();
      } else {
        void message.success(NOTICE_MESSAGES.saved);
      }
    } catch (e) {
      setErrors(applySaveError(e, form, FIELDS));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card
      size="small"
      title={current ? `编辑${kind}` : `编写${kind}`}
      data-testid="notice-editor"
      extra={
        <Button size="small" onClick={onClose}>
          关闭
        </Button>
      }
    >
      {errors.length ? <SaveErrorAlert lines={errors} testId="notice-error" /> : null}
      <Form<NoticeForm>
        form={form}
        layout="vertical"
        initialValues={{
          title: notice?.title ?? defaultTitle,
          bodyHtml: notice?.bodyHtml ?? '',
          qualLabels: notice?.qualLabels ?? '',
          qualItems: notice?.qualItems ?? [],
          qualRelation: notice?.qualRelation ?? '且',
          affectsBids: notice?.affectsBids ?? false,
          newDeadline: notice?.newDeadline ? dayjs(notice.newDeadline) : null,
          reason: notice?.reason ?? '',
        }}
      >
        <Form.Item
          name="title"
          label="公告标题"
          rules={[{ required: true, whitespace: true, message: '请填写公告标题' }]}
        >
          <Input maxLength={200} showCount data-testid="notice-title" />
        </Form.Item>
        {change ? (
          <>
            <Form.Item
              name="reason"
              label="变更原因"
              rules={[{ required: true, whitespace: true, message: '请填写变更原因' }]}
            >
              <Input.TextArea rows={2} maxLength={500} showCount data-testid="notice-reason" />
            </Form.Item>
            <Space size={24} wrap>
              <Form.Item name="affectsBids" label="是否影响投标文件编制" valuePropName="checked">
                <Switch checkedChildren="影响" unCheckedChildren="不影响" data-testid="notice-affects" />
              </Form.Item>
              <Form.Item
                name="newDeadline"
                label="新的投标截止（开标）时间"
                tooltip="影响投标文件编制的澄清或修改，距投标截止不足 15 日的，应顺延投标截止时间"
              >
                <DatePicker
                  showTime={{ format: 'HH:mm', minuteStep: 15 }}
                  format="YYYY-MM-DD HH:mm"
                  placeholder={affects ? '距截止不足 15 日时必填' : '不变更可不填'}
                  data-testid="notice-deadline"
                />
              </Form.Item>
            </Space>
          </>
        ) : null}
        <Form.Item label="资格要求" required={false} tooltip="投标人报名时，平台按此核验其资质">
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="qualLabels" noStyle>
              <Input readOnly placeholder="请点击「选择」添加资质要求" data-testid="notice-qual-labels" />
            </Form.Item>
            <Button onClick={() => setDialog(true)} data-testid="notice-qual-pick">
              选择
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="qualItems" hidden>
          <Input />
        </Form.Item>
        {items.length > 1 ? (
          <Form.Item name="qualRelation" label="资格要求之间的关系">
            <Radio.Group data-testid="notice-qual-relation">
              <Radio value="且">且（须同时具备全部各项）</Radio>
              <Radio value="或">或（具备其中任一项即可）</Radio>
            </Radio.Group>
          </Form.Item>
        ) : null}
        <Form.Item
          name="bodyHtml"
          label="公告正文"
          rules={[
            {
              validator: (_r, v: string) =>
                v?.replace(/<[^>]*>/g, '').trim() ? Promise.resolve() : Promise.reject(new Error('请填写公告正文')),
            },
          ]}
        >
          <LazyRichTextEditor height={320} data-testid="notice-body" />
        </Form.Item>
        <Space>
          <Button
            onClick={() => void send('save')}
            loading={busy === 'save'}
            disabled={busy !== null}
            data-testid="notice-save"
          >
            保存草稿
          </Button>
          <Button
            type="primary"
            onClick={() => void send('submit')}
            loading={busy === 'submit'}
            disabled={busy !== null}
            data-testid="notice-submit"
          >
            保存并提交审核
          </Button>
          <Typography.Text type="secondary">
            投标截止（开标）时间：{formatDateTime(section.bidDeadline)}
          </Typography.Text>
        </Space>
      </Form>
      <QualificationDialog
        open={dialog}
        value={items}
        onCancel={() => setDialog(false)}
        onConfirm={(labels, values) => {
          form.setFieldsValue({ qualLabels: labels, qualItems: values });
          setDialog(false);
        }}
      />
    </Card>
  );
}
