import { fileIdOfUrl, isAllowedBodyHref, isAllowedMediaSrc, NOTICE_LINK_MESSAGES as L } from '@ks/contracts';

/**
 * The notice link rules (contracts portal-rules) as the form checks them before saving; the server checks them again
 * and also that referenced files exist. The HTML is read in an inert document (DOMParser: nothing loads or runs).
 */
export function noticeBodyProblem(html: string | null | undefined): string | null {
  if (!html) return null;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  for (const a of doc.querySelectorAll('a[href]')) {
    if (!isAllowedBodyHref(a.getAttribute('href') ?? '')) return L.badLink;
  }
  for (const el of doc.querySelectorAll('img, video, source, audio')) {
    for (const attr of ['src', 'poster']) {
      const v = el.getAttribute(attr);
      if (v !== null && !isAllowedMediaSrc(v)) return L.mediaNotOurs;
    }
  }
  return null;
}

/** An attachment address the server will take: the download address of a file uploaded here. */
export const isOwnFileUrl = (url: string) => fileIdOfUrl(url) !== null;
