import {
  fileIdOfUrl,
  isAllowedBodyHref,
  isAllowedMediaSrc,
  NOTICE_LINK_MESSAGES as L,
  type NoticeInput,
} from '@ks/contracts';
import sanitizeHtml from 'sanitize-html';
import type { Db } from '../../db/client';
import { validationFailed } from '../../platform/errors';
import { filesByIds } from '../files/files.repo';

/** An address in a notice body: the tag, the attribute and its value as the browser would read it (entities decoded). */
export interface BodyRef {
  tag: string;
  attr: string;
  value: string;
}

const MEDIA: Record<string, string[]> = { img: ['src'], video: ['src', 'poster'], source: ['src'], audio: ['src'] };

/** Every link and media address of an HTML body, read by the same parser the sanitiser uses. */
export function bodyRefs(html: string): BodyRef[] {
  const refs: BodyRef[] = [];
  sanitizeHtml(html, {
    allowedTags: false,
    allowedAttributes: false,
    // only read, never output: the parse must see every tag (and not warn about keeping scripts)
    allowVulnerableTags: true,
    transformTags: {
      '*': (tagName, attribs) => {
        const tag = tagName.toLowerCase();
        const attrs = tag === 'a' ? ['href'] : (MEDIA[tag] ?? []);
        for (const attr of attrs) {
          const value = attribs[attr];
          if (value !== undefined) refs.push({ tag, attr, value });
        }
        return { tagName, attribs };
      },
    },
  });
  return refs;
}

const shown = (v: string) => (v.length > 60 ? `${v.slice(0, 60)}…` : v);

/**
 * The link rules of a notice (see NOTICE_LINK_MESSAGES in contracts): attachments must be public notice files that
 * exist; body images and videos must be files of this platform; body links http(s), paths of this site, mail or
 * anchors; a body address of a stored file must name a public file that exists. A 400 with field messages otherwise.
 */
export async function checkNoticeLinks(db: Db, input: Pick<NoticeInput, 'attachments' | 'bodyHtml'>): Promise<void> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => {
    const list = errors[key] ?? [];
    if (!list.includes(message)) list.push(message);
    errors[key] = list;
  };

  const refs = bodyRefs(input.bodyHtml);
  const bodyFiles: string[] = [];
  for (const r of refs) {
    const value = r.value.trim();
    if (r.tag === 'a') {
      if (!isAllowedBodyHref(value)) add('bodyHtml', `${L.badLink}（${shown(value)}）`);
    } else if (!isAllowedMediaSrc(value)) {
      add('bodyHtml', `${L.mediaNotOurs}（${shown(value)}）`);
    }
    const id = fileIdOfUrl(value);
    if (id) bodyFiles.push(id);
  }

  const attachmentIds = input.attachments.map((a) => fileIdOfUrl(a.url));
  const ids = [...new Set([...bodyFiles, ...attachmentIds.filter((id): id is string => id !== null)])];
  const found = new Map((await filesByIds(db, ids)).map((f) => [f.id, f]));
  for (const [i, id] of attachmentIds.entries()) {
    const f = id ? found.get(id) : undefined;
    const problem = !id
      ? L.attachmentNotOurs
      : !f
        ? L.attachmentMissing
        : f.visibility !== 'public' || f.source !== 'notice'
          ? L.attachmentNotNotice
          : null;
    if (problem) add(`attachments.${i}.url`, problem);
  }
  for (const id of bodyFiles) {
    if (found.get(id)?.visibility !== 'public') add('bodyHtml', L.fileMissing);
  }
  if (Object.keys(errors).length) throw validationFailed(errors);
}
