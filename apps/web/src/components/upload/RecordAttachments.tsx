import { type Annex, attachmentOperations, missingRequiredAnnexes } from '@ks/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Skeleton } from 'antd';
import { type Ref, useEffect, useImperativeHandle, useMemo, useRef, useState } from 'react';
import { type AttachmentOp, attachmentListQuery, attDescriptionQuery, deleteUploadedFile } from '../../api/files';
import type { HashFn } from './hashFile';
import { TypedAttachmentList } from './TypedAttachmentList';
import { type AttachmentFile, uploadedAttachment } from './types';

/** What the record pages ask of the attachments. */
export interface RecordAttachmentsHandle {
  /** §4 attachment operations of this edit: add for each new upload, del for each removal, '' for each kept file */
  operations(): AttachmentOp[];
  /** uploads still in flight */
  busy(): boolean;
  /** names of required types without a file */
  missingRequired(): string[];
  /** the record's annex rows after the operations were applied: the new saved state */
  applied(annex: Annex[]): void;
}

export interface RecordAttachmentsProps {
  gnCoding: string;
  systemCoding: string;
  /** null: a record not saved yet (files are attached when it is saved) */
  recordId: string | null;
  /** links and previews only (administrators, reviewers, the detail view, records under review) */
  readOnly: boolean;
  onDirtyChange?: (dirty: boolean) => void;
  /** uploads in flight, so the page can wait for them */
  onBusyChange?: (busy: boolean) => void;
  hash?: HashFn;
  ref?: Ref<RecordAttachmentsHandle>;
}

const fromAnnex = (rows: readonly Annex[]): AttachmentFile[] =>
  rows
    .filter((a): a is Annex & { fileId: string; url: string } => Boolean(a.fileId && a.url))
    .map((a) => ({
      fileId: a.fileId,
      fileName: a.fileName ?? a.annexName,
      fileSize: a.fileSize,
      url: a.url,
      preview: a.preview,
      annexNo: a.annexNo,
    }));

/**
 * The 附件材料 card of an engine record: the node's attachment types with the record's files. Editing, uploads and
 * removals stay on the page until the record is saved, which sends them as §4 operations (add / del / '');
 * a file uploaded and removed again before saving is deleted at once. Nodes without attachment types and records
 * without files show nothing.
 */
export function RecordAttachments({
  gnCoding,
  systemCoding,
  recordId,
  readOnly,
  onDirtyChange,
  onBusyChange,
  hash,
  ref,
}: RecordAttachmentsProps) {
  const queryClient = useQueryClient();
  const types = useQuery(attDescriptionQuery(gnCoding, systemCoding));
  const list = useQuery({ ...attachmentListQuery(gnCoding, recordId ?? ''), enabled: Boolean(recordId) });
  const [saved, setSaved] = useState<AttachmentFile[] | null>(recordId ? null : []);
  const [files, setFiles] = useState<AttachmentFile[]>([]);
  const [busy, setBusy] = useState(0);

  // the stored state, as soon as it arrives (adjusted while rendering, so no frame shows the card without its files)
  const [seen, setSeen] = useState<Annex[] | undefined>(undefined);
  if (list.data && list.data !== seen) {
    setSeen(list.data);
    const stored = fromAnnex(list.data);
    setSaved(stored);
    setFiles(stored);
  }

  const ops = useMemo(() => {
    if (!saved) return [];
    const byId = new Map(files.map((f) => [f.fileId, f]));
    return attachmentOperations(
      saved.map((f) => f.fileId),
      files.map((f) => f.fileId),
    ).map((op) => {
      const annexNo = byId.get(op.fileId)?.annexNo;
      return annexNo ? { ...op, fileNo: annexNo } : op;
    });
  }, [saved, files]);
  const dirty = ops.some((op) => op.fileOperationType !== '');

  const dirtyRef = useRef(onDirtyChange);
  dirtyRef.current = onDirtyChange;
  useEffect(() => dirtyRef.current?.(dirty), [dirty]);
  const busyRef = useRef(onBusyChange);
  busyRef.current = onBusyChange;
  useEffect(() => busyRef.current?.(busy > 0), [busy]);

  const typeList = types.data?.list ?? [];
  useImperativeHandle(
    ref,
    () => ({
      operations: () => ops,
      busy: () => busy > 0,
      missingRequired: () =>
        missingRequiredAnnexes(
          typeList,
          files.map((f) => ({ annexNo: f.annexNo, url: f.url })),
        ),
      applied: (annex) => {
        queryClient.setQueryData(attachmentListQuery(gnCoding, recordId ?? '').queryKey, annex);
        const stored = fromAnnex(annex);
        setSaved(stored);
        setFiles(stored);
      },
    }),
    [ops, busy, typeList, files, queryClient, gnCoding, recordId],
  );

  if (types.isPending || (recordId && list.isPending)) {
    return (
      <Card size="small" title="附件材料" style={{ marginTop: 16 }} data-testid="record-attachments-loading">
        <Skeleton active paragraph={{ rows: 3 }} />
      </Card>
    );
  }
  const error = types.error ?? list.error;
  if (error) {
    return (
      <Card size="small" title="附件材料" style={{ marginTop: 16 }} data-testid="record-attachments-error">
        <Alert
          type="warning"
          showIcon
          title={`附件加载失败：${error.message}`}
          action={
            <Button
              size="small"
              onClick={() => {
                void types.refetch();
                if (recordId) void list.refetch();
              }}
            >
              重试
            </Button>
          }
        />
      </Card>
    );
  }
  if (!typeList.length && !files.length && !saved?.length) return null;

  return (
    <Card
      size="small"
      title="附件材料"
      style={{ marginTop: 16 }}
      data-testid="record-attachments"
      data-readonly={readOnly ? '1' : '0'}
      extra={
        readOnly ? null : (
          <span style={{ fontSize: 12, color: 'rgba(0,0,0,0.45)' }}>
            <span style={{ color: '#ff4d4f' }}>*</span> 为必传附件；上传或删除的附件在保存后生效
          </span>
        )
      }
    >
      <TypedAttachmentList
        types={typeList}
        files={files}
        target={{ gnCoding, systemCoding }}
        readOnly={readOnly}
        hash={hash}
        onUploaded={(type, file, local) => {
          setFiles((list) => [...list, uploadedAttachment(file, local, type?.annexNo ?? file.fileNo)]);
        }}
        onBusy={(delta) => setBusy((n) => Math.max(0, n + delta))}
        onRemove={(file) => {
          setFiles((list) => list.filter((f) => f.fileId !== file.fileId));
          // uploaded in this edit and never attached: nothing refers to it, so it goes now
          if (file.added) void deleteUploadedFile(file.fileId).catch(() => undefined);
        }}
      />
    </Card>
  );
}
