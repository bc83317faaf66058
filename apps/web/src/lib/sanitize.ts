import DOMPurify from 'dompurify';

/**
 * Notice bodies are sanitised by the server when saved; they are sanitised again here before they touch the DOM
 * (defence in depth: a bug or an old row on the server must not become script in the visitor's browser).
 * Scripts, event handlers, javascript: URLs, forms, frames and styles blocks are removed; links that open a new
 * window get rel="noopener noreferrer".
 */
let hooked = false;

function ensureHook(): void {
  if (hooked) return;
  hooked = true;
  DOMPurify.addHook('afterSanitizeAttributes', (node) => {
    if (node.tagName === 'A' && node.getAttribute('target') === '_blank') {
      node.setAttribute('rel', 'noopener noreferrer');
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

/** A link target that is safe to put in href: http(s) addresses and same-site paths only. */
export function safeHref(url: string | null | undefined): string | null {
  const u = url?.trim();
  if (!u) return null;
  if (/^https?:\/\//i.test(u)) return u;
  if (u.startsWith('/') && !u.startsWith('//')) return u;
  return null;
}
