import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import {
  CLARIFY_STATUS_LABELS,
  type Clarification,
  fileUrlOf,
  TENDER_DOC_KINDS,
  type TenderDoc,
  type TenderDocKind,
  type TenderDocs,
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
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { downloadStoredFile } from '../../api/files';
import {
  auditClarification,
  clarificationsQuery,
  deleteClarification,
  deleteTenderFile,
  downloadStatusQuery,
  downloadTenderFile,
  revokeClarification,
  saveClarification,
  saveTenderFile,
  sendClarification,
  submitClarification,
  tenderFilesKey,
  tenderFilesQuery,
  tenderProjectKey,
} from '../../api/tender';
import { ActionLink, ConfirmAction, ConfirmDelete, FormDialog, LoadFailure, RowActions } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { formatFileSize } from '../../components/upload/format';
import { type AttachmentFile, uploadedAttachment } from '../../components/upload/types';
import { formatDate, formatDateTime } from '../../lib/format';
import { SectionSwitch } from './SectionSwitch';

/**
 * 招标文件 (zswj): per section, its tender documents — uploaded and deleted by the project's side until they go on
 * sale, downloaded by registered bidders from the sale's start until the deadline (each download recorded by the
 * server) —, who downloaded them (counts only for the tenderee before opening; the server decides), and the
 * clarifications (澄清 / 修改) with their flow: 新建 → 提交 → the centre's 审核 → 发出 to every registered bidder.
 */
export function FilesTab({ project }: { project: TenderProject }) {
  if (project.sections.length === 0) return <Empty description="请先在「项目信息」中划分标段，再为标段上传招标文件" />;
  return (
    <SectionSwitch sections={project.sections} testId="files-section">
      {(section) => <SectionFiles key={section.id} section={section} />}
    </SectionSwitch>
  );
}

function SectionFiles({ section }: { section: TenderSection }) {
  const queryClient = useQueryClient();
  const q = useQuery(tenderFilesQuery(section.id));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tenderFilesKey(section.id) });
  // a clarification sent with a new deadline moves the section's: the project's sections are read again
  const moved = () => void queryClient.invalidateQueries({ queryKey: tenderProjectKey(section.projectId) });
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看招标文件" />;
  if (!q.data) return <Card loading data-testid="files-loading" />;
  const d = q.data;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="files-panel">
      <Alert
        type={d.editProblem ? 'warning' : 'info'}
        showIcon
        data-testid="files-timeline"
        title={`招标文件发售期：${formatDate(d.docSaleStart)} 至 ${formatDate(d.docSaleEnd)}；投标截止（开标）时间：${formatDateTime(d.bidDeadline)}`}
        description={
          d.editProblem ??
          (d.noticePublishedAt
            ? '已报名的投标人自发售开始至投标截止可下载招标文件，每次下载均有记录。发售开始后招标文件不能再增删，须以澄清或修改发出。'
            : '招标公告发布前可随时增删招标文件；公告发布且发售开始后，修改须以澄清或修改发出。')
        }
      />
      <DocumentsCard docs={d} onChanged={refresh} />
      <DownloadsCard sectionId={section.id} />
      <ClarificationsCard sectionId={section.id} onChanged={moved} />
    </Space>
  );
}

const fileSizeText = (n: number) => formatFileSize(n);

/**
 * What a registered bidder sees of a section (the /fiveInOne/registration page's drawer): the documents with their
 * download buttons, its own download records and the clarifications sent to it.
 */
export function BidderFiles({ sectionId }: { sectionId: string }) {
  const queryClient = useQueryClient();
  const q = useQuery(tenderFilesQuery(sectionId));
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看招标文件" />;
  if (!q.data) return <Card loading data-testid="files-loading" />;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: tenderFilesKey(sectionId) });
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="bidder-files">
      <Typography.Text type="secondary">
        发售期 {formatDate(q.data.docSaleStart)} 至 {formatDate(q.data.docSaleEnd)}，投标截止{' '}
        {formatDateTime(q.data.bidDeadline)}
        ；自发售开始至投标截止可下载，每次下载均有记录。
      </Typography.Text>
      <DocumentsCard docs={q.data} onChanged={refresh} />
      <ClarificationsCard sectionId={sectionId} />
      <DownloadsCard sectionId={sectionId} />
    </Space>
  );
}

/** The documents of a section (the side's table with upload and delete; download wherever the server allows it). */
export function DocumentsCard({ docs, onChanged }: { docs: TenderDocs; onChanged: () => void }) {
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const download = async (doc: TenderDoc) => {
    setBusy(doc.id);
    try {
      await downloadTenderFile(doc.id, doc.fileName);
      void message.success(docs.role === 'bidder' ? '已下载，本次下载已记录' : '已下载');
      onChanged();
    } catch {
      // the request client has shown the server's reason (not on sale yet, deadline passed …)
    } finally {
      setBusy(null);
    }
  };
  const columns: TableColumnsType<TenderDoc> = [
    { title: '类别', dataIndex: 'kind', width: 110, render: (k: TenderDocKind) => <Tag color="blue">{k}</Tag> },
    { title: '文件名称', dataIndex: 'name', ellipsis: true },
    {
      title: '文件',
      key: 'file',
      ellipsis: true,
      render: (_v, doc) => `${doc.fileName}（${fileSizeText(doc.fileSize)}）`,
    },
    { title: '上传人', dataIndex: 'uploadedBy', width: 110 },
    { title: '上传时间', dataIndex: 'createdAt', width: 170, render: (v: string) => formatDateTime(v) },
    {
      title: '操作',
      key: 'ops',
      width: 140,
      render: (_v, doc) => (
        <RowActions>
          <ActionLink
            testId={`doc-download-${doc.id}`}
            onClick={() => void download(doc)}
            disabled={!doc.operations.download || busy === doc.id}
            why={docs.downloadProblem ?? undefined}
          >
            <DownloadOutlined /> 下载
          </ActionLink>
          {doc.operations.delete ? (
            <ConfirmDelete
              name={doc.name}
              run={() => deleteTenderFile(doc.id)}
              onDone={onChanged}
              testId={`doc-delete-${doc.id}`}
            />
          ) : null}
        </RowActions>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={`招标文件（${docs.documents.length}）`}
      extra={
        docs.canEdit ? (
          <Button
            type="primary"
            size="small"
            icon={<UploadOutlined />}
            onClick={() => setUploading(true)}
            data-testid="doc-upload"
          >
            上传招标文件
          </Button>
        ) : null
      }
    >
      {docs.role === 'bidder' && docs.downloadProblem ? (
        <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={docs.downloadProblem} />
      ) : null}
      <Table<TenderDoc>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={docs.documents}
        pagination={false}
        data-testid="doc-table"
        locale={{ emptyText: docs.canEdit ? '尚未上传招标文件，请点击「上传招标文件」' : '暂无招标文件' }}
      />
      <UploadDocDialog
        open={uploading}
        sectionId={docs.sectionId}
        onClose={() => setUploading(false)}
        onSaved={() => {
          setUploading(false);
          onChanged();
        }}
      />
    </Card>
  );
}

interface DocForm {
  kind: TenderDocKind;
  name: string;
  files: AttachmentFile[];
}

/** One uploaded file (a Form.Item's value): at most one, PDF or images as the platform accepts. */
function OneFile({
  value = [],
  onChange,
  onName,
  testId,
}: {
  value?: AttachmentFile[];
  onChange?: (files: AttachmentFile[]) => void;
  onName?: (name: string) => void;
  testId: string;
}) {
  return (
    <AttachmentUploader
      files={value}
      target={{}}
      max={1}
      onUploaded={(f, local) => {
        onChange?.([uploadedAttachment(f, local)]);
        onName?.(f.fileName.replace(/\.[^.]+$/, ''));
      }}
      onRemove={() => onChange?.([])}
      testId={testId}
    />
  );
}

function UploadDocDialog({
  open,
  sectionId,
  onClose,
  onSaved,
}: {
  open: boolean;
  sectionId: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<DocForm>();
  return (
    <FormDialog<DocForm, TenderDoc>
      open={open}
      title="上传招标文件"
      form={form}
      values={() => ({ kind: '招标文件', name: '', files: [] })}
      fields={['kind', 'name', 'fileId']}
      mapName={(n) => (n[0] === 'fileId' ? ['files'] : n)}
      submit={(v) => saveTenderFile({ sectionId, fileId: v.files[0]!.fileId, name: v.name, kind: v.kind })}
      onClose={onClose}
      onSaved={onSaved}
      testId="doc-save"
      dialogTestId="doc-dialog"
      keepMounted={false}
      intro="先上传文件（PDF 或图片），再选择类别、填写名称后保存。"
    >
      <Form.Item name="files" label="文件" rules={[{ required: true, type: 'array', min: 1, message: '请上传文件' }]}>
        <OneFile
          testId="doc-file"
          onName={(n) => {
            if (!form.getFieldValue('name')) form.setFieldValue('name', n.slice(0, 100));
          }}
        />
      </Form.Item>
      <Form.Item name="kind" label="类别" rules={[{ required: true, message: '请选择文件类别' }]}>
        <Select options={TENDER_DOC_KINDS.map((k) => ({ label: k, value: k }))} data-testid="doc-kind" />
      </Form.Item>
      <Form.Item
        name="name"
        label="文件名称"
        rules={[
          { required: true, whitespace: true, message: '请填写文件名称' },
          { max: 100, message: '文件名称不超过 100 字' },
        ]}
      >
        <Input placeholder="如：第一卷 招标文件（正文）" data-testid="doc-name" />
      </Form.Item>
    </FormDialog>
  );
}

/** Who downloaded: the server answers everything, counts only (before opening), or the caller's own records. */
export function DownloadsCard({ sectionId }: { sectionId: string }) {
  const q = useQuery(downloadStatusQuery(sectionId));
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看下载记录" />;
  const d = q.data;
  const title = `下载记录${d ? `（${d.totalDownloads} 次，${d.totalEnterprises} 家单位）` : ''}`;
  return (
    <Card size="small" title={title} loading={!d} data-testid="download-card">
      {d?.visibility === 'counts' ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="info" showIcon title={d.note} data-testid="download-hidden" />
          <Table
            rowKey="documentId"
            size="small"
            pagination={false}
            dataSource={d.documents}
            data-testid="download-counts"
            locale={{ emptyText: '暂无招标文件' }}
            columns={[
              { title: '招标文件', dataIndex: 'name' },
              { title: '下载次数', dataIndex: 'downloads', width: 120, align: 'right' },
              { title: '下载单位数', dataIndex: 'enterprises', width: 120, align: 'right' },
            ]}
          />
        </Space>
      ) : d ? (
        <Table
          rowKey="id"
          size="small"
          dataSource={d.records}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          data-testid="download-records"
          locale={{ emptyText: d.visibility === 'own' ? '本单位尚未下载' : '暂无下载记录' }}
          columns={[
            { title: '下载单位', dataIndex: 'enterpriseName', ellipsis: true },
            { title: '下载人', dataIndex: 'userName', width: 110 },
            { title: '招标文件', dataIndex: 'documentName', ellipsis: true },
            {
              title: '下载时间',
              dataIndex: 'downloadedAt',
              width: 170,
              render: (v: string) => formatDateTime(v),
            },
            { title: 'IP 地址', dataIndex: 'ip', width: 140, render: (v: string | null) => v ?? '—' },
          ]}
        />
      ) : null}
    </Card>
  );
}

const statusTag = (c: Clarification) => (
  <Tag color={CLARIFY_STATUS_LABELS[c.status].color} data-testid={`clarify-status-${c.id}`}>
    {CLARIFY_STATUS_LABELS[c.status].text}
  </Tag>
);

/** The clarifications of a section with the actions the server allows on each. */
export function ClarificationsCard({ sectionId, onChanged }: { sectionId: string; onChanged?: () => void }) {
  const queryClient = useQueryClient();
  const q = useQuery(clarificationsQuery(sectionId));
  const [editing, setEditing] = useState<Clarification | 'new' | null>(null);
  const [auditing, setAuditing] = useState<Clarification | null>(null);
  if (q.isError) return <LoadFailure error={q.error as Error} what="查看澄清或修改" />;
  const d = q.data;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: tenderFilesKey(sectionId) });
    onChanged?.();
  };
  const columns: TableColumnsType<Clarification> = [
    {
      title: '标题',
      dataIndex: 'title',
      width: 320,
      render: (v: string, c) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{v}</Typography.Text>
          <Typography.Paragraph type="secondary" ellipsis={{ rows: 2, tooltip: c.content }} style={{ margin: 0 }}>
            {c.content}
          </Typography.Paragraph>
          {c.fileId && c.fileName ? (
            <Button
              type="link"
              size="small"
              style={{ padding: 0, height: 'auto' }}
              icon={<DownloadOutlined />}
              onClick={() =>
                void downloadStoredFile({ url: fileUrlOf(c.fileId!), fileName: c.fileName }).catch(() => undefined)
              }
              data-testid={`clarify-file-${c.id}`}
            >
              附件：{c.fileName}
            </Button>
          ) : null}
        </Space>
      ),
    },
    {
      title: '影响投标',
      dataIndex: 'affectsBids',
      width: 90,
      render: (v: boolean) => (v ? <Tag color="orange">是</Tag> : '否'),
    },
    {
      title: '新的投标截止时间',
      dataIndex: 'newDeadline',
      width: 170,
      render: (v: string | null) => (v ? formatDateTime(v) : '—'),
    },
    { title: '状态', dataIndex: 'status', width: 100, render: (_v, c) => statusTag(c) },
    {
      title: '审核 / 发出',
      key: 'steps',
      width: 220,
      render: (_v, c) => (
        <Space orientation="vertical" size={0}>
          {c.auditedAt ? (
            <Typography.Text type="secondary">
              {c.auditedBy} {formatDateTime(c.auditedAt)}
              {c.opinion ? `：${c.opinion}` : ''}
            </Typography.Text>
          ) : null}
          {c.sentAt ? (
            <Typography.Text type="secondary">
              {formatDateTime(c.sentAt)} 发出，已通知 {c.recipients} 个投标人账号
            </Typography.Text>
          ) : null}
          {!c.auditedAt && !c.sentAt ? '—' : null}
        </Space>
      ),
    },
    {
      title: '操作',
      key: 'ops',
      width: 200,
      render: (_v, c) => {
        const o = c.operations;
        return (
          <RowActions wrap>
            {o.edit ? (
              <ActionLink testId={`clarify-edit-${c.id}`} onClick={() => setEditing(c)}>
                编辑
              </ActionLink>
            ) : null}
            {o.submit ? (
              <ConfirmAction
                title="确认提交？"
                description="提交后由交易中心审核。"
                run={() => submitClarification(c.id, c.version)}
                successText="提交成功"
                onDone={refresh}
                testId={`clarify-submit-${c.id}`}
              >
                提交
              </ConfirmAction>
            ) : null}
            {o.revoke ? (
              <ConfirmAction
                title="确认撤回？"
                run={() => revokeClarification(c.id, c.version)}
                successText="已撤回"
                onDone={refresh}
                testId={`clarify-revoke-${c.id}`}
              >
                撤回
              </ConfirmAction>
            ) : null}
            {o.audit ? (
              <ActionLink testId={`clarify-audit-${c.id}`} onClick={() => setAuditing(c)}>
                审核
              </ActionLink>
            ) : null}
            {o.send ? (
              <ConfirmAction
                title="确认发出？"
                description={
                  c.newDeadline
                    ? `发出后通知全部报名投标人，投标截止时间顺延至 ${formatDateTime(c.newDeadline)}。`
                    : '发出后通知全部报名投标人。'
                }
                run={() => sendClarification(c.id, c.version)}
                successText="已发出"
                onDone={refresh}
                testId={`clarify-send-${c.id}`}
              >
                发出
              </ConfirmAction>
            ) : null}
            {o.delete ? (
              <ConfirmDelete
                name={c.title}
                run={() => deleteClarification(c.id, c.version)}
                onDone={refresh}
                testId={`clarify-delete-${c.id}`}
              />
            ) : null}
          </RowActions>
        );
      },
    },
  ];
  return (
    <Card
      size="small"
      title={`澄清或修改（${d?.clarifications.length ?? 0}）`}
      loading={!d}
      data-testid="clarify-card"
      extra={
        d?.canCreate ? (
          <Button
            type="primary"
            size="small"
            icon={<PlusOutlined />}
            onClick={() => setEditing('new')}
            data-testid="clarify-new"
          >
            新建澄清或修改
          </Button>
        ) : null
      }
    >
      {d?.canCreate ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          可能影响投标文件编制的澄清或修改，应在投标截止时间至少 {d.clarifyDays} 日前发出；不足 {d.clarifyDays}{' '}
          日的，须顺延投标截止时间（招标投标法实施条例第二十一条）。
        </Typography.Paragraph>
      ) : null}
      <Table<Clarification>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={d?.clarifications ?? []}
        pagination={false}
        scroll={{ x: 1100 }}
        data-testid="clarify-table"
        locale={{ emptyText: '暂无澄清或修改' }}
      />
      {d ? (
        <ClarifyDialog
          open={editing !== null}
          sectionId={sectionId}
          clarification={editing === 'new' ? null : editing}
          bidDeadline={d.bidDeadline}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
      <AuditDialog
        clarification={auditing}
        onClose={() => setAuditing(null)}
        onSaved={() => {
          setAuditing(null);
          refresh();
        }}
      />
    </Card>
  );
}

interface ClarifyForm {
  title: string;
  content: string;
  affectsBids: boolean;
  newDeadline: Dayjs | null;
  files: AttachmentFile[];
}

function ClarifyDialog({
  open,
  sectionId,
  clarification,
  bidDeadline,
  onClose,
  onSaved,
}: {
  open: boolean;
  sectionId: string;
  clarification: Clarification | null;
  bidDeadline: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<ClarifyForm>();
  const c = clarification;
  return (
    <FormDialog<ClarifyForm, Clarification>
      open={open}
      subject={c?.id ?? 'new'}
      title={c ? '编辑澄清或修改' : '新建澄清或修改'}
      form={form}
      width={720}
      values={() => ({
        title: c?.title ?? '',
        content: c?.content ?? '',
        affectsBids: c?.affectsBids ?? false,
        newDeadline: c?.newDeadline ? dayjs(c.newDeadline) : null,
        files:
          c?.fileId && c.fileName
            ? [
                {
                  fileId: c.fileId,
                  fileName: c.fileName,
                  fileSize: null,
                  url: fileUrlOf(c.fileId),
                  preview: null,
                  annexNo: null,
                },
              ]
            : [],
      })}
      fields={['title', 'content', 'affectsBids', 'newDeadline', 'fileId']}
      mapName={(n) => (n[0] === 'fileId' ? ['files'] : n)}
      submit={(v) =>
        saveClarification({
          ...(c ? { id: c.id, version: c.version } : {}),
          sectionId,
          title: v.title,
          content: v.content,
          affectsBids: v.affectsBids,
          newDeadline: v.newDeadline ? v.newDeadline.second(0).millisecond(0).toISOString() : null,
          fileId: v.files[0]?.fileId ?? null,
        })
      }
      onClose={onClose}
      onSaved={onSaved}
      testId="clarify-save"
      dialogTestId="clarify-dialog"
      keepMounted={false}
      intro={`当前投标截止（开标）时间：${formatDateTime(bidDeadline)}`}
    >
      <Form.Item
        name="title"
        label="标题"
        rules={[
          { required: true, whitespace: true, message: '请填写标题' },
          { max: 200, message: '标题不超过 200 字' },
        ]}
      >
        <Input placeholder="如：关于第五章工程量清单的澄清（第一号）" data-testid="clarify-title" />
      </Form.Item>
      <Form.Item
        name="content"
        label="澄清或修改内容"
        rules={[
          { required: true, whitespace: true, message: '请填写澄清或修改内容' },
          { max: 5000, message: '澄清或修改内容不超过 5000 字' },
        ]}
      >
        <Input.TextArea rows={5} data-testid="clarify-content" />
      </Form.Item>
      <Form.Item name="affectsBids" label="是否影响投标文件编制" valuePropName="checked">
        <Switch checkedChildren="是" unCheckedChildren="否" data-testid="clarify-affects" />
      </Form.Item>
      <Form.Item
        name="newDeadline"
        label="新的投标截止时间"
        extra="需要顺延投标截止时间时填写；须晚于当前投标截止时间。"
      >
        <DatePicker
          showTime={{ format: 'HH:mm', minuteStep: 15 }}
          format="YYYY-MM-DD HH:mm"
          disabledDate={(d) => d.isBefore(dayjs(bidDeadline), 'day')}
          data-testid="clarify-deadline"
        />
      </Form.Item>
      <Form.Item name="files" label="附件（可选）">
        <OneFile testId="clarify-file" />
      </Form.Item>
    </FormDialog>
  );
}

interface AuditForm {
  pass: boolean;
  opinion: string;
}

function AuditDialog({
  clarification,
  onClose,
  onSaved,
}: {
  clarification: Clarification | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<AuditForm>();
  const pass = Form.useWatch('pass', form);
  const c = clarification;
  return (
    <FormDialog<AuditForm, Clarification>
      open={c !== null}
      subject={c?.id}
      title="审核澄清或修改"
      form={form}
      values={() => ({ pass: true, opinion: '' })}
      fields={['pass', 'opinion']}
      submit={(v) => auditClarification({ id: c!.id, version: c!.version, pass: v.pass, opinion: v.opinion ?? '' })}
      onClose={onClose}
      onSaved={onSaved}
      successText="审核完成"
      testId="clarify-audit-save"
      dialogTestId="clarify-audit-dialog"
      intro={c ? `《${c.title}》：${c.content}` : null}
    >
      <Form.Item name="pass" label="审核结果" rules={[{ required: true, message: '请选择审核结果' }]}>
        <Radio.Group
          options={[
            { label: '通过', value: true },
            { label: '驳回', value: false },
          ]}
          data-testid="clarify-audit-pass"
        />
      </Form.Item>
      <Form.Item
        name="opinion"
        label="审核意见"
        rules={[
          { required: pass === false, whitespace: true, message: '请填写审核意见' },
          { max: 500, message: '审核意见不超过 500 字' },
        ]}
      >
        <Input.TextArea rows={5} data-testid="clarify-opinion" />
      </Form.Item>
    </FormDialog>
  );
}
