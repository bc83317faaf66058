import { UploadMsg } from '@ks/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { UploadedFile, UploadTarget } from '../../api/files';
import { failedMessage, type Notify, reportUploadError } from './errors';
import type { HashFn } from './hashFile';
import { UploadJob, type UploadPhase, UploadStopped } from './uploader';

/** An upload in flight, as the progress list shows it. */
export interface UploadItem {
  uid: string;
  name: string;
  size: number;
  progress: number;
  phase: UploadPhase;
  /** over 5 MB: a cancellable progress bar */
  chunked: boolean;
  cancelling: boolean;
}

export interface UploadQueueOptions {
  target: UploadTarget;
  /** typed attachment: failures say 文件上传失败，请重新上传！ */
  typed: boolean;
  notify: Notify;
  onUploaded: (file: UploadedFile, local: File) => void;
  /** what the files are for (default: attachments of records) */
  usage?: 'attachment' | 'notice' | 'help' | 'library';
  hash?: HashFn;
  sleep?: (ms: number) => Promise<void>;
}

let seq = 0;

/**
 * The uploads of one uploader: each chosen file becomes an UploadJob whose progress is shown until it is stored
 * (handed to onUploaded), refused (its §8 message) or cancelled. Leaving the page raises every job's stop flag.
 */
export function useUploadQueue(options: UploadQueueOptions) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const jobs = useRef(new Map<string, UploadJob>());
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const running = jobs.current;
    return () => {
      for (const job of running.values()) job.stop();
      running.clear();
    };
  }, []);

  const update = useCallback((uid: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((i) => (i.uid === uid ? { ...i, ...patch } : i)));
  }, []);
  const remove = useCallback((uid: string) => {
    jobs.current.delete(uid);
    setItems((list) => list.filter((i) => i.uid !== uid));
  }, []);

  const start = useCallback(
    (file: File) => {
      const uid = `u${++seq}`;
      const o = latest.current;
      const job = new UploadJob(file, {
        target: o.target,
        usage: o.usage,
        hash: o.hash,
        sleep: o.sleep,
        onProgress: (progress) => update(uid, { progress }),
        onPhase: (phase) => update(uid, { phase }),
      });
      jobs.current.set(uid, job);
      setItems((list) => [
        ...list,
        {
          uid,
          name: file.name,
          size: file.size,
          progress: 0,
          phase: 'uploading',
          chunked: job.chunked,
          cancelling: false,
        },
      ]);
      job.run().then(
        (stored) => {
          remove(uid);
          if (stored) latest.current.onUploaded(stored, file);
          else latest.current.notify(failedMessage(latest.current.typed), 'error');
        },
        (err: unknown) => {
          if (err instanceof UploadStopped) {
            // a cancel removes its row itself once the wait is over
            if (!cancelling.current.has(uid)) remove(uid);
            return;
          }
          remove(uid);
          reportUploadError(err, latest.current.typed, { notify: latest.current.notify });
        },
      );
      return job;
    },
    [remove, update],
  );

  const cancelling = useRef(new Set<string>());

  /** Cancel (already confirmed): stop, free the parts, wait 3 s, then the row goes. */
  const cancel = useCallback(
    async (uid: string) => {
      const job = jobs.current.get(uid);
      if (!job || cancelling.current.has(uid)) return;
      cancelling.current.add(uid);
      update(uid, { cancelling: true });
      try {
        await job.cancel();
      } finally {
        cancelling.current.delete(uid);
        remove(uid);
      }
      latest.current.notify(UploadMsg.CANCELLED, 'info');
    },
    [remove, update],
  );

  return { items, start, cancel, busy: items.length > 0 };
}
