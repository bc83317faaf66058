import type { UploadedFile } from '@ks/contracts';
/** A file an uploader shows: stored on the server (fileId), and for files chosen in this edit the local copy too. */
export interface AttachmentFile {
  fileId: string;
  fileName: string;
  fileSize: number | null;
  /** download address (bearer token) */
  url: string;
  preview: 'image' | 'pdf' | 'video' | null;
  /** attachment type (annexNo) */
  annexNo: string | null;
  /** the chosen file, while the page that chose it is open: previews without a request */
  local?: File;
  /** uploaded in this edit, not yet attached to the record (§4 add) */
  added?: boolean;
}

/** A file just uploaded in this edit, as its uploader shows it (of attachment type `annexNo`, if any). */
export const uploadedAttachment = (f: UploadedFile, local: File, annexNo: string | null = null): AttachmentFile => ({
  fileId: f.fileId,
  fileName: f.fileName,
  fileSize: f.fileSize,
  url: f.url,
  preview: f.preview,
  annexNo,
  local,
  added: true,
});
