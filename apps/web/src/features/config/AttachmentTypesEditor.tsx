import { PlusOutlined } from '@ant-design/icons';
import {
  ANNEX_SIZE_MAX_MB,
  type AttachmentType,
  type AttachmentTypeInput,
  KNOWN_FORMATS,
  MAX_ATTACHMENT_TYPES,
  parseFormats,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Select,
  Skeleton,
  Space,
  Switch,
  type TableColumnsType,
  Typography,
} from 'antd';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { attDescriptionQuery, saveAttachmentTypes } from '../../api/files';
import { applySaveError, LoadError, RowOps, RowsTable, SaveErrorAlert } from '../../components/admin';

interface AnnexRow {
  annexNo: string;
  annexName: string;
  formats: string[];
  annexSize: number | null;
  isRequired: boolean;
  fileType: string;
  /** template file name, kept as loaded */
  template: string | null;
}
interface AnnexForm {
  list: AnnexRow[];
}

const FORMAT_OPTIONS = KNOWN_FORMATS.map((f) => ({ label: f, value: f }));
const blankRow = (): AnnexRow => ({
  annexNo: '',
  annexName: '',
  formats: ['pdf', 'jpg', 'png'],
  annexSize: 10,
  isRequired: false,
  fileType: '',
  template: null,
});
const toRow = (t: AttachmentType): AnnexRow => ({
  annexNo: t.annexNo,
  annexName: t.annexName,
  formats: parseFormats(t.annexFormat),
  annexSize: t.annexSize > 0 ? t.annexSize : null,
  isRequired: t.isRequired,
  fileType: t.fileType,
  template: t.templateName,
});
export const toAttachmentTypeInputs = (rows: AnnexRow[]): AttachmentTypeInput[] =>
  rows.map((r) => ({
    annexNo: (r.annexNo ?? '').trim(),
    annexName: (r.annexName ?? '').trim(),
    annexFormat: (r.formats ?? []).join(','),
    annexSize: r.annexSize as number,
    isRequired: !!r.isRequired,
    fileType: (r.fileType ?? '').trim(),
    ...(r.template ? { template: r.template } : {}),
  }));

/** The template file a type offers for download (kept as loaded; set up with the server's template folder). */
function TemplateName({ value }: { value?: string | null }) {
  return (
    <Typography.Text type="secondary" ellipsis data-testid="annex-template">
      {value || '—'}
    </Typography.Text>
  );
}

/** server field paths are list.<i>.<property>; the form edits annexFormat as `formats` */
const formName = (name: (string | number)[]) =>
  name.length === 3 && name[2] === 'annexFormat' ? [name[0]!, name[1]!, 'formats'] : name;

/**
 * 附件类型 of a node (spec §3 attachment type): what uploads of its records accept and which attachments a submission
 * needs. The whole list is saved at once; files already uploaded are kept.
 */
export function AttachmentTypesEditor({ gnCoding, engineNode }: { gnCoding: string; engineNode: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AnnexForm>();
  const query = useQuery(attDescriptionQuery(gnCoding));
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<string[]>([]);
  const readOnly = !engineNode;

  const load = useCallback(
    (list: AttachmentType[]) => {
      form.resetFields();
      form.setFieldsValue({ list: list.map(toRow) });
      setErrors([]);
    },
    [form],
  );
  useEffect(() => {
    if (query.data) load(query.data.list);
  }, [query.data, load]);

  const onFinish = async (v: AnnexForm) => {
    if (saving) return;
    setSaving(true);
    setErrors([]);
    const body = toAttachmentTypeInputs(v.list ?? []);
    try {
      const saved = await saveAttachmentTypes(gnCoding, body);
      queryClient.setQueryData(attDescriptionQuery(gnCoding).queryKey, saved);
      void message.success('保存成功');
    } catch (err) {
      setErrors(
        applySaveError(
          err,
          form,
          (name) =>
            name.length === 3 &&
            name[0] === 'list' &&
            Number(name[1]) < body.length &&
            ['annexNo', 'annexName', 'formats', 'annexSize', 'fileType'].includes(String(name[2])),
          (name) => formName(name as (string | number)[]),
        ),
      );
    } finally {
      setSaving(false);
    }
  };

  let content: ReactNode;
  if (query.isError) content = <LoadError error={query.error} what="附件类型" />;
  else if (query.isPending) content = <Skeleton active paragraph={{ rows: 4 }} data-testid="annex-loading" />;
  else
    content = (
      <Form<AnnexForm>
        form={form}
        onFinish={onFinish}
        initialValues={{ list: [] }}
        disabled={readOnly}
        data-testid="annex-form"
      >
        {readOnly ? (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title="该节点的数据来自业务模块，不能在此配置附件类型。"
          />
        ) : null}
        <SaveErrorAlert lines={errors} testId="annex-error" />
        <Form.List name="list">
          {(fields, { add, remove, move }) => {
            const cell = { style: { marginBottom: 0 } };
            const columns: TableColumnsType<(typeof fields)[number]> = [
              { title: '序号', key: 'no', width: 56, align: 'center', render: (_, __, i) => i + 1 },
              {
                title: '附件编号',
                key: 'annexNo',
                width: 140,
                render: (_, f) => (
                  <Form.Item
                    {...cell}
                    name={[f.name, 'annexNo']}
                    rules={[
                      { required: true, message: '请填写附件编号' },
                      { pattern: /^[A-Za-z0-9_]+$/, message: '附件编号只能包含字母、数字和下划线' },
                      { max: 63, message: '附件编号最多 63 个字符' },
                    ]}
                  >
                    <Input placeholder="如 01" aria-label="附件编号" data-testid="annex-no" />
                  </Form.Item>
                ),
              },
              {
                title: '附件名称',
                key: 'annexName',
                width: 220,
                render: (_, f) => (
                  <Form.Item
                    {...cell}
                    name={[f.name, 'annexName']}
                    rules={[
                      { required: true, whitespace: true, message: '请填写附件名称' },
                      { max: 100, message: '附件名称最多 100 个字符' },
                    ]}
                  >
                    <Input placeholder="如 营业执照" aria-label="附件名称" data-testid="annex-name" />
                  </Form.Item>
                ),
              },
              {
                title: '允许格式',
                key: 'formats',
                width: 280,
                render: (_, f) => (
                  <Form.Item
                    {...cell}
                    name={[f.name, 'formats']}
                    rules={[{ required: true, type: 'array', min: 1, message: '请选择附件格式' }]}
                  >
                    <Select
                      mode="multiple"
                      options={FORMAT_OPTIONS}
                      placeholder="请选择"
                      aria-label="允许格式"
                      data-testid="annex-formats"
                    />
                  </Form.Item>
                ),
              },
              {
                title: '大小上限（MB）',
                key: 'annexSize',
                width: 140,
                render: (_, f) => (
                  <Form.Item
                    {...cell}
                    name={[f.name, 'annexSize']}
                    rules={[{ required: true, message: '请填写附件大小' }]}
                  >
                    <InputNumber
                      min={1}
                      max={ANNEX_SIZE_MAX_MB}
                      precision={0}
                      style={{ width: '100%' }}
                      aria-label="大小上限（MB）"
                      data-testid="annex-size"
                    />
                  </Form.Item>
                ),
              },
              {
                title: '必填',
                key: 'isRequired',
                width: 70,
                align: 'center',
                render: (_, f) => (
                  <Form.Item {...cell} name={[f.name, 'isRequired']} valuePropName="checked">
                    <Switch size="small" aria-label="必填" data-testid="annex-required" />
                  </Form.Item>
                ),
              },
              {
                title: '文件类别',
                key: 'fileType',
                width: 120,
                render: (_, f) => (
                  <Form.Item
                    {...cell}
                    name={[f.name, 'fileType']}
                    rules={[{ max: 40, message: '文件类别最多 40 个字符' }]}
                  >
                    <Input placeholder="如 pdf" aria-label="文件类别" data-testid="annex-filetype" />
                  </Form.Item>
                ),
              },
              {
                title: '模板',
                key: 'template',
                width: 120,
                render: (_, f) => (
                  <Form.Item {...cell} name={[f.name, 'template']}>
                    <TemplateName />
                  </Form.Item>
                ),
              },
              {
                title: '操作',
                key: 'ops',
                width: 110,
                fixed: 'right',
                render: (_, f, i) => (
                  <RowOps
                    index={i}
                    count={fields.length}
                    move={move}
                    onRemove={() => remove(f.name)}
                    testId="annex"
                    confirm={{ title: '确认删除该附件类型？', description: '已上传的文件不会被删除。' }}
                  />
                ),
              },
            ];
            return (
              <>
                <RowsTable fields={fields} columns={columns} scrollX={1060} testId="annex-table" />
                <Space style={{ marginTop: 12 }} wrap>
                  <Button
                    type="dashed"
                    icon={<PlusOutlined />}
                    disabled={fields.length >= MAX_ATTACHMENT_TYPES}
                    onClick={() => add(blankRow())}
                    data-testid="annex-add"
                  >
                    新增附件类型
                  </Button>
                  <Button type="primary" htmlType="submit" loading={saving} data-testid="annex-save">
                    保存
                  </Button>
                  <Typography.Text type="secondary">
                    共 {fields.length} 个，最多 {MAX_ATTACHMENT_TYPES} 个；删除类型不会删除已上传的文件
                  </Typography.Text>
                </Space>
              </>
            );
          }}
        </Form.List>
      </Form>
    );

  return (
    <Card size="small" title="附件类型" style={{ marginTop: 16 }} data-testid="annex-types">
      {content}
    </Card>
  );
}
