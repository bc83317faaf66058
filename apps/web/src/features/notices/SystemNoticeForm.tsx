import {
  fileIdOfUrl,
  NOTICE_EXTENSIONS,
  previewKind,
  SYSTEM_NOTICE_AUDIENCE_LABELS,
  SYSTEM_NOTICE_AUDIENCES,
  SYSTEM_NOTICE_ENTERPRISES_MAX,
  SYSTEM_NOTICE_TITLE_MAX,
  SYSTEM_NOTICE_TYPE_LABELS,
  type SystemNotice,
  type SystemNoticeAudience,
  type SystemNoticeSave,
  type SystemNoticeType,
} from '@ks/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Radio, Select, Spin } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useRef, useState } from 'react';
import { enterpriseListQuery } from '../../api/accounts';
import { roleOptionsQuery } from '../../api/permission';
import { saveSystemNotice } from '../../api/systemNotices';
import { FormDialog } from '../../components/admin';
import { LazyRichTextEditor } from '../../components/editor/LazyRichTextEditor';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';

export interface NoticeAttachmentValue {
  name: string;
  url: string;
  fileSize?: number | null;
}

export interface SystemNoticeFormValues {
  type: SystemNoticeType;
  title: string;
  msg: string;
  attachment: NoticeAttachmentValue | null;
  audience: SystemNoticeAudience;
  roleCode?: string;
  enterpriseIds: string[];
  window: [Dayjs, Dayjs];
}

/** Form values → the save body of the contract (times as instants). */
export function toSaveBody(v: SystemNoticeFormValues, record: SystemNotice | null): SystemNoticeSave {
  return {
    ...(record ? { id: record.id, version: record.version } : {}),
    type: v.type,
    title: v.title.trim(),
    msg: v.msg,
    url: v.attachment?.url ?? null,
    urlName: v.attachment?.name ?? null,
    audience: v.audience,
    roleCode: v.audience === 'role' ? (v.roleCode ?? null) : null,
    enterpriseIds: v.audience === 'enterprises' ? v.enterpriseIds : [],
    startAt: v.window[0].toISOString(),
    endAt: v.window[1].toISOString(),
  };
}

function startValues(record: SystemNotice | null): Partial<SystemNoticeFormValues> {
  if (!record)
    return {
      type: 1,
      msg: '',
      attachment: null,
      audience: 'everyone',
      enterpriseIds: [],
      window: [dayjs().startOf('minute'), dayjs().add(7, 'day').startOf('minute')],
    };
  return {
    type: record.type,
    title: record.title,
    msg: record.msg,
    attachment: record.url ? { name: record.urlName ?? '附件', url: record.url } : null,
    audience: record.audience,
    roleCode: record.roleCode ?? undefined,
    enterpriseIds: record.enterprises.map((e) => e.id),
    window: [dayjs(record.startAt), dayjs(record.endAt)],
  };
}

/** 附件: one public notice file (upload-notice), kept as its name and download address. */
function AttachmentField({
  value,
  onChange,
}: {
  value?: NoticeAttachmentValue | null;
  onChange?: (v: NoticeAttachmentValue | null) => void;
}) {
  const files = useMemo(
    () =>
      value
        ? [
            {
              fileId: fileIdOfUrl(value.url) ?? value.url,
              fileName: value.name,
              fileSize: value.fileSize ?? null,
              url: value.url,
              preview: previewKind(value.name),
              annexNo: null,
            },
          ]
        : [],
    [value],
  );
  return (
    <AttachmentUploader
      files={files}
      target={{}}
      usage="notice"
      max={1}
      accept={NOTICE_EXTENSIONS}
      onUploaded={(f) => onChange?.({ name: f.fileName, url: f.url, fileSize: f.fileSize })}
      onRemove={() => onChange?.(null)}
      testId="system-notice-attachment"
    />
  );
}

/** 指定企业: a multi-select that searches the enterprises by name as one types; the chosen ones keep their names. */
function EnterprisePicker({
  value,
  onChange,
  known,
}: {
  value?: string[];
  onChange?: (v: string[]) => void;
  known: { id: string; name: string }[];
}) {
  const [keyword, setKeyword] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const [debounced, setDebounced] = useState('');
  const list = useQuery({
    ...enterpriseListQuery({ keyword: debounced || undefined, pageNum: 1, pageSize: 20 }),
    placeholderData: keepPreviousData,
  });
  const names = useRef(new Map<string, string>());
  for (const e of known) names.current.set(e.id, e.name);
  for (const e of list.data?.records ?? []) names.current.set(e.id, e.name);
  const options = [
    ...new Map(
      [...(value ?? []).map((id) => [id, names.current.get(id) ?? id] as const)]
        .concat((list.data?.records ?? []).map((e) => [e.id, e.name] as const))
        .map(([id, name]) => [id, { value: id, label: name }]),
    ).values(),
  ];
  return (
    <Select
      mode="multiple"
      value={value}
      onChange={onChange}
      showSearch={{
        filterOption: false,
        searchValue: keyword,
        onSearch: (v: string) => {
          setKeyword(v);
          if (timer.current) clearTimeout(timer.current);
          timer.current = setTimeout(() => setDebounced(v.trim()), 300);
        },
      }}
      options={options}
      placeholder="输入企业名称搜索并选择"
      notFoundContent={list.isFetching ? <Spin size="small" /> : '暂无数据'}
      maxCount={SYSTEM_NOTICE_ENTERPRISES_MAX}
      data-testid="system-notice-enterprises"
      style={{ width: '100%' }}
    />
  );
}

/** the form's fields; the server's url / urlName go on 附件, startAt / endAt on 有效期 */
const FIELDS = ['type', 'title', 'msg', 'attachment', 'audience', 'roleCode', 'enterpriseIds', 'window'];
const FIELD_OF: Record<string, string> = {
  url: 'attachment',
  urlName: 'attachment',
  startAt: 'window',
  endAt: 'window',
};

/** Create or edit a system notice: type, title, the HTML body in the editor, one attachment, audience and window. */
export function SystemNoticeFormDialog({
  open,
  record,
  onClose,
  onSaved,
}: {
  open: boolean;
  record: SystemNotice | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [form] = Form.useForm<SystemNoticeFormValues>();
  const audience = Form.useWatch('audience', form);
  const roles = useQuery({ ...roleOptionsQuery, enabled: open });
  return (
    <FormDialog<SystemNoticeFormValues, SystemNotice>
      open={open}
      subject={record}
      form={form}
      title={record ? '编辑系统通知' : '新建系统通知'}
      variant="drawer"
      width={860}
      keepMounted={false}
      values={() => startValues(record)}
      fields={FIELDS}
      mapName={(name) => {
        const mapped = FIELD_OF[String(name[0])];
        return mapped ? [mapped] : name;
      }}
      submit={(v) => saveSystemNotice(toSaveBody(v, record))}
      onClose={onClose}
      onSaved={onSaved}
      testId="system-notice-save"
      dialogTestId="system-notice-dialog"
    >
      <Form.Item name="type" label="通知类型" rules={[{ required: true, message: '请选择通知类型' }]}>
        <Radio.Group
          optionType="button"
          options={([1, 2] as const).map((t) => ({
            value: t,
            label: SYSTEM_NOTICE_TYPE_LABELS[t],
          }))}
          data-testid="system-notice-type"
        />
      </Form.Item>
      <Form.Item
        name="title"
        label="标题"
        rules={[
          { required: true, whitespace: true, message: '请输入通知标题' },
          { max: SYSTEM_NOTICE_TITLE_MAX, message: `标题不能超过${SYSTEM_NOTICE_TITLE_MAX}个字符` },
        ]}
      >
        <Input
          maxLength={SYSTEM_NOTICE_TITLE_MAX}
          showCount
          placeholder="请输入通知标题"
          data-testid="system-notice-title"
        />
      </Form.Item>
      <Form.Item
        name="msg"
        label="内容"
        extra="滚动公告在顶部横幅中以纯文字滚动显示；弹窗通知显示完整格式"
        rules={[{ required: true, whitespace: true, message: '请填写通知内容' }]}
      >
        <LazyRichTextEditor height={260} data-testid="system-notice-msg" />
      </Form.Item>
      <Form.Item name="attachment" label="附件" extra={`选填，1 个；支持 ${NOTICE_EXTENSIONS.join('、')}`}>
        <AttachmentField />
      </Form.Item>
      <Form.Item name="audience" label="通知对象" rules={[{ required: true, message: '请选择通知对象' }]}>
        <Radio.Group
          options={SYSTEM_NOTICE_AUDIENCES.map((a) => ({ value: a, label: SYSTEM_NOTICE_AUDIENCE_LABELS[a] }))}
          data-testid="system-notice-audience"
        />
      </Form.Item>
      {audience === 'role' ? (
        <Form.Item name="roleCode" label="角色" rules={[{ required: true, message: '请选择角色' }]}>
          <Select
            placeholder="请选择角色"
            loading={roles.isFetching}
            options={(roles.data ?? []).map((r) => ({ value: r.code, label: `${r.name}（${r.memberCount} 人）` }))}
            data-testid="system-notice-role"
          />
        </Form.Item>
      ) : null}
      {audience === 'enterprises' ? (
        <Form.Item name="enterpriseIds" label="企业" rules={[{ required: true, message: '请选择企业' }]}>
          <EnterprisePicker known={record?.enterprises ?? []} />
        </Form.Item>
      ) : null}
      <Form.Item
        name="window"
        label="有效期"
        rules={[
          { required: true, message: '请选择开始和结束时间' },
          {
            validator: async (_, v: [Dayjs, Dayjs] | undefined) => {
              if (v && !v[1].isAfter(v[0])) throw new Error('结束时间须晚于开始时间');
            },
          },
        ]}
      >
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          style={{ width: '100%' }}
          data-testid="system-notice-window"
        />
      </Form.Item>
    </FormDialog>
  );
}
