import { describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_SIZE } from './constants';
import {
  attachmentOperations,
  badFormatMessage,
  baseName,
  checkExtension,
  checkFileCount,
  checkTypedFile,
  chunkCountOf,
  chunkRange,
  chunkSizeOf,
  cleanFileName,
  contentMatchesExtension,
  DEFAULT_MAX_FILES,
  displayProgress,
  extensionOf,
  FILE_NAME_MAX,
  IMAGE_EXTENSIONS,
  KNOWN_FORMATS,
  mimeOf,
  missingRequiredAnnexes,
  needsChunking,
  parseFormats,
  previewKind,
  requiredAnnexMessage,
  sniffFormat,
  TYPED_NAME_MAX,
  tooLargeMessage,
  UPLOAD_EXTENSIONS,
  UploadMsg,
  uploadPercent,
  VIDEO_EXTENSIONS,
} from './files-rules';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? Array.from(p, (c) => c.charCodeAt(0)) : p)));
const PNG = bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'rest');
const JPG = bytes([0xff, 0xd8, 0xff, 0xe0], 'JFIF');
const WEBP = bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 ');
const PDF = bytes('%PDF-1.7\n');
const EXE = bytes('MZ', [0x90, 0, 3, 0]);

describe('constants of §5 and §9', () => {
  it('accepts exactly jpg, png, jpeg, jpe, webp, pdf; previews the image types; 3 files; names of 64', () => {
    expect(UPLOAD_EXTENSIONS).toEqual(['jpg', 'png', 'jpeg', 'jpe', 'webp', 'pdf']);
    expect(IMAGE_EXTENSIONS).toEqual(['jpg', 'png', 'jpeg', 'jpe', 'webp']);
    expect(DEFAULT_MAX_FILES).toBe(3);
    expect(TYPED_NAME_MAX).toBe(64);
    expect(UPLOAD_CHUNK_SIZE).toBe(5242880);
  });
  it('words the §5 and §8 messages verbatim', () => {
    expect(UploadMsg.NOT_IMAGE_OR_PDF).toBe('请上传图片或PDF文件');
    expect(UploadMsg.NAME_TOO_LONG).toBe('文件名超过64位字符，请重新命名后上传！');
    expect(UploadMsg.NETWORK_CONGESTED).toBe('当前网络拥堵，请重新上传！');
    expect(UploadMsg.FAILED).toBe('上传失败！');
    expect(UploadMsg.TYPED_FAILED).toBe('文件上传失败，请重新上传！');
    expect(UploadMsg.EMPTY_PREVIEW).toBe('请先选择要查看的图片');
    expect(badFormatMessage(['pdf', 'jpg'])).toBe('格式错误，请上传【pdf,jpg】格式');
    expect(tooLargeMessage(10)).toBe('文件大小不能超过【10 MB】!');
    expect(requiredAnnexMessage('营业执照')).toBe('附件为必填项，请上传【营业执照】附件！');
  });
});

describe('names', () => {
  it('takes the extension of the last segment, lower case', () => {
    expect(extensionOf('合同.PDF')).toBe('pdf');
    expect(extensionOf('a.tar.gz')).toBe('gz');
    expect(extensionOf('noext')).toBe('');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('dir.d/file')).toBe('');
  });
  it('keeps only the last segment of a name with a path, and drops control and bidi characters', () => {
    expect(baseName('C:\\Users\\x\\报告.pdf')).toBe('报告.pdf');
    expect(cleanFileName('../../etc/passwd.png')).toBe('passwd.png');
    expect(cleanFileName('/etc/passwd.png')).toBe('passwd.png');
    expect(cleanFileName('..\\..\\boot.ini.png')).toBe('boot.ini.png');
    expect(cleanFileName('a\u0000b.png')).toBe('ab.png');
    expect(cleanFileName('  invoice\u202Egnp.exe ')).toBe('invoicegnp.exe');
    expect(cleanFileName('..')).toBe('');
    expect(cleanFileName('dir/')).toBe('');
  });
  it('shortens a very long name and keeps its extension', () => {
    const long = `${'文'.repeat(400)}.pdf`;
    const out = cleanFileName(long);
    expect(Array.from(out)).toHaveLength(FILE_NAME_MAX);
    expect(out.endsWith('.pdf')).toBe(true);
  });
});

describe('§5 accepted formats', () => {
  it('answers 请上传图片或PDF文件 for anything but the six extensions', () => {
    for (const ok of ['a.jpg', 'b.PNG', 'c.jpeg', 'd.jpe', 'e.webp', 'f.pdf']) expect(checkExtension(ok)).toBeNull();
    for (const bad of ['a.exe', 'b.docx', 'c', 'd.png.exe', 'e.gif']) {
      expect(checkExtension(bad)).toBe('请上传图片或PDF文件');
    }
  });
  it('names other lists in its message', () => {
    expect(checkExtension('a.pdf', IMAGE_EXTENSIONS)).toBe(UploadMsg.IMAGE_ONLY);
    expect(checkExtension('a.avi', VIDEO_EXTENSIONS)).toBe(UploadMsg.VIDEO_ONLY);
    expect(checkExtension('a.pdf', ['doc', 'docx'])).toBe('格式错误，请上传【doc,docx】格式');
    expect(checkExtension('')).toBe(UploadMsg.EMPTY_NAME);
  });
  it('counts files against the default of 3', () => {
    expect(checkFileCount(2, 1)).toBeNull();
    expect(checkFileCount(2, 2)).toBe('最多只能上传3个文件');
    expect(checkFileCount(0, 5, 10)).toBeNull();
  });
});

describe('§5 typed attachments', () => {
  const type = { annexName: '营业执照', annexFormat: 'pdf,jpg', annexSize: 2 };
  it('refuses a name over 64 characters (Chinese characters count once)', () => {
    const name64 = `${'营'.repeat(60)}.pdf`;
    expect(checkTypedFile({ name: name64, size: 1 }, type)).toBeNull();
    expect(checkTypedFile({ name: `营${name64}`, size: 1 }, type)).toBe('文件名超过64位字符，请重新命名后上传！');
  });
  it('refuses a format outside the list, naming the list', () => {
    expect(checkTypedFile({ name: 'a.png', size: 1 }, type)).toBe('格式错误，请上传【pdf,jpg】格式');
  });
  it('refuses a size over the type limit in MB, at the byte', () => {
    expect(checkTypedFile({ name: 'a.pdf', size: 2 * 1024 * 1024 }, type)).toBeNull();
    expect(checkTypedFile({ name: 'a.pdf', size: 2 * 1024 * 1024 + 1 }, type)).toBe('文件大小不能超过【2 MB】!');
    expect(checkTypedFile({ name: 'a.pdf', size: 10 ** 9 }, { annexFormat: 'pdf', annexSize: 0 })).toBeNull();
  });
  it('reads format lists written in several ways', () => {
    expect(parseFormats('PDF、.JPG；png, *.doc pdf')).toEqual(['pdf', 'jpg', 'png', 'doc']);
    expect(parseFormats('')).toEqual([]);
    expect(parseFormats(null)).toEqual([]);
  });
  it('lists required types without a file', () => {
    const types = [
      { annexName: '营业执照', annexNo: '01', isRequired: true },
      { annexName: '申请书', annexNo: '02', isRequired: true },
      { annexName: '其他', annexNo: '03', isRequired: false },
    ];
    expect(
      missingRequiredAnnexes(types, [
        { annexNo: '01', url: '/x' },
        { annexNo: '02', url: null },
      ]),
    ).toEqual(['申请书']);
  });
});

describe('content signatures', () => {
  it('recognises the formats by their first bytes', () => {
    expect(sniffFormat(PNG)).toBe('png');
    expect(sniffFormat(JPG)).toBe('jpg');
    expect(sniffFormat(WEBP)).toBe('webp');
    expect(sniffFormat(PDF)).toBe('pdf');
    expect(sniffFormat(bytes([0xef, 0xbb, 0xbf], '%PDF-1.4'))).toBe('pdf');
    expect(sniffFormat(bytes('GIF89a'))).toBe('gif');
    expect(sniffFormat(bytes([0, 0, 0, 0x20], 'ftypisom'))).toBe('mp4');
    expect(sniffFormat(bytes([0x1a, 0x45, 0xdf, 0xa3]))).toBe('webm');
    expect(sniffFormat(bytes('PK', [3, 4]))).toBe('zip');
    expect(sniffFormat(bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe('ole');
    expect(sniffFormat(bytes('Rar!', [0x1a, 0x07, 0]))).toBe('rar');
    // the library's client tools (资料库): Windows executables and 7-Zip archives; other uploads never list them
    expect(sniffFormat(EXE)).toBe('exe');
    expect(sniffFormat(bytes([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]))).toBe('7z');
    expect(sniffFormat(new Uint8Array())).toBeNull();
    expect(sniffFormat(bytes('RIFF', [0, 0, 0, 0], 'WAVE'))).toBeNull();
  });
  it('refuses a .exe renamed .png and content of another type', () => {
    expect(contentMatchesExtension('png', EXE)).toBe(false);
    expect(contentMatchesExtension('png', JPG)).toBe(false);
    expect(contentMatchesExtension('pdf', PNG)).toBe(false);
    expect(contentMatchesExtension('PNG', PNG)).toBe(true);
    for (const ext of ['jpg', 'jpeg', 'jpe']) expect(contentMatchesExtension(ext, JPG)).toBe(true);
    expect(contentMatchesExtension('docx', bytes('PK', [3, 4]))).toBe(true);
    expect(contentMatchesExtension('exe', EXE)).toBe(true);
    expect(contentMatchesExtension('exe', PNG)).toBe(false);
    expect(contentMatchesExtension('msi', bytes([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))).toBe(true);
    expect(contentMatchesExtension('bat', EXE)).toBe(false);
  });
  it('knows a signature and a content type for every format a type may list', () => {
    for (const f of KNOWN_FORMATS) expect(mimeOf(f), f).not.toBe('application/octet-stream');
    expect(mimeOf('bat')).toBe('application/octet-stream');
  });
  it('previews images and PDF inline and videos in the video dialog', () => {
    expect(previewKind('a.JPG')).toBe('image');
    expect(previewKind('pdf')).toBe('pdf');
    expect(previewKind('clip.mp4')).toBe('video');
    expect(previewKind('a.zip')).toBeNull();
  });
});

describe('chunks and progress', () => {
  it('chunks files over 5242880 bytes in 5242880-byte parts, the last one shorter', () => {
    const size = 12 * 1024 * 1024;
    expect(needsChunking(UPLOAD_CHUNK_SIZE)).toBe(false);
    expect(needsChunking(UPLOAD_CHUNK_SIZE + 1)).toBe(true);
    expect(chunkCountOf(size)).toBe(3);
    expect(chunkCountOf(1)).toBe(1);
    expect(chunkRange(size, 2)).toEqual({ start: 2 * UPLOAD_CHUNK_SIZE, end: size });
    expect(chunkSizeOf(size, 0)).toBe(UPLOAD_CHUNK_SIZE);
    expect(chunkSizeOf(size, 2)).toBe(size - 2 * UPLOAD_CHUNK_SIZE);
    expect(chunkSizeOf(size, 3)).toBe(0);
  });
  it('answers percent with two decimals and shows at least 5, 99.9 until merged', () => {
    expect(uploadPercent(1, 3)).toBe(33.33);
    expect(uploadPercent(3, 3)).toBe(100);
    expect(uploadPercent(0, 0)).toBe(0);
    expect(displayProgress(0)).toBe(5);
    expect(displayProgress(33.33)).toBe(33.3);
    expect(displayProgress(100)).toBe(99.9);
    expect(displayProgress(100, true)).toBe(100);
  });
});

describe('§4 attachment operation', () => {
  it('marks new files add, removed files del, kept files empty', () => {
    expect(attachmentOperations(['a', 'b'], ['b', 'c'])).toEqual([
      { fileId: 'b', fileOperationType: '' },
      { fileId: 'c', fileOperationType: 'add' },
      { fileId: 'a', fileOperationType: 'del' },
    ]);
  });
});
