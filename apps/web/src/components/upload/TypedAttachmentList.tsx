import { DownloadOutlined } from '@ant-design/icons';
import { DEFAULT_MAX_FILES, parseFormats } from '@ks/contracts';
import { Table, type TableColumnsType, Typography } from 'antd';
import type { HTMLAttributes } from 'react';
import type { AttachmentType, UploadedFile, UploadTarget } from '../../api/files';
import { AttachmentUploader } from './AttachmentUploader';
import type { HashFn } from './hashFile';
import type { AttachmentFile } from './types';

export interface TypedAttachmentListProps {
  /** the node's attachment types (att-description) */
  types: AttachmentType[];
  /** the record's files (with their annexNo) */
  files: AttachmentFile[];
  /** node and system of the uploads */
  target: Pick<UploadTarget, 'gnCoding' | 'systemCoding'>;
  readOnly?: boolean;
  /** files per type (default 3) */
  maxPerType?: number;
  onUploaded?: (type: AttachmentType | null, file: UploadedFile, local: File) => void;
  onRemove?: (file: AttachmentFile) => void;
  /** an uploader started (1) or finished (-1) uploading */
  onBusy?: (delta: 1 | -1) => void;
  hash?: HashFn;
}

interface Row {
  key: string;
  type: AttachmentType | null;
  files: AttachmentFile[];
}

const OTHER = '__other__';

/**
 * The typed attachments of a record (spec §3 attachment type, §5): one row per type of the node — required marker,
 * name, accepted formats and size, the template to download (a public address), and the type's files with their
 * uploader, which applies the type's rules (64 characters, formats, MB) before sending. Files of no type follow in
 * one row. Read-only: links and previews only.
 */
export function TypedAttachmentList({
  types,
  files,
  target,
  readOnly = false,
  maxPerType = DEFAULT_MAX_FILES,
  onUploaded,
  onRemove,
  onBusy,
  hash,
}: TypedAttachmentListProps) {
  const rows: Row[] = types.map((t) => ({
    key: t.annexNo,
    type: t,
    files: files.filter((f) => f.annexNo === t.annexNo),
  }));
  const others = files.filter((f) => !types.some((t) => t.annexNo === f.annexNo));
  if (others.length) rows.push({ key: OTHER, type: null, files: others });

  const columns: TableColumnsType<Row> = [
    {
      key: 'name',
      title: '附件类型',
      width: 240,
      render: (_, row) =>
        row.type ? (
          <span data-testid={`annex-name-${row.type.annexNo}`}>
            {row.type.isRequired ? (
              <span style={{ color: '#ff4d4f', marginInlineEnd: 4 }} title="必填" data-testid="annex-required">
                *
              </span>
            ) : null}
            {row.type.annexName}
          </span>
        ) : (
          '其他附件'
        ),
    },
    {
      key: 'rule',
      title: '格式与大小',
      width: 200,
      render: (_, row) =>
        row.type ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {parseFormats(row.type.annexFormat).join('、') || '不限格式'}
            {row.type.annexSize > 0 ? `，不超过 ${row.type.annexSize} MB` : ''}
          </Typography.Text>
        ) : null,
    },
    {
      key: 'template',
      title: '模板',
      width: 110,
      render: (_, row) =>
        row.type?.template ? (
          <a
            href={row.type.template}
            download={row.type.templateName ?? undefined}
            data-testid={`annex-template-${row.type.annexNo}`}
          >
            <DownloadOutlined /> 模板下载
          </a>
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    {
      key: 'files',
      title: '文件',
      render: (_, row) => (
        <AttachmentUploader
          testId={`annex-files-${row.type?.annexNo ?? 'other'}`}
          files={row.files}
          type={row.type}
          max={row.type ? maxPerType : Math.max(row.files.length, 1)}
          readOnly={readOnly}
          canUpload={Boolean(row.type)}
          target={{
            ...target,
            fileNo: row.type?.annexNo,
            fileType: row.type?.fileType || undefined,
          }}
          hash={hash}
          onUploaded={(file, local) => onUploaded?.(row.type, file, local)}
          onRemove={onRemove}
          onBusyChange={(b) => onBusy?.(b ? 1 : -1)}
        />
      ),
    },
  ];

  return (
    <div data-testid="typed-attachments">
      <Table<Row>
        size="small"
        bordered
        rowKey="key"
        pagination={false}
        columns={columns}
        dataSource={rows}
        onRow={(row) => ({ 'data-testid': `annex-row-${row.type?.annexNo ?? 'other'}` }) as HTMLAttributes<HTMLElement>}
      />
    </div>
  );
}
