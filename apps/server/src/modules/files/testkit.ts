import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { creditCodeCheckChar } from '@ks/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { enterprises, roles, userRoles, users } from '../../db/schema';
import { hashPassword } from '../../platform/password';
import { bearer, ENTERPRISE_DETAILS, json, loginToken, type TestApp } from '../../test/harness';

/** Helpers of the files tests (test-only module). */

// biome-ignore lint/suspicious/noExplicitAny: responses are read loosely in tests
export type Body = { code: number; data: any; message: string };

export const tmpDataDir = () => mkdtempSync(path.join(tmpdir(), 'ks-files-'));
export const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** Bytes that look like each format to the signature check. */
export const PNG = (size = 2048) => {
  const b = randomBytes(size);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b);
  return b;
};
export const JPG = (size = 2048) => {
  const b = randomBytes(size);
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]).copy(b);
  return b;
};
export const PDF = (size = 2048) => {
  const b = randomBytes(size);
  Buffer.from('%PDF-1.7\n').copy(b);
  return b;
};
export const MP4 = (size = 2048) => {
  const b = randomBytes(size);
  Buffer.from([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d]).copy(b);
  return b;
};
export const EXE = (size = 2048) => {
  const b = randomBytes(size);
  Buffer.from('MZ\x90\x00').copy(b);
  return b;
};

export interface FilePart {
  field?: string;
  /** written verbatim into the part header (quotes escaped as browsers do) */
  name: string;
  data: Buffer;
  type?: string;
}

/** A multipart/form-data body: fields first unless `filesFirst`. */
export function form(fields: Record<string, string | number>, files: FilePart[], filesFirst = false) {
  const boundary = `----ks${randomBytes(8).toString('hex')}`;
  const fieldParts = Object.entries(fields).map(([k, v]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
  );
  const fileParts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name.replace(/"/g, '%22')}"\r\nContent-Type: ${f.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    ]),
  );
  const payload = Buffer.concat([
    ...(filesFirst ? fileParts : fieldParts),
    ...(filesFirst ? fieldParts : fileParts),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function client(t: () => TestApp) {
  const res = (r: LightMyRequestResponse) => ({ status: r.statusCode, body: json<Body>(r), res: r });
  return {
    async post(url: string, token: string | null, payload: object) {
      return res(await t().app.inject({ method: 'POST', url, headers: token ? bearer(token) : {}, payload }));
    },
    async get(url: string, token: string | null, headers: Record<string, string> = {}) {
      const r = await t().app.inject({ method: 'GET', url, headers: { ...(token ? bearer(token) : {}), ...headers } });
      return {
        status: r.statusCode,
        res: r,
        body: String(r.headers['content-type'] ?? '').includes('json') ? json<Body>(r) : null,
      };
    },
    async upload(
      url: string,
      token: string | null,
      fields: Record<string, string | number>,
      files: FilePart[],
      filesFirst = false,
    ) {
      const f = form(fields, files, filesFirst);
      return res(
        await t().app.inject({
          method: 'POST',
          url,
          headers: { ...f.headers, ...(token ? bearer(token) : {}) },
          payload: f.payload,
        }),
      );
    },
  };
}

/** A user of a new enterprise (another company), optionally holding the 审核员 role. */
export async function otherEnterpriseUser(t: TestApp, account: string, opts: { auditor?: boolean } = {}) {
  const db = t.database.db;
  const base = `91140100MA0L${String(Math.floor(Math.random() * 1e5)).padStart(5, '0')}`;
  const [ent] = await db
    .insert(enterprises)
    .values({ ...ENTERPRISE_DETAILS, name: `${account} 公司`, creditCode: `${base}${creditCodeCheckChar(base)}` })
    .returning();
  const [u] = await db
    .insert(users)
    .values({
      account,
      userName: `用户${account}`,
      loginRoleType: 'U',
      passwordHash: await hashPassword('Demo@2026'),
      enterpriseId: ent!.id,
    })
    .returning();
  if (opts.auditor) {
    const [auditor] = await db.select().from(roles).where(eq(roles.code, 'auditor'));
    await db.insert(userRoles).values({ userId: u!.id, roleId: auditor!.id });
  }
  return { token: await loginToken(t.app, account, 'U'), userId: u!.id, enterpriseId: ent!.id };
}
