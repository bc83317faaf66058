/**
 * The shell's one live channel (issue 14): server-sent events on `GET /ks/live/v1/stream`, one stream per signed-in
 * tab. Every event names its type; `data` is a small JSON object that tells the page what to re-read (the page then
 * asks the usual API, so the event never carries what the reader may not see).
 */
export const LIVE_EVENT_TYPES = [
  /** the caller's open to-dos changed (submitted, decided, assigned): data { systemCoding?, gnCoding? } */
  'todos',
  /** a system notice was published, changed or withdrawn: data { id } */
  'notice',
  /** a message arrived in the message centre (a review result, an administrator's message): data { id? } */
  'message',
  /** a customer-service conversation has a new message: data { conversationId } */
  'chat',
  /** the list of open customer-service conversations changed (agents' console): data { conversationId } */
  'chat-queue',
  /** something happened in a section's opening hall (sign-in, decryption, reading, confirmation): data { sectionId } */
  'opening',
  /** something happened in a section's evaluation (sign-in, declaration, scores submitted or reopened, result): data { sectionId } */
  'evaluation',
  /** a section's supervision changed (assigned, revoked, a finding recorded): data { sectionId } */
  'monitor',
  /** a cost-file detection moved (progress, done, failed): data { sectionId, detectionId } */
  'cost',
  /** 数据交换 (issue 19): a registration sync moved or a pulled registration was decided: data { jobId?, id? } */
  'dex',
  /** sent by the client library itself after a reconnect that could not replay everything: re-read counts */
  'resync',
] as const;
export type LiveEventType = (typeof LIVE_EVENT_TYPES)[number];

/** How the server says that the stream is healthy while nothing happens (a comment line), in ms. */
export const LIVE_HEARTBEAT_MS = 25_000;
/** How long missed events are kept for a reconnecting tab (Last-Event-ID), in ms. */
export const LIVE_REPLAY_MS = 10 * 60_000;

/**
 * The stream: `GET` with the session's bearer token (the web reads it with fetch, so the token never sits in a URL)
 * and, on a reconnect, `Last-Event-ID`. Answers `text/event-stream`: `id`, `event` (a LIVE_EVENT_TYPES member) and
 * `data` (JSON) per event; 401 in the envelope without a live session. The server ends the stream when the session
 * is revoked or expires (a last `event: closed`), and the client does not reconnect after it.
 */
export const LIVE_STREAM_PATH = '/ks/live/v1/stream';
