import { creditCodeCheckChar, idNumberCheckChar, REGISTRATION_NODE } from '@ks/contracts';
import { count, eq } from 'drizzle-orm';
import { enterpriseRegistrations, operationLogs } from '../../db/schema';
import { type Body, client, encrypt, json, publicKeyOf, type TestApp } from '../../test/harness';
import { form, PDF } from '../files/testkit';

/** Helpers of the registration tests (test-only module). */

export { REGISTRATION_NODE };

let serial = 0;
/** A fresh valid credit code (GB 32100) for each call. */
export function newCreditCode(): string {
  serial++;
  const base = `9114010${String(serial).padStart(3, '0')}MA0T7X${String(serial % 10)}`;
  const first17 = base.slice(0, 17).padEnd(17, '1');
  return `${first17}${creditCodeCheckChar(first17)}`;
}
/** The same code with a wrong check character. */
export function badCheckChar(code: string): string {
  const last = code[17] === '0' ? '1' : '0';
  return `${code.slice(0, 17)}${last}`;
}
let phones = 0;
/** A fresh mobile number for each call (the SMS limits are per phone). */
export const newPhone = () => `139${String(Date.now() % 100000).padStart(5, '0')}${String(++phones).padStart(3, '0')}`;
/** A resident ID number with its check character from 17 digits. */
export const idNumber = (first17: string) => `${first17}${idNumberCheckChar(first17)}`;

export function registerKit(t: () => TestApp) {
  const api = client(t);

  /** The latest code the outbox holds for a phone. */
  async function codeOf(phone: string): Promise<string> {
    const list = await t().app.sms.outbox(phone);
    const code = list?.[0]?.params.code;
    if (!code) throw new Error(`no SMS code for ${phone}`);
    return code;
  }

  async function proofFor(phone: string, purpose: 'legal' | 'realname' | 'register'): Promise<string> {
    const sent =
      purpose === 'legal'
        ? await api.get(`/ks/register/v1/legal-phone?phone=${phone}`, null)
        : await api.post('/ks/register/v1/sms/phone-code', null, { phone, purpose });
    if (sent.status !== 200) throw new Error(`send ${purpose} code: ${JSON.stringify(sent.body)}`);
    const v = await api.post('/ks/register/v1/sms/phone-verify', null, { phone, purpose, code: await codeOf(phone) });
    if (v.status !== 200) throw new Error(`verify: ${JSON.stringify(v.body)}`);
    return v.body.data.proof as string;
  }

  async function uploadLicence(name = '营业执照.pdf', data = PDF()): Promise<{ status: number; body: Body }> {
    const f = form({}, [{ name, data, type: 'application/pdf' }]);
    const res = await t().app.inject({ method: 'POST', url: '/ks/register/v1/licence', ...f });
    return { status: res.statusCode, body: json<Body>(res) };
  }

  async function enc(text: string) {
    return encrypt(await publicKeyOf(t().app), text);
  }

  /** A complete, valid application; `over` replaces fields (password in plain text: it is encrypted here). */
  async function application(over: Record<string, unknown> = {}) {
    const legalPhone = (over.legalPhone as string) ?? newPhone();
    const legalProof = (over.legalProof as string) ?? (await proofFor(legalPhone, 'legal'));
    const licence = over.licenceFileId ?? (await uploadLicence()).body.data.fileId;
    const account = (over.account as string) ?? `ent${Date.now().toString(36)}${++serial}`;
    return {
      name: '太原市测试建设有限公司',
      creditCode: newCreditCode(),
      enterpriseType: '施工企业',
      region: '太原市',
      address: '太原市小店区测试路 8 号',
      legalPerson: '测试法人',
      contactName: '测试联系人',
      contactPhone: '13700000000',
      ...over,
      legalPhone,
      legalProof,
      licenceFileId: licence,
      account,
      password: await enc((over.password as string) ?? 'Reg@2026x'),
    };
  }

  const submit = (body: unknown) => api.post('/ks/register/v1/registration', null, body);

  async function counts() {
    const db = t().database.db;
    const [r] = await db.select({ n: count() }).from(enterpriseRegistrations);
    const [l] = await db.select({ n: count() }).from(operationLogs);
    return { registrations: Number(r!.n), logs: Number(l!.n) };
  }

  async function registration(id: string) {
    const [r] = await t().database.db.select().from(enterpriseRegistrations).where(eq(enterpriseRegistrations.id, id));
    return r;
  }

  return { api, codeOf, proofFor, uploadLicence, enc, application, submit, counts, registration };
}
