import { constants, createCipheriv, createHash, createPublicKey, publicEncrypt } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  BID_PLAIN_CHUNK,
  BID_SUMMARY_IV,
  type BidSummary,
  bidChunkCount,
  bidCipherSize,
  bidSegmentIv,
} from '@ks/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { bidKeys, tenderRegistrations, tenderSections } from '../db/schema';
import { type BidCaller, finishUpload, putChunk, saveKey, startUpload } from '../modules/bids/bids.service';
import { formPdf } from '../modules/files/templates/pdf';
import { projects } from '../modules/tender/project';
import type { Storage } from '../platform/storage';

/**
 * A sealed bid of the demo (issue 16): user1 (示例建设工程有限公司) registered for 太原市晋源区第二实验小学 BD-01 施工标段,
 * holds a passphrase-protected bid key (passphrase Demo@2026, as the demo password) and has sealed a bid file
 * there — encrypted as the browser does, uploaded through the module's own services. Constant key material (a demo
 * key pair made once, its private key only in PBKDF2-protected form; a fixed file key and its wrapping) keeps the
 * seed fast and its hashes the same on every run.
 */
export const DEMO_BID_PASSPHRASE = 'Demo@2026';
const DEMO_KEY = {
  publicKey:
    'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA01+Xvkh2LLIncPqiJdt6FTcVptftlm2mEhS8oP1C6CWK35zV/nsFQU6EzJJuqENE9aazSbU85DBGuNwpQ3C/etifwdLPfPYp5V49/BrYoB/abO3t0VI2TrijOHknRV16NnjjpfRF78CI8/yzZo5MbMSCryLf97Vb4UtbZ+X5m6JhixsRSm6KOqglomF5DyrY5D5nbBeNHXQgkT6RjKLuoo7ZKyqJ/wi7/t/IbkCwxQeNYg/0qmYgVE7sKIOn2WueHRaSpTKELHbzZXLNRdJoji/Akh1jKJIG8oiPGanmlEwvZqEhnobT56K+7opuVLAJKI5tr6fChinXnTTgPLcMnwIDAQAB',
  encryptedPrivateKey:
    '2JDKxQhMYCx9laxp4ANDrzWhVlDW9JEsEnf8hiAJVc5ezZbcTeX8NJXDel+iUt+kM/Q/OmbmFyZi3ye39NaY46+k5clVDuGLHC52Ky/zHvaO+AOzjEiPOz46wVdKYLS+qCfG60ZOe9PwVkdbMSWpDWTLhlPiPFhZFlj6ZusKw13TrZbJ5BM8ak9NWmvzj95MWcUusdy8uwCRSkF5GMfMfWzwPk4uUYT79ZEpGZfUWP9R8gNF7rSWpdcJ+WuSwR4VwarLvuCyAucV3oyuopu9nwQ/xE7+wiXaRSe55cmKDu5t3Vqsntvjiu1ryX9nGFY/5CXN7n5Y12B8Nt/8Y5U/1/NfysDFUrs69YTm5a3xQlEJQfeAd3bxgeiuoX2zC83mZE1HZ/qzCOYm7V6RpNaLeIiwkH8NIRXCBbNVqct/5/vl0BunmxixTSQPsIcqt3xkIjJZOiRxrG7S77LRaiAz+1MuvrKgOn/PpcMe58NLroNqzV5FBWXCyqfeyAxKCQu0vnFvu3+yrWQ4VNEOBW7eA89zxlrNIKC1YUXTYnk4/VvuIrn5RM5flEfZk6kEMNXTHlaRlly2i55hco/ePAvDeZxmWX/Ur+BShuenHIKvXqB8qVHAkfo4v4YWR7Md/VIAl4A4W1OxBzBNzHH/93V2eBxyVTehvrZ36maln2XI+C0EcQAKgZNPQou90h/1h2NkOQ/Vs6MK5ph43ZEvZxpGHyys1Q5vRXecdJ7smM6q+reskHl/WMeY+xyAIm6y8nyeM2TQ3fMD+K6Q3cBUgkC7+P9cwSKtt1pfuEl9amE4+IhOiU/r8RT/LhnXbYyS415cRvhYchdmde+bohlFNtmPG/WO9eG2DaVWlWkhWV9PAOuMoMJFJ2bOAJxbyTiNXFJOOoZdWICGk2n9n42ZFzSsBcznM2gxFqhLhwo4EsGWQI0u/kNCgesNSFUELL0HQ8l3NTNjPZ4YJdPy+tWabo1WXQdX76hnAN5pu8qtav44sYkeO0/SiRhOrd3FgovKGvt6O7HM9+Q95dVEvfu3UvJ+IJLRadrqVy6YLHI3rzPV/CPJBsCxfUI38nTcbJUVhQsbtaVT8cOYkBWHHiraferH1VY+ayjqq78wDtBceLzWXK19oneS7cDTiZWmm91Kv+hsVSIKs29uvv1697QtMM3RjJXn0hq5sT6ZTpfAy00UUjjHBEDx57eUHw82gYajTUzRFrhWD/m7AewZmWfydJwItjJL69Jl3R1UNIzssiJwl8mCrU/t+rhfGuAsma7+CK/c5soKhEqpkbKpU3ERb+jW14MbN1qRYD1gBb8jjzG79Pgh3HRwd4MPzrOGQoC1jJYpmheOD+50Bo5Ukd/s4UsDrQZ6VQhOm1CtLqv3hagrRdpFX3FXsM82t0IiCd7mP8+0FBm6zsOhH4rnyorZ25Iv5oxE7oCT8qhcBTyjGI/vSOYisJE1gV3Xkg1J1YoQqg3dbyvaJdgsF/WcDyZu+py9e0elOZyidFPn7yecU3K4ZcrdcFVkIYAx6upCq1Xnbx7vh+FK+e9XKzEbQhq3vz9w/6iGzjRscgpdXkb66h6eKZt3U4NLlYJCtum4pvEarG2qMOwMIxdXurd3AIzGa+LFNBwr6DVvMxnDryw6lpeXBmMbvw==',
  iv: '6+gQMGraCGWI80Jn',
  salt: 'RFfbSzrMCOnS8zOSn/wN6w==',
  wrappedKey:
    'pPZLBYANBGnjEGfLYqbXuK4bN7D1DKO29V558WULh2heID8G1nmMV18l6f5i7qRNfWm3Jbr4+Zch+X6wblK+Gbeg1ANhJtMnXDerT5Mev6lWdVkmhc64jOml0WueORm8FcgEzWwmR3EiP4z25PnpucsWfLMT8DpWQxzSB5go8jUTrmmM8m9/VoQAW80n9sYWapm77S31hezCU4LLvhC32eIg145Jw8vBuFz01waRrUdbh0JsuEyLAwQ+vGo9w8rKGeymPrJ81M8z51CYRqss1FJ1l8rDaDJIO0a9PpuBlOPRJA5tmcl2hJJ2K90P2vRZMop+FV3juBWq8E/CHJTpEg==',
};
const FILE_KEY = createHash('sha256').update('ks demo bid file key').digest();

/** The demo bid's plaintext: a one-page 投标函. */
export const demoBidPdf = () =>
  formPdf({
    file: '投标文件-施工标段.pdf',
    title: '投 标 函',
    note: '致：太原市晋源区教育局（招标人）、山西诚信招标代理有限公司（招标代理）',
    rows: [
      ['项目名称', '太原市晋源区第二实验小学教学综合楼建设工程'],
      ['标段', 'BD-01 施工标段'],
      ['投标人', '示例建设工程有限公司'],
      ['投标报价', '人民币叁仟柒佰陆拾捌万元整（¥37,680,000.00）'],
      ['工期', '540 日历天'],
      ['质量标准', '合格'],
      ['项目经理', '张伟（一级注册建造师）'],
    ],
    footer: ['投标人：示例建设工程有限公司（盖章）', '法定代表人或其委托代理人：（签字）'],
  });

/** The 开标一览表 sealed with a bid, encrypted as the browser does (BID_SUMMARY_IV under the file key). */
export function sealSummary(fileKey: Buffer, summary: BidSummary): string {
  const c = createCipheriv('aes-256-gcm', fileKey, BID_SUMMARY_IV);
  return Buffer.concat([c.update(JSON.stringify(summary), 'utf8'), c.final(), c.getAuthTag()]).toString('base64');
}

/** A demo bid's file key: fixed per label, so the demo's hashes are the same on every run. */
export const demoFileKey = (label: string) =>
  label ? createHash('sha256').update(`ks demo bid file key ${label}`).digest() : FILE_KEY;

type Deps = { db: Db; storage: Storage; now: () => Date; taskTtlMs: number };

/** The demo passphrase key (made once; its private key only in PBKDF2-protected form) set as the bidder's key. */
const demoKey = (deps: Deps, c: BidCaller) =>
  saveKey(deps, c, {
    kind: 'passphrase',
    publicKey: DEMO_KEY.publicKey,
    encryptedPrivateKey: DEMO_KEY.encryptedPrivateKey,
    iv: DEMO_KEY.iv,
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 310_000, salt: DEMO_KEY.salt },
  });

/** Encrypt `plain` under the label's file key (wrapped to the demo key) and seal it through the module's services. */
async function seal(
  deps: Deps,
  c: BidCaller,
  keyId: string,
  sectionId: string,
  bid: { fileName: string; plain: Buffer; summary: BidSummary; label: string },
) {
  const fileKey = demoFileKey(bid.label);
  const wrappedKey = bid.label
    ? publicEncrypt(
        {
          key: createPublicKey({ key: Buffer.from(DEMO_KEY.publicKey, 'base64'), format: 'der', type: 'spki' }),
          padding: constants.RSA_PKCS1_OAEP_PADDING,
          oaepHash: 'sha256',
        },
        fileKey,
      ).toString('base64')
    : DEMO_KEY.wrappedKey;
  const { plain } = bid;
  const task = await startUpload(deps, c, {
    sectionId,
    fileName: bid.fileName,
    plainSize: plain.length,
    cipherSize: bidCipherSize(plain.length),
    keyId,
    wrappedKey,
  });
  const n = bidChunkCount(plain.length);
  for (let i = 0; i < n; i++) {
    const ci = createCipheriv('aes-256-gcm', fileKey, bidSegmentIv(i, i === n - 1));
    const seg = plain.subarray(i * BID_PLAIN_CHUNK, (i + 1) * BID_PLAIN_CHUNK);
    const chunk = Buffer.concat([ci.update(seg), ci.final(), ci.getAuthTag()]);
    const sha = createHash('sha256').update(chunk).digest('hex');
    await putChunk(deps, c, task.uploadId, i, sha, Readable.from([chunk]));
  }
  await finishUpload(deps, c, {
    uploadId: task.uploadId,
    plainSha256: createHash('sha256').update(plain).digest('hex'),
    summary: sealSummary(fileKey, bid.summary),
  });
}

const register = (tx: Db, sectionId: string, c: BidCaller, contact: string, phone: string, at: Date) =>
  tx
    .insert(tenderRegistrations)
    .values({ sectionId, enterpriseId: c.enterpriseId!, userId: c.id, contact, phone, registeredAt: at })
    .onConflictDoNothing();

export async function seedBids(tx: Db, storage: Storage, who: { user: BidCaller }, now = new Date()) {
  const [project] = await projects.list(tx, { where: { xmbh: 'SXGC-2026-1101' } });
  const [section] = await tx
    .select()
    .from(tenderSections)
    .where(and(eq(tenderSections.projectId, project!.id), eq(tenderSections.code, 'BD-01')));
  await register(tx, section!.id, who.user, '张伟', '13935100001', now);
  const deps = { db: tx, storage, now: () => now, taskTtlMs: 3600_000 };
  const key = await demoKey(deps, who.user);
  await seal(deps, who.user, key.id, section!.id, {
    fileName: '投标文件-施工标段.pdf',
    plain: demoBidPdf(),
    summary: { price: 37_680_000, durationDays: 540, quality: '合格', manager: '张伟' },
    label: '',
  });
}

/** The project a demo bid is for, as its 投标函 names it. */
export interface DemoBidProject {
  name: string;
  section: string;
  /** 致：… line */
  to: string;
}

/** The opening demo's project (SXGC-2026-1005). */
export const OPENING_BID_PROJECT: DemoBidProject = {
  name: '忻州市忻府区第三中学学生公寓楼建设工程',
  section: 'BD-01 施工标段',
  to: '致：忻州市忻府区教育科技局（招标人）、山西沁河招标代理有限公司（招标代理）',
};

/** A bid of the opening demo: a one-page 投标函 with its 开标一览表. */
const openingBidPdf = (project: DemoBidProject, bidder: string, s: BidSummary) =>
  formPdf({
    file: '投标文件.pdf',
    title: '投 标 函',
    note: project.to,
    rows: [
      ['项目名称', project.name],
      ['标段', project.section],
      ['投标人', bidder],
      ['投标报价', `人民币 ¥${s.price.toLocaleString('zh-CN', { minimumFractionDigits: 2 })}`],
      ['工期', `${s.durationDays} 日历天`],
      ['质量标准', s.quality],
      ['项目经理', s.manager],
    ],
    footer: [`投标人：${bidder}（盖章）`, '法定代表人或其委托代理人：（签字）'],
  });

/**
 * The opening demo (issue 17): three enterprises — user1's, bidder2's and bidder3's — registered for SXGC-2026-1005
 * BD-01 and sealed their bids two days after its documents went on sale (`at`); its deadline has passed, so the host
 * (the agent, or an administrator) can open it in the hall. All three hold the demo passphrase key (Demo@2026).
 */
export async function seedOpeningBids(
  tx: Db,
  storage: Storage,
  sectionId: string,
  bidders: { caller: BidCaller; enterpriseName: string; contact: string; phone: string; summary: BidSummary }[],
  at: Date,
  project: DemoBidProject = OPENING_BID_PROJECT,
  /** the file keys' label prefix: each section's bids need keys of their own */
  labelPrefix = 'opening',
) {
  const deps = { db: tx, storage, now: () => at, taskTtlMs: 3600_000 };
  for (const [i, b] of bidders.entries()) {
    await register(tx, sectionId, b.caller, b.contact, b.phone, at);
    const live = await tx
      .select({ id: bidKeys.id })
      .from(bidKeys)
      .where(and(eq(bidKeys.userId, b.caller.id), isNull(bidKeys.retiredAt)));
    const keyId = live[0]?.id ?? (await demoKey(deps, b.caller)).id;
    await seal(deps, b.caller, keyId, sectionId, {
      fileName: `投标文件-${b.enterpriseName}.pdf`,
      plain: openingBidPdf(project, b.enterpriseName, b.summary),
      summary: b.summary,
      label: `${labelPrefix}-${i}`,
    });
  }
}
