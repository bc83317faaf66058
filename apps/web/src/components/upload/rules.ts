import {
  type AttachmentTypeRule,
  checkExtension,
  checkFileCount,
  checkTypedFile,
  contentMatchesExtension,
  DEFAULT_MAX_FILES,
  extensionOf,
  SNIFF_BYTES,
  UPLOAD_EXTENSIONS,
  UploadMsg,
} from '@ks/contracts';

/**
 * What an uploader checks before anything is sent (spec §5), with the rules and messages the server runs too
 * (packages/contracts/src/files-rules.ts): the count (default 3), the name and format (default jpg, png, jpeg, jpe,
 * webp, pdf → 请上传图片或PDF文件; a typed attachment: 64 characters, its formats, its MB), then the content's
 * signature, so a renamed .exe never leaves the browser.
 */

export interface UploadRules {
  /** files the uploader holds already */
  existing: number;
  /** at most this many files (default 3) */
  max?: number;
  /** formats accepted when there is no type (default: images and PDF) */
  accept?: readonly string[];
  /** the attachment type whose rules apply */
  type?: AttachmentTypeRule | null;
}

/** The first problem of a batch of chosen files (count, then each file's name, format and size), or null. */
export function checkChosenFiles(files: readonly { name: string; size: number }[], rules: UploadRules): string | null {
  const count = checkFileCount(rules.existing, files.length, rules.max ?? DEFAULT_MAX_FILES);
  if (count) return count;
  for (const f of files) {
    const problem = rules.type
      ? checkTypedFile(f, rules.type)
      : checkExtension(f.name, rules.accept ?? UPLOAD_EXTENSIONS);
    if (problem) return problem;
    if (f.size === 0) return UploadMsg.EMPTY_FILE;
  }
  return null;
}

async function headOf(file: Blob): Promise<Uint8Array> {
  const slice = file.slice(0, SNIFF_BYTES);
  if (typeof slice.arrayBuffer === 'function') return new Uint8Array(await slice.arrayBuffer());
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('读取文件失败'));
    reader.readAsArrayBuffer(slice);
  });
}

/** Does the file's content match its extension (magic bytes)? The message when it does not, else null. */
export async function checkContent(file: File): Promise<string | null> {
  const head = await headOf(file);
  return contentMatchesExtension(extensionOf(file.name), head) ? null : UploadMsg.CONTENT_MISMATCH;
}

/** The `accept` attribute of the file chooser for a list of formats. */
export const acceptAttr = (formats: readonly string[]): string => formats.map((f) => `.${f}`).join(',');
