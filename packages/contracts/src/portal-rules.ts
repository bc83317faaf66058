/**
 * Portal rules both sides run (zod-free, so the web bundles them alone): calendar dates of the public filters, and the
 * link rules of notices — what an attachment, a body link and a body image may point at.
 */
import { paths } from './paths';

// ---- dates ---------------------------------------------------------------------------------------------------------

/** The dates a public filter accepts: real calendar days between these (PostgreSQL has no year 0; nobody means 0001). */
export const PORTAL_DATE_MIN = '1900-01-01';
export const PORTAL_DATE_MAX = '2099-12-31';
export const DATE_FORMAT_MESSAGE = '日期格式有误，请重新输入';
export const DATE_RANGE_MESSAGE = `日期须在 ${PORTAL_DATE_MIN} 至 ${PORTAL_DATE_MAX} 之间`;

/** Why a YYYY-MM-DD text is not a usable date (not a real day: 2020-13-45, 2020-02-30; out of range: 0000-01-01), or null. */
export function dateProblem(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return DATE_FORMAT_MESSAGE;
  const y = Number(value.slice(0, 4));
  const m = Number(value.slice(5, 7));
  const d = Number(value.slice(8, 10));
  // the day against its month in that year (29 February); the year itself is checked by range below
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
  if (days === undefined || d < 1 || d > days) return DATE_FORMAT_MESSAGE;
  if (value < PORTAL_DATE_MIN || value > PORTAL_DATE_MAX) return DATE_RANGE_MESSAGE;
  return null;
}

export const isPortalDate = (value: string | null | undefined): value is string =>
  typeof value === 'string' && dateProblem(value) === null;

// ---- links in notices ----------------------------------------------------------------------------------------------

/**
 * The rule a trading centre wants for what a notice points at:
 * - attachments are files uploaded to this platform for notices (`upload-notice`), addressed by their download path;
 *   anything else — another site, a typed path, a file that does not exist (a dead link) — is refused;
 * - images and videos in the body are files of this platform (the editor uploads them), so the portal never loads
 *   anything from another site (the content security policy would block it anyway);
 * - links in the body are http(s) addresses of other sites (shown with rel="noopener noreferrer", in a new window),
 *   paths of this site, mail addresses or anchors — never protocol-relative (`//host`), never with a backslash
 *   (`/\host` is `//host` to a browser), never with a user name before the host (`https://gov.cn@evil.example`).
 */
export const NOTICE_LINK_MESSAGES = {
  attachmentNotOurs: '附件须为本平台上传的文件，请使用“上传附件”',
  attachmentMissing: '附件文件不存在或已删除，请重新上传',
  attachmentNotNotice: '该文件不是公告附件，请通过“上传附件”上传',
  badLink: '正文中的链接地址无效：只允许 http/https 网址、本站路径或邮箱地址',
  mediaNotOurs: '正文中的图片和视频须上传到本平台，不能引用其他网站的地址',
  fileMissing: '正文中引用的文件不存在、已删除或未公开，请重新上传',
} as const;

const FILE_URL = new RegExp(
  `^${paths.fileDownload.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\?fileId=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$`,
  'i',
);

/** The download address of a stored file. */
export const fileUrlOf = (fileId: string) => `${paths.fileDownload.path}?fileId=${fileId}`;

/** The file id when the address is exactly this platform's download address of a file, else null. */
export function fileIdOfUrl(url: string): string | null {
  const m = FILE_URL.exec(url.trim());
  return m ? m[1]!.toLowerCase() : null;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const UNSAFE_CHARS = /[\u0000-\u0020\u007f\\]/;

/** A path of this site: one leading slash (not `//`, not `/\`), no backslash, no whitespace or control characters. */
export function isSameSitePath(url: string): boolean {
  return /^\/(?![/\\])/.test(url) && !UNSAFE_CHARS.test(url);
}

/** An absolute http(s) address of another site: scheme, `//`, a host without user name, no backslash or whitespace. */
export function isExternalHttpUrl(url: string): boolean {
  if (UNSAFE_CHARS.test(url)) return false;
  if (!/^https?:\/\/[^/?#@:]+(:\d{1,5})?([/?#]|$)/i.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** Whether a body link (`<a href>`) may stay: http(s) to other sites, paths of this site, mailto:, #anchors. */
export function isAllowedBodyHref(href: string): boolean {
  const h = href.trim();
  if (h.startsWith('#')) return !UNSAFE_CHARS.test(h);
  if (/^mailto:/i.test(h)) return /^mailto:[^\s\\@]+@[^\s\\@]+$/i.test(h);
  return isSameSitePath(h) || isExternalHttpUrl(h);
}

/** Whether a body image or video address may stay: a path of this site only. */
export const isAllowedMediaSrc = (src: string) => isSameSitePath(src.trim());

/**
 * An address that stays on this site whatever page it is on: a path (`/…`) or a relative reference (`a.png`,
 * `../a.png`) — no scheme, not protocol-relative, no backslash. What a browser may load under `img-src 'self'`.
 */
export function isSameOriginReference(url: string): boolean {
  const u = url.trim();
  if (!u || UNSAFE_CHARS.test(u)) return false;
  if (u.startsWith('//')) return false;
  return !/^[a-z][a-z0-9+.-]*:/i.test(u);
}

/** A link the portal may put in href (attachments, data links): http(s) of other sites or paths of this site. */
export function safeHref(url: string | null | undefined): string | null {
  const u = url?.trim();
  if (!u) return null;
  return isSameSitePath(u) || isExternalHttpUrl(u) ? u : null;
}
