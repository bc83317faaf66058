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
