import { VIDEO_PREVIEW_HEIGHT } from '@ks/contracts';
import { Alert, Modal, Spin } from 'antd';
import type { AttachmentFile } from './types';
import { useFileSource } from './useFileSource';

/**
 * The video preview dialog (screen 5): a frame 780 px high playing the stored video through its download address
 * (signed, so <video> needs no token; the server answers Range requests with 206, so it seeks).
 */
export function VideoPreviewDialog({
  file,
  onClose,
}: {
  /** the video to play; null: closed */
  file: AttachmentFile | null;
  onClose: () => void;
}) {
  const open = Boolean(file);
  const { src, loading, error } = useFileSource(file, open);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={file?.fileName ?? '视频预览'}
      width={1200}
      footer={null}
      destroyOnHidden
      centered
    >
      <div
        data-testid="video-frame"
        style={{
          height: VIDEO_PREVIEW_HEIGHT,
          display: 'flex',
          justifyContent: 'center',
          alignItems: 'center',
          background: '#000',
        }}
      >
        {error ? (
          <Alert type="error" showIcon title={error} />
        ) : loading || !src ? (
          <Spin />
        ) : (
          // biome-ignore lint/a11y/useMediaCaption: user-uploaded videos come without caption tracks
          <video
            src={src}
            controls
            autoPlay
            preload="metadata"
            data-testid="video-player"
            style={{ width: '100%', height: '100%' }}
          />
        )}
      </div>
    </Modal>
  );
}
