import { HELP_FILE_EXTENSIONS, type HelpGroup } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Card,
  Form,
  Input,
  InputNumber,
  Modal,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  TreeSelect,
  Typography,
} from 'antd';
import { useState } from 'react';
import { nodeListQuery } from '../../api/config';
import {
  addHelpFile,
  deleteFaq,
  deleteHelpFile,
  deleteHelpGroup,
  HELP_KEY,
  helpAdminQuery,
  saveFaq,
  saveHelpGroup,
} from '../../api/help';
import {
  ActionLink,
  ConfirmDelete,
  CreateButton,
  dateTimeColumn,
  FormDialog,
  LoadError,
  nodeTreeOptions,
  PageFrame,
  RefreshButton,
  RowActions,
  SystemSelect,
  useEditDialog,
  useRowDialog,
} from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';

type Group = HelpGroup & { sort: number };
type Faq = {
  id: string;
  question: string;
  answer: string;
  systemCoding: string;
  gnCoding: string | null;
  sort: number;
  updatedAt: string;
};

const SECTION = { title: '帮助与客服' };
const WHOLE_SYSTEM = '全系统';

/** The nodes of the chosen system as a TreeSelect (empty: the whole system). */
function NodeField({
  systemCoding,
  value,
  onChange,
}: {
  systemCoding: string;
  value?: string | null;
  onChange?: (v: string | null) => void;
}) {
  const nodes = useQuery(nodeListQuery(systemCoding));
  return (
    <TreeSelect<string>
      allowClear
      showSearch={{ treeNodeFilterProp: 'title' }}
      treeDefaultExpandAll
      placeholder={`不选为${WHOLE_SYSTEM}`}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      treeData={nodeTreeOptions(nodes.data ?? [])}
      loading={nodes.isFetching}
      data-testid="help-node"
      aria-label="功能节点"
      notFoundContent="暂无数据"
    />
  );
}

const nodeName = (g: string | null) => (g ? <Tag>{g}</Tag> : <Tag color="blue">{WHOLE_SYSTEM}</Tag>);

function UploadDialog({ group, onClose, onSaved }: { group: Group | null; onClose: () => void; onSaved: () => void }) {
  return (
    <Modal
      open={Boolean(group)}
      title={`上传帮助文件 · ${group?.groupName ?? ''}`}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        支持 PDF 及 mp4、webm 视频，上传完成后自动加入该分组。
      </Typography.Paragraph>
      {group ? (
        <AttachmentUploader
          files={[]}
          target={{}}
          usage="help"
          accept={HELP_FILE_EXTENSIONS}
          max={1}
          testId="help-uploader"
          onUploaded={async (file) => {
            await addHelpFile(group.id, file.fileId);
            onSaved();
          }}
        />
      ) : null}
    </Modal>
  );
}

/**
 * 帮助管理 (screen 10's administration): per business system, the help groups of the system and its nodes with their
 * PDF and video files (chunked upload, usage help), and the frequently asked questions the viewer and the
 * customer-service robot answer from. Every change writes an operation-log row on the server.
 */
export default function HelpManagePage() {
  const qc = useQueryClient();
  const [systemCoding, setSystemCoding] = useState<string>('XYGL');
  const data = useQuery({ ...helpAdminQuery(systemCoding), enabled: Boolean(systemCoding) });
  const refresh = () => void qc.invalidateQueries({ queryKey: HELP_KEY });
  const groupDialog = useEditDialog<Group>(refresh);
  const faqDialog = useEditDialog<Faq>(refresh);
  const upload = useRowDialog<Group>(refresh);

  const groupColumns: TableColumnsType<Group> = [
    { title: '分组名称', dataIndex: 'groupName', width: 180 },
    { title: '所属节点', dataIndex: 'gnCoding', width: 140, render: nodeName },
    {
      title: '帮助文件',
      key: 'files',
      render: (_, g) =>
        g.children.length ? (
          <Space wrap size={[4, 4]}>
            {g.children.map((f) => (
              <Tag key={f.id} color={f.kind === 'video' ? 'purple' : 'red'} data-testid="admin-help-file">
                {f.fileName}
                <ConfirmDelete
                  name={f.fileName}
                  run={() => deleteHelpFile(f.id)}
                  onDone={refresh}
                  testId="help-file-delete"
                />
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">暂无帮助！</Typography.Text>
        ),
    },
    { title: '排序', dataIndex: 'sort', width: 70 },
    {
      title: '操作',
      key: 'op',
      width: 200,
      render: (_, g) => (
        <RowActions>
          <ActionLink onClick={() => upload.open(g)} testId="help-upload">
            上传文件
          </ActionLink>
          <ActionLink onClick={() => groupDialog.edit(g)} testId="help-group-edit">
            编辑
          </ActionLink>
          <ConfirmDelete
            name={g.groupName}
            run={() => deleteHelpGroup(g.id)}
            onDone={refresh}
            testId="help-group-delete"
          />
        </RowActions>
      ),
    },
  ];
  const faqColumns: TableColumnsType<Faq> = [
    { title: '问题', dataIndex: 'question', width: 240 },
    { title: '答案', dataIndex: 'answer', ellipsis: true },
    { title: '所属节点', dataIndex: 'gnCoding', width: 140, render: nodeName },
    { title: '排序', dataIndex: 'sort', width: 70 },
    dateTimeColumn('更新时间', 'updatedAt'),
    {
      title: '操作',
      key: 'op',
      width: 130,
      render: (_, f) => (
        <RowActions>
          <ActionLink onClick={() => faqDialog.edit(f)} testId="faq-edit">
            编辑
          </ActionLink>
          <ConfirmDelete name={f.question} run={() => deleteFaq(f.id)} onDone={refresh} testId="faq-delete" />
        </RowActions>
      ),
    },
  ];

  return (
    <PageFrame section={SECTION} title="帮助管理">
      <Card size="small" style={{ marginBottom: 16 }}>
        <Space>
          <span>业务系统</span>
          <SystemSelect value={systemCoding} onChange={(v) => v && setSystemCoding(v)} testId="help-system" />
          <RefreshButton onClick={refresh} query={data} />
        </Space>
      </Card>
      {data.isError ? <LoadError error={data.error} what="帮助" /> : null}
      <Card
        title="帮助说明"
        style={{ marginBottom: 16 }}
        extra={
          <CreateButton onClick={groupDialog.create} testId="help-group-create">
            新增分组
          </CreateButton>
        }
      >
        <Table<Group>
          rowKey="id"
          size="small"
          loading={data.isFetching}
          dataSource={data.data?.groups ?? []}
          columns={groupColumns}
          // the files are listed in a column, not as expandable child rows
          expandable={{ childrenColumnName: 'none' }}
          pagination={false}
          data-testid="help-groups"
          locale={{ emptyText: '暂无数据' }}
        />
      </Card>
      <Card
        title="常见问题"
        extra={
          <CreateButton onClick={faqDialog.create} testId="faq-create">
            新增问题
          </CreateButton>
        }
      >
        <Table<Faq>
          rowKey="id"
          size="small"
          loading={data.isFetching}
          dataSource={data.data?.faqs ?? []}
          columns={faqColumns}
          pagination={{ pageSize: 10, showTotal: (n) => `共 ${n} 条` }}
          data-testid="faq-table"
          locale={{ emptyText: '暂无数据' }}
        />
      </Card>

      <FormDialog<{ groupName: string; gnCoding?: string | null; sort?: number | null }>
        open={groupDialog.open}
        subject={groupDialog.record}
        title={groupDialog.record ? '编辑分组' : '新增分组'}
        values={() =>
          groupDialog.record
            ? {
                groupName: groupDialog.record.groupName,
                gnCoding: groupDialog.record.gnCoding,
                sort: groupDialog.record.sort,
              }
            : { groupName: '', gnCoding: null, sort: 0 }
        }
        fields={['groupName', 'gnCoding', 'sort']}
        submit={(v) =>
          saveHelpGroup({
            ...(groupDialog.record ? { id: groupDialog.record.id } : {}),
            systemCoding,
            ...(v.gnCoding ? { gnCoding: v.gnCoding } : {}),
            groupName: v.groupName,
            sort: v.sort ?? 0,
          })
        }
        onClose={groupDialog.props.onClose}
        onSaved={groupDialog.props.onSaved}
        testId="help-group-save"
      >
        <Form.Item
          name="groupName"
          label="分组名称"
          rules={[{ required: true, whitespace: true, message: '请填写分组名称' }]}
        >
          <Input maxLength={60} data-testid="help-group-name" />
        </Form.Item>
        <Form.Item name="gnCoding" label="所属节点">
          <NodeField systemCoding={systemCoding} />
        </Form.Item>
        <Form.Item name="sort" label="排序">
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
      </FormDialog>

      <FormDialog<{ question: string; answer: string; gnCoding?: string | null; sort?: number | null }>
        open={faqDialog.open}
        subject={faqDialog.record}
        title={faqDialog.record ? '编辑常见问题' : '新增常见问题'}
        width={640}
        values={() =>
          faqDialog.record
            ? {
                question: faqDialog.record.question,
                answer: faqDialog.record.answer,
                gnCoding: faqDialog.record.gnCoding,
                sort: faqDialog.record.sort,
              }
            : { question: '', answer: '', gnCoding: null, sort: 0 }
        }
        fields={['question', 'answer', 'gnCoding', 'sort']}
        submit={(v) =>
          saveFaq({
            ...(faqDialog.record ? { id: faqDialog.record.id } : {}),
            systemCoding,
            ...(v.gnCoding ? { gnCoding: v.gnCoding } : {}),
            question: v.question,
            answer: v.answer,
            sort: v.sort ?? 0,
          })
        }
        onClose={faqDialog.props.onClose}
        onSaved={faqDialog.props.onSaved}
        testId="faq-save"
      >
        <Form.Item name="question" label="问题" rules={[{ required: true, whitespace: true, message: '请填写问题' }]}>
          <Input maxLength={200} data-testid="faq-question" />
        </Form.Item>
        <Form.Item name="answer" label="答案" rules={[{ required: true, whitespace: true, message: '请填写答案' }]}>
          <Input.TextArea rows={5} maxLength={4000} showCount data-testid="faq-answer" />
        </Form.Item>
        <Form.Item name="gnCoding" label="所属节点">
          <NodeField systemCoding={systemCoding} />
        </Form.Item>
        <Form.Item name="sort" label="排序">
          <InputNumber min={0} max={9999} precision={0} />
        </Form.Item>
      </FormDialog>

      <UploadDialog group={upload.row} onClose={upload.close} onSaved={upload.saved} />
    </PageFrame>
  );
}
