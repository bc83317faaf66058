import { isAllowedBodyHref, isExternalHttpUrl } from '@ks/contracts';
import sanitizeHtml from 'sanitize-html';

/**
 * The one HTML sanitiser for user rich text (notices, articles): no scripts, no event handlers, no javascript: URLs,
 * links by the portal's rule (contracts portal-rules).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'u', 's', 'sub', 'sup', 'font', 'video', 'source'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'rel', 'title'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    // the editor's videos (wangEditor: <video controls><source src type></video>)
    video: ['src', 'poster', 'controls', 'width', 'height', 'preload'],
    source: ['src', 'type'],
    td: ['colspan', 'rowspan', 'align'],
    th: ['colspan', 'rowspan', 'align'],
    p: ['align'],
    '*': ['class'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'], video: ['http', 'https'], source: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    // links: http(s) of other sites open in a new window without opener or referrer; a link that is neither that nor a
    // path of this site, mail or an anchor (`/\host`, `https:/\host`, `https://a@host` …) loses its address
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      const h = href?.trim();
      if (!h || !isAllowedBodyHref(h)) return { tagName, attribs: rest };
      if (isExternalHttpUrl(h))
        return { tagName, attribs: { ...rest, href: h, target: '_blank', rel: 'noopener noreferrer' } };
      return {
        tagName,
        attribs: rest.target === '_blank' ? { ...rest, href: h, rel: 'noopener noreferrer' } : { ...rest, href: h },
      };
    },
  },
};

export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Plain text from users (chat messages): every tag removed (scripts and styles with their content), text escaped. */
export function sanitizePlainText(text: string): string {
  return sanitizeHtml(text, { allowedTags: [], allowedAttributes: {} });
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Plain text made safe inside HTML text or a quoted attribute: the platform's one escape for text it writes into HTML. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
