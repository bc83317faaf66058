import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { previewUrlQuery } from '../../api/files';
import type { AttachmentFile } from './types';

/**
 * The address an <img>, <iframe> or <video> shows a file from: an object URL of the local copy, else the stored
 * file's signed preview address (10 minutes, Range requests for video). null while it loads or when it fails.
 */
export function useFileSource(file: AttachmentFile | null | undefined, enabled = true) {
  const local = file?.local ?? null;
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!local || !enabled || typeof URL.createObjectURL !== 'function') {
      setObjectUrl(null);
      return;
    }
    const u = URL.createObjectURL(local);
    setObjectUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [local, enabled]);
  const stored = useQuery({
    ...previewUrlQuery(file?.fileId ?? ''),
    enabled: enabled && Boolean(file?.fileId) && !local,
  });
  return {
    src: local ? objectUrl : (stored.data?.url ?? null),
    loading: !local && stored.isPending && enabled && Boolean(file?.fileId),
    error: !local && stored.isError ? stored.error.message || '预览地址获取失败' : null,
  };
}
