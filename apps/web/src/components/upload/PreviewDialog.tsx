import { DownloadOutlined, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { UploadMsg } from '@ks/contracts';
import { Alert, Button, Empty, Modal, Space, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { downloadStoredFile } from '../../api/files';
import type { AttachmentFile } from './types';
import { useFileSource } from './useFileSource';

/**
 * The preview dialog of the attachment uploader (screen 7): an image, or a PDF in a frame, with the previous / next
 * file and 下载. Opened with nothing to show it says 请先选择要查看的图片.
 */
export function PreviewDialog({
  open,
  files,
  index,
  onIndex,
  onClose,
}: {
  open: boolean;
  /** image and PDF files only */
  files: AttachmentFile[];
  index: number;
  onIndex: (i: number) => void;
  onClose: () => void;
}) {
  const file = files[index] ?? null;
  const { src, loading, error } = useFileSource(file, open);
  const [downloading, setDownloading] = useState(false);
  const many = files.length > 1;

  useEffect(() => {
    if (!open || !many) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'ArrowLeft' && index > 0) onIndex(index - 1);
      if (e.key === 'ArrowRight' && index < files.length - 1) onIndex(index + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, many, index, files.length, onIndex]);

  const download = async () => {
    if (!file) return;
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
    <Modal
      open={open}
      onCancel={onClose}
      title={file ? file.fileName : '预览'}
      width={file?.preview === 'pdf' ? 1000 : 860}
      destroyOnHidden
      centered
      footer={
        <Space>
          {many ? (
            <>
              <Button
                icon={<LeftOutlined />}
                disabled={index <= 0}
                onClick={() => onIndex(index - 1)}
                data-testid="preview-prev"
              >
                上一个
              </Button>
              <Typography.Text type="secondary" data-testid="preview-position">
                {index + 1} / {files.length}
              </Typography.Text>
              <Button
                icon={<RightOutlined />}
                iconPlacement="end"
                disabled={index >= files.length - 1}
                onClick={() => onIndex(index + 1)}
                data-testid="preview-next"
              >
                下一个
              </Button>
            </>
          ) : null}
          {file && !file.local ? (
            <Button icon={<DownloadOutlined />} loading={downloading} onClick={download} data-testid="preview-download">
              下载
            </Button>
          ) : null}
          <Button type="primary" onClick={onClose}>
            关闭
          </Button>
        </Space>
      }
    >
      <div
        data-testid="preview-dialog"
        style={{ minHeight: 200, display: 'flex', justifyContent: 'center', alignItems: 'center' }}
      >
        {!file ? (
          <Empty description={UploadMsg.EMPTY_PREVIEW} data-testid="preview-empty" />
        ) : error ? (
          <Alert type="error" showIcon title={error} />
        ) : loading || !src ? (
          <Spin />
        ) : file.preview === 'pdf' ? (
          <iframe
            src={src}
            title={file.fileName}
            data-testid="preview-pdf"
            style={{ width: '100%', height: '70vh', border: '1px solid #f0f0f0' }}
          />
        ) : (
          <img
            src={src}
            alt={file.fileName}
            data-testid="preview-image"
            style={{ maxWidth: '100%', maxHeight: '70vh', objectFit: 'contain' }}
          />
        )}
      </div>
    </Modal>
  );
}
