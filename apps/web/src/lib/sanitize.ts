import { safeHref as allowedHref, isAllowedBodyHref, isExternalHttpUrl, isSameOriginReference } from '@ks/contracts';
import DOMPurify from 'dompurify';

/**
 * Rich text (notice bodies, engine `editor` fields) is sanitised by the server when saved; it is sanitised again here
 * before it touches the DOM (defence in depth: a bug or an old row on the server must not become script in the
 * visitor's browser). DOMPurify parses the untrusted HTML into an inert document of its own (DOMParser: no scripts
 * run, no images load) and hands back only what survives; the live document only ever receives that.
 *
 * Removed: scripts, event handlers, javascript: URLs, forms, frames, style blocks and attributes. Links follow the
 * portal's rule (contracts portal-rules): http(s) to other sites — opened in a new window with rel="noopener
 * noreferrer" — paths of this site, mail and anchors; anything else (`//host`, `/\host`, `https://a@host` …) loses
 * its address. Images and videos load from this site only (paths and relative references): another site's address —
 * or a data: URI — is dropped, so a page never asks
 * the browser for something the content security policy forbids.
 */
let hooked = false;

const MEDIA_ATTRS: Record<string, string[]> = {
  IMG: ['src', 'srcset'],
  VIDEO: ['src', 'poster'],
  SOURCE: ['src', 'srcset'],
  AUDIO: ['src'],
  TRACK: ['src'],
};

function ensureHook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null) {
        if (!isAllowedBodyHref(href)) node.removeAttribute('href');
        else if (isExternalHttpUrl(href.trim())) node.setAttribute('target', '_blank');
      }
      if (node.getAttribute('target') === '_blank') node.setAttribute('rel', 'noopener noreferrer');
      return;
    }
    for (const attr of MEDIA_ATTRS[node.tagName] ?? []) {
      const v = node.getAttribute(attr);
      if (v !== null && (attr === 'srcset' || !isSameOriginReference(v))) node.removeAttribute(attr);
    }
  });
}

export function sanitizeHtml(html: string | null | undefined): string {
  if (!html) return '';
  ensureHook();
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    ADD_ATTR: ['target'],
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'frame', 'object', 'embed'],
    FORBID_ATTR: ['style'],
  });
}

/** A link target that is safe to put in href: http(s) addresses of other sites and paths of this site only. */
export const safeHref = allowedHref;
