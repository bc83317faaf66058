import { DownloadOutlined } from '@ant-design/icons';
import {
  LIBRARY_KIND_LABELS,
  type LibraryItem,
  type LibraryKind,
  libraryExtensionsOf,
  type UploadedFile,
} from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, AutoComplete, Button, Form, Input, Select, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { downloadStoredFile } from '../../api/files';
import {
  addLibraryItem,
  deleteLibraryItem,
  LIBRARY_KEY,
  librarySeriesQuery,
  setLibraryCurrent,
  updateLibraryItem,
} from '../../api/library';
import { ActionLink, ConfirmAction, FormDialog, RowActions } from '../../components/admin';
import { AttachmentUploader } from '../../components/upload/AttachmentUploader';
import { formatFileSize } from '../../components/upload/format';
import { useCurrentUser } from '../../lib/sessionHooks';

/** Shared blocks of the 资料库 pages: download, the current tag, the upload and edit dialogs, the row actions. */

export const PRODUCT_SECTION = { title: '产品中心' };
export const STANDARD_SECTION = { title: '资料库' };

export const kindLabel = (k: LibraryKind) => LIBRARY_KIND_LABELS[k];
export const sizeOf = (item: LibraryItem) => formatFileSize(item.fileSize);

/** Only administrators change the library (the server checks again). */
export function useLibraryAdmin(): boolean {
  return useCurrentUser().userInfo?.loginRoleType === 'M';
}

export function useLibraryRefresh() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: LIBRARY_KEY });
}

export function CurrentTag({ item }: { item: Pick<LibraryItem, 'current'> }) {
  return item.current ? (
    <Tag color="green" data-testid="library-current-tag">
      当前版本
    </Tag>
  ) : null;
}

/** 下载: the stored file with the bearer token, under its stored name. */
export function DownloadButton({
  item,
  type = 'link',
  testId = 'library-download',
}: {
  item: Pick<LibraryItem, 'url' | 'fileName'>;
  type?: 'link' | 'primary' | 'default';
  testId?: string;
}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type={type}
      size={type === 'link' ? 'small' : 'middle'}
      icon={<DownloadOutlined />}
      loading={busy}
      data-testid={testId}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadStoredFile(item);
        } catch (e) {
          void message.error((e as Error).message || '下载失败，请稍后重试');
        } finally {
          setBusy(false);
        }
      }}
    >
      下载
    </Button>
  );
}

interface UploadValues {
  kind: LibraryKind;
  series: string;
  title: string;
  version: string;
  description?: string;
}

/**
 * 上传: a new item or a new version of a series. The file goes through the chunked upload (usage library, private
 * until added); the first version of a series becomes current, a later one asks whether to make it current.
 */
export function UploadDialog({
  open,
  kinds,
  series: fixedSeries,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** the kinds this page keeps; the first is the default */
  kinds: readonly LibraryKind[];
  /** a new version of this series (kind fixed to kinds[0]) */
  series?: string;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { modal } = App.useApp();
  const [form] = Form.useForm<UploadValues>();
  const kind = (Form.useWatch('kind', form) ?? kinds[0]) as LibraryKind;
  const seriesList = useQuery({ ...librarySeriesQuery(kind), enabled: open });
  const [file, setFile] = useState<UploadedFile | null>(null);
  const [fileError, setFileError] = useState(false);
  // every opening starts without a file
  useEffect(() => {
    if (open) {
      setFile(null);
      setFileError(false);
    }
  }, [open]);

  const askCurrent = (s: string, version: string, now: string | null) =>
    new Promise<boolean>((resolve) =>
      modal.confirm({
        title: '设为当前版本',
        content: `「${s}」当前版本为 ${now ?? '无'}，是否将新版本 ${version} 设为当前版本？`,
        okText: '设为当前版本',
        cancelText: '暂不设置',
        closable: false,
        maskClosable: false,
        keyboard: false,
        okButtonProps: { 'data-testid': 'library-make-current' } as never,
        cancelButtonProps: { 'data-testid': 'library-keep-current' } as never,
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );

  return (
    <FormDialog<UploadValues>
      open={open}
      form={form}
      subject={`${open}:${fixedSeries ?? ''}`}
      title={fixedSeries ? `上传新版本 · ${fixedSeries}` : '上传资料'}
      width={620}
      values={() => ({ kind: kinds[0], series: fixedSeries ?? '', title: '', version: '', description: '' })}
      fields={['kind', 'series', 'title', 'version', 'description']}
      submit={async (v) => {
        if (!file) {
          setFileError(true);
          throw new Error('请先上传资料文件');
        }
        const existing = (seriesList.data ?? []).find((s) => s.series === v.series.trim());
        const makeCurrent = existing
          ? await askCurrent(existing.series, v.version.trim(), existing.currentVersion)
          : true;
        return addLibraryItem({
          kind: v.kind,
          series: v.series,
          title: v.title,
          version: v.version,
          description: v.description ?? '',
          fileId: file.fileId,
          makeCurrent,
        });
      }}
      successText="上传成功"
      onClose={onClose}
      onSaved={onSaved}
      testId="library-upload-save"
      dialogTestId="library-upload-dialog"
    >
      <Form.Item name="kind" label="类别" rules={[{ required: true, message: '请选择类别' }]}>
        <Select
          disabled={Boolean(fixedSeries) || kinds.length === 1}
          options={kinds.map((k) => ({ value: k, label: kindLabel(k) }))}
          onChange={() => setFile(null)}
          data-testid="library-kind"
        />
      </Form.Item>
      <Form.Item
        name="series"
        label="所属资料"
        extra="同一资料的不同版本填写相同名称，例如“信用承诺书”"
        rules={[{ required: true, whitespace: true, message: '请填写所属资料（系列）' }]}
      >
        <AutoComplete
          disabled={Boolean(fixedSeries)}
          maxLength={60}
          options={(seriesList.data ?? []).map((s) => ({ value: s.series }))}
          filterOption={(input, o) => String(o?.value ?? '').includes(input)}
          data-testid="library-series"
        />
      </Form.Item>
      <Form.Item
        name="title"
        label="资料名称"
        rules={[{ required: true, whitespace: true, message: '请填写资料名称' }]}
      >
        <Input maxLength={100} data-testid="library-title" />
      </Form.Item>
      <Form.Item
        name="version"
        label="版本号"
        rules={[
          { required: true, whitespace: true, message: '请填写版本号' },
          { pattern: /^[0-9A-Za-z][0-9A-Za-z._-]*$/, message: '版本号只能由字母、数字、点、下划线和连字符组成' },
        ]}
      >
        <Input maxLength={30} placeholder="例如 2026.1" data-testid="library-version" />
      </Form.Item>
      <Form.Item name="description" label="说明">
        <Input.TextArea rows={3} maxLength={500} showCount data-testid="library-description" />
      </Form.Item>
      <Form.Item
        label="文件"
        required
        validateStatus={fileError && !file ? 'error' : undefined}
        help={fileError && !file ? '请先上传资料文件' : `支持 ${libraryExtensionsOf(kind).join('、')}`}
      >
        {file ? (
          <Typography.Text data-testid="library-uploaded">
            {file.fileName}（{formatFileSize(file.fileSize)}）
            <Button type="link" size="small" onClick={() => setFile(null)}>
              重新选择
            </Button>
          </Typography.Text>
        ) : (
          <AttachmentUploader
            key={kind}
            files={[]}
            target={{}}
            usage="library"
            accept={libraryExtensionsOf(kind)}
            max={1}
            testId="library-uploader"
            onUploaded={(f) => setFile(f)}
          />
        )}
      </Form.Item>
    </FormDialog>
  );
}

/** 编辑: the title and the description of an item. */
export function EditDialog({
  item,
  onClose,
  onSaved,
}: {
  item: LibraryItem | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  return (
    <FormDialog<{ title: string; description?: string }>
      open={Boolean(item)}
      subject={item}
      title={`编辑资料 · ${item?.series ?? ''} ${item?.version ?? ''}`}
      values={() => ({ title: item?.title ?? '', description: item?.description ?? '' })}
      fields={['title', 'description']}
      submit={(v) => updateLibraryItem({ id: item!.id, title: v.title, description: v.description ?? '' })}
      onClose={onClose}
      onSaved={onSaved}
      testId="library-edit-save"
    >
      <Form.Item
        name="title"
        label="资料名称"
        rules={[{ required: true, whitespace: true, message: '请填写资料名称' }]}
      >
        <Input maxLength={100} data-testid="library-edit-title" />
      </Form.Item>
      <Form.Item name="description" label="说明">
        <Input.TextArea rows={3} maxLength={500} showCount />
      </Form.Item>
    </FormDialog>
  );
}

/** The administrator's row actions: 编辑, 设为当前版本 (when it is not), 删除 (the newest remaining becomes current). */
export function AdminActions({
  item,
  onEdit,
  onDone,
}: {
  item: LibraryItem;
  onEdit: (item: LibraryItem) => void;
  onDone: () => void;
}) {
  return (
    <>
      <ActionLink onClick={() => onEdit(item)} testId="library-edit">
        编辑
      </ActionLink>
      {item.current ? null : (
        <ConfirmAction
          title={`将 ${item.version} 设为「${item.series}」的当前版本？`}
          run={() => setLibraryCurrent(item.id)}
          successText="已设为当前版本"
          onDone={onDone}
          testId="library-set-current"
        >
          设为当前版本
        </ConfirmAction>
      )}
      <ConfirmAction
        title={`确认删除「${item.title}」${item.version}？删除后不可恢复。`}
        description={item.current ? '这是当前版本，删除后剩余最新的版本将成为当前版本。' : undefined}
        run={() => deleteLibraryItem(item.id)}
        successText="删除成功"
        onDone={onDone}
        danger
        testId="library-delete"
      >
        删除
      </ConfirmAction>
    </>
  );
}

/** The 操作 cell: 下载 for everyone, the administrator's actions beside it. */
export function ItemActions({
  item,
  admin,
  onEdit,
  onDone,
}: {
  item: LibraryItem;
  admin: boolean;
  onEdit: (item: LibraryItem) => void;
  onDone: () => void;
}) {
  return (
    <RowActions>
      <DownloadButton item={item} />
      {admin ? <AdminActions item={item} onEdit={onEdit} onDone={onDone} /> : null}
    </RowActions>
  );
}
