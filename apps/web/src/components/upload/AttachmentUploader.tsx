import {
  DeleteOutlined,
  DownloadOutlined,
  EyeOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  PlaySquareOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { type AttachmentTypeRule, DEFAULT_MAX_FILES, parseFormats, UPLOAD_EXTENSIONS } from '@ks/contracts';
import { App, theme as antdTheme, Button, Popconfirm, Space, Tooltip, Typography, Upload } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { downloadStoredFile, type UploadedFile, type UploadTarget } from '../../api/files';
import type { Notify } from './errors';
import { formatFileSize } from './format';
import type { HashFn } from './hashFile';
import { PreviewDialog } from './PreviewDialog';
import { acceptAttr, checkChosenFiles, checkContent } from './rules';
import type { AttachmentFile } from './types';
import { UploadProgressList } from './UploadProgress';
import { useFileSource } from './useFileSource';
import { useUploadQueue } from './useUploadQueue';
import { VideoPreviewDialog } from './VideoPreviewDialog';

export interface AttachmentUploaderProps {
  /** the files it holds */
  files: AttachmentFile[];
  /** where uploads go (node, system; typed: fileNo and fileType) */
  target: UploadTarget;
  /** a typed attachment: its name, format and size rules and its failure message */
  type?: (AttachmentTypeRule & { annexNo?: string }) | null;
  /** at most this many files (default 3) */
  max?: number;
  /** formats without a type (default jpg, png, jpeg, jpe, webp, pdf) */
  accept?: readonly string[];
  /** links and previews only: no upload or delete controls (administrators, reviewers, the detail view) */
  readOnly?: boolean;
  /** false: its files may be removed but no more added (files of no type) */
  canUpload?: boolean;
  onUploaded?: (file: UploadedFile, local: File) => void;
  onRemove?: (file: AttachmentFile) => void;
  /** uploads of this uploader started (true) or all ended (false) */
  onBusyChange?: (busy: boolean) => void;
  /** md5 of chunked uploads (default: the md5 worker) */
  hash?: HashFn;
  /**
   * notice: portal notices' attachments (upload-notice; chunked with usage notice), public once stored; help: the help
   * administration's PDF and video files (always chunked, usage help); library: the 资料库's tools, manuals, templates
   * and videos (always chunked, usage library)
   */
  usage?: 'attachment' | 'notice' | 'help' | 'library';
  testId?: string;
}

const ICONS = {
  image: <FileImageOutlined />,
  pdf: <FilePdfOutlined style={{ color: '#d4380d' }} />,
  video: <PlaySquareOutlined style={{ color: '#1677ff' }} />,
} as const;

/**
 * The attachment uploader (screen 7): thumbnails of its files with preview (images; PDF in a frame; videos in the
 * video dialog), download and remove; the file chooser checks format, count, typed rules and content before anything
 * is sent; uploads show their progress (over 5 MB chunked, with a cancellable bar); 预览 opens the preview dialog,
 * which says 请先选择要查看的图片 when there is nothing to show.
 */
export function AttachmentUploader({
  files,
  target,
  type,
  max = DEFAULT_MAX_FILES,
  accept = UPLOAD_EXTENSIONS,
  readOnly = false,
  canUpload = true,
  onUploaded,
  onRemove,
  onBusyChange,
  hash,
  usage,
  testId = 'attachment-uploader',
}: AttachmentUploaderProps) {
  const { message } = App.useApp();
  const notify = useCallback<Notify>((text, kind) => void message[kind](text), [message]);
  const typed = Boolean(type);
  const queue = useUploadQueue({
    target,
    typed,
    notify,
    hash,
    usage,
    onUploaded: (file, local) => onUploaded?.(file, local),
  });
  const formats = useMemo(() => (type ? parseFormats(type.annexFormat) : [...accept]), [type, accept]);
  const previewable = useMemo(() => files.filter((f) => f.preview === 'image' || f.preview === 'pdf'), [files]);
  const [preview, setPreview] = useState<{ open: boolean; index: number }>({ open: false, index: 0 });
  const [video, setVideo] = useState<AttachmentFile | null>(null);
  const checking = useRef(false);

  // report changes of "uploading" only (not the first render), and an unmount while uploading
  const busyReport = useRef({ busy: false, report: onBusyChange });
  busyReport.current.report = onBusyChange;
  useEffect(() => {
    const b = busyReport.current;
    if (queue.busy !== b.busy) {
      b.busy = queue.busy;
      b.report?.(queue.busy);
    }
  }, [queue.busy]);
  useEffect(() => {
    const b = busyReport.current;
    return () => {
      if (b.busy) b.report?.(false);
    };
  }, []);

  const open = (file?: AttachmentFile) => {
    if (file?.preview === 'video') {
      setVideo(file);
      return;
    }
    const i = file ? previewable.indexOf(file) : 0;
    setPreview({ open: true, index: Math.max(0, i) });
  };

  /** A batch from the chooser (or a drop): every check before the first byte goes. */
  const choose = async (chosen: File[]) => {
    if (checking.current) return;
    checking.current = true;
    try {
      const problem = checkChosenFiles(chosen, { existing: files.length + queue.items.length, max, accept, type });
      if (problem) {
        notify(problem, 'warning');
        return;
      }
      for (const f of chosen) {
        const bad = await checkContent(f);
        if (bad) {
          notify(bad, 'warning');
          return;
        }
      }
      for (const f of chosen) queue.start(f);
    } finally {
      checking.current = false;
    }
  };

  const full = files.length + queue.items.length >= max;

  return (
    <div data-testid={testId} style={{ display: 'flex', flexDirection: 'column', gap: 8, minWidth: 0 }}>
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-start' }}>
        {files.map((f) => (
          <FileCard
            key={f.fileId}
            file={f}
            readOnly={readOnly}
            onPreview={() => open(f)}
            onRemove={() => onRemove?.(f)}
          />
        ))}
        {!files.length && readOnly ? (
          <Typography.Text type="secondary" data-testid="attachment-none">
            未上传
          </Typography.Text>
        ) : null}
      </div>
      {readOnly ? null : <UploadProgressList items={queue.items} onCancel={(uid) => void queue.cancel(uid)} />}
      <Space size={8} wrap>
        {readOnly || !canUpload ? null : (
          <Upload
            accept={acceptAttr(formats)}
            multiple={max > 1}
            showUploadList={false}
            disabled={full}
            beforeUpload={(file, batch) => {
              // one check per batch: antd calls this for each file of it
              if (file === batch[0]) void choose(batch as File[]);
              return Upload.LIST_IGNORE;
            }}
          >
            <Tooltip title={full ? `最多只能上传${max}个文件` : `支持 ${formats.join('、')}`}>
              <Button size="small" icon={<UploadOutlined />} disabled={full} data-testid="attachment-upload">
                上传
              </Button>
            </Tooltip>
          </Upload>
        )}
        {/* nothing uploaded (未上传) or nothing an image / PDF: nothing to preview */}
        <Tooltip title={previewable.length ? undefined : files.length ? '暂无可预览的图片或 PDF' : '暂无附件'}>
          <Button
            size="small"
            icon={<EyeOutlined />}
            disabled={previewable.length === 0}
            onClick={() => open()}
            data-testid="attachment-preview-all"
          >
            预览
          </Button>
        </Tooltip>
      </Space>
      <PreviewDialog
        open={preview.open}
        files={previewable}
        index={preview.index}
        onIndex={(index) => setPreview({ open: true, index })}
        onClose={() => setPreview((p) => ({ ...p, open: false }))}
      />
      <VideoPreviewDialog file={video} onClose={() => setVideo(null)} />
    </div>
  );
}

/** One file: thumbnail (images) or icon, name and size, with preview, download and (editing) remove. */
function FileCard({
  file,
  readOnly,
  onPreview,
  onRemove,
}: {
  file: AttachmentFile;
  readOnly: boolean;
  onPreview: () => void;
  onRemove: () => void;
}) {
  const [downloading, setDownloading] = useState(false);
  // the theme's colours (light and dark): a fixed light background would put the dark theme's white text on white
  const { token } = antdTheme.useToken();
  const download = async () => {
    setDownloading(true);
    try {
      await downloadStoredFile(file);
    } catch {
      // the download client has shown the §8 message
    } finally {
      setDownloading(false);
    }
  };
  return (
    <div
      data-testid="attachment-file"
      data-file-id={file.fileId}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        padding: '4px 8px',
        border: `1px solid ${token.colorBorderSecondary}`,
        borderRadius: 6,
        background: token.colorFillQuaternary,
        color: token.colorText,
        maxWidth: 360,
      }}
    >
      <Thumb file={file} onClick={file.preview ? onPreview : undefined} />
      <div style={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
        <Typography.Text ellipsis style={{ maxWidth: 200 }} title={file.fileName} data-testid="attachment-name">
          {file.fileName}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {formatFileSize(file.fileSize)}
          {file.added ? ' · 待保存' : ''}
        </Typography.Text>
      </div>
      <Space size={0}>
        {file.preview ? (
          <Button
            type="text"
            size="small"
            icon={<EyeOutlined />}
            aria-label={`预览 ${file.fileName}`}
            onClick={onPreview}
            data-testid="attachment-preview"
          />
        ) : null}
        <Button
          type="text"
          size="small"
          icon={<DownloadOutlined />}
          loading={downloading}
          aria-label={`下载 ${file.fileName}`}
          onClick={download}
          data-testid="attachment-download"
        />
        {readOnly ? null : (
          <Popconfirm
            title={`确定删除「${file.fileName}」吗？`}
            description={file.added ? undefined : '保存后生效'}
            okText="确定"
            cancelText="取消"
            onConfirm={onRemove}
          >
            <Button
              type="text"
              size="small"
              danger
              icon={<DeleteOutlined />}
              aria-label={`删除 ${file.fileName}`}
              data-testid="attachment-remove"
            />
          </Popconfirm>
        )}
      </Space>
    </div>
  );
}

function Thumb({ file, onClick }: { file: AttachmentFile; onClick?: () => void }) {
  const { src } = useFileSource(file, file.preview === 'image');
  const box = { width: 40, height: 40, flex: '0 0 40px', borderRadius: 4, overflow: 'hidden' } as const;
  const content =
    file.preview === 'image' && src ? (
      <img src={src} alt={file.fileName} data-testid="attachment-thumb" style={{ ...box, objectFit: 'cover' }} />
    ) : (
      <span style={{ ...box, display: 'flex', alignItems: 'center', justifyContent: 'center', fontSize: 22 }}>
        {file.preview ? ICONS[file.preview] : <FileOutlined />}
      </span>
    );
  return onClick ? (
    <button
      type="button"
      onClick={onClick}
      aria-label={`预览 ${file.fileName}`}
      style={{ padding: 0, border: 0, background: 'none', cursor: 'pointer', lineHeight: 0 }}
    >
      {content}
    </button>
  ) : (
    content
  );
}
