import {
  type ApiBody,
  type BidSummary,
  bidSummarySchema,
  type OpeningHall,
  type OpeningRespond,
  paths,
} from '@ks/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { decryptSummary, toBase64, unwrapFileKey } from '../lib/bidCrypto';
import { type BidSecret, bidUnwrapper } from './bids';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/**
 * The remote opening hall (不见面开标, issue 17): the sections the caller may enter, one section's hall, and its steps.
 * Every step answers the hall as it is now, which goes straight into the hall's query; the others in the hall learn
 * of it from the live channel (event `opening`).
 */

export const OPENING_KEY = ['opening'] as const;

export const openingSectionsQuery = queryOptions({
  queryKey: [...OPENING_KEY, 'sections'],
  queryFn: () => call('openingSections'),
});

export const openingHallKey = (sectionId: string) => [...OPENING_KEY, 'hall', sectionId] as const;

export const openingHallQuery = (sectionId: string) =>
  queryOptions({
    queryKey: openingHallKey(sectionId),
    queryFn: () => call('openingHall', { params: { sectionId } }),
    enabled: sectionId.length > 0,
  });

/** Put a step's answer into the hall's query (and mark the section list stale: its status may have changed). */
export function setHall(qc: QueryClient, hall: OpeningHall): void {
  qc.setQueryData(openingHallKey(hall.section.id), hall);
  void qc.invalidateQueries({ queryKey: openingSectionsQuery.queryKey, refetchType: 'none' });
}

export const openingSignIn = (sectionId: string) => call('openingSignIn', { data: { sectionId } });
export const openingStart = (body: { sectionId: string; decryptMinutes: number }) =>
  call('openingStart', { data: body });
export const openingDecrypt = (body: ApiBody<'openingDecrypt'>) => call('openingDecrypt', { data: body });
export const openingDraw = (sectionId: string) => call('openingDraw', { data: { sectionId } });
export const openingRead = (sectionId: string) => call('openingRead', { data: { sectionId } });
export const openingRespond = (body: OpeningRespond) => call('openingRespond', { data: body });
export const openingAnswer = (body: { id: string; answer: string }) => call('openingAnswer', { data: body });
export const openingClose = (sectionId: string) => call('openingClose', { data: { sectionId } });

/** 开标记录 (PDF), handed to the browser as a download. */
export async function downloadOpeningRecord(sectionId: string, fallbackName = '开标记录.pdf'): Promise<void> {
  const result = await download({
    url: `${paths.openingRecord.path}?${new URLSearchParams({ sectionId })}`,
    method: paths.openingRecord.method,
  });
  saveBlob(result, fallbackName);
}

export interface UnwrappedBid {
  /** the raw AES-256 file key, base64 (32 bytes): what openingDecrypt takes */
  fileKey: string;
  /** the bid's own 开标一览表, opened with that key (null: the bid was sealed without one) */
  summary: BidSummary | null;
}

/**
 * The bidder's side of decryption at opening: unwrap the bid's file key in this browser (the passphrase unlocks the
 * private key, or the CA agent unwraps it with the certificate's key) and open the sealed 开标一览表 with it, so the
 * bidder sees what will be read out before handing the key over.
 */
export async function unwrapForOpening(
  bid: { keyId: string; wrappedKey: string; summary: string | null },
  secret: BidSecret,
): Promise<UnwrappedBid> {
  const raw = await unwrapFileKey(await bidUnwrapper(bid.keyId, secret), bid.wrappedKey);
  try {
    if (!bid.summary) return { fileKey: toBase64(raw), summary: null };
    const parsed = bidSummarySchema.safeParse(await decryptSummary(raw, bid.summary));
    if (!parsed.success) throw new Error('开标一览表的内容不完整或格式有误');
    return { fileKey: toBase64(raw), summary: parsed.data };
  } finally {
    raw.fill(0);
  }
}
