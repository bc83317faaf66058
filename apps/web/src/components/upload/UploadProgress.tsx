import { App, Button, Progress, Typography } from 'antd';
import { formatFileSize } from './format';
import type { UploadItem } from './useUploadQueue';

const PHASE_TEXT = {
  hashing: '正在计算文件校验码…',
  uploading: '上传中',
  merging: '正在合并校验…',
  done: '上传完成',
} as const;

/**
 * The progress of uploads in flight. Over 5 MB (chunked) a cancellable bar: 取消上传 asks for confirmation first,
 * then the parts are freed and the row waits 3 s (§4).
 */
export function UploadProgressList({
  items,
  onCancel,
  testId = 'upload-progress',
}: {
  items: UploadItem[];
  onCancel: (uid: string) => void;
  testId?: string;
}) {
  const { modal } = App.useApp();
  if (!items.length) return null;
  const confirmCancel = (item: UploadItem) =>
    modal.confirm({
      title: '提示',
      content: `确定取消上传「${item.name}」吗？已上传的部分将被删除。`,
      okText: '确定',
      cancelText: '继续上传',
      onOk: () => onCancel(item.uid),
    });
  return (
    <div data-testid={testId} style={{ display: 'flex', flexDirection: 'column', gap: 4, width: '100%' }}>
      {items.map((item) => (
        <div
          key={item.uid}
          data-testid="upload-progress-item"
          data-chunked={item.chunked ? '1' : '0'}
          style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}
        >
          <Typography.Text ellipsis style={{ maxWidth: 220 }} title={item.name}>
            {item.name}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
            {formatFileSize(item.size)} · {item.cancelling ? '正在取消…' : PHASE_TEXT[item.phase]}
          </Typography.Text>
          <Progress
            percent={item.progress}
            size="small"
            status={item.cancelling ? 'exception' : 'active'}
            format={(p) => `${p}%`}
            style={{ flex: 1, minWidth: 120, margin: 0 }}
            aria-label={`${item.name} 上传进度`}
            data-testid="upload-progress-bar"
          />
          {item.chunked ? (
            <Button
              size="small"
              danger
              disabled={item.cancelling}
              onClick={() => confirmCancel(item)}
              data-testid="upload-cancel"
            >
              取消上传
            </Button>
          ) : null}
        </div>
      ))}
    </div>
  );
}
