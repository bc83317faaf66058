import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, fillBidSummary, newClient, signIn } from './helpers';
import { FAKE_CA_AGENT_PORT } from './playwright.config';

/**
 * Issue 16, a sealed bid whose key is in a CA certificate: user1 binds the RSA certificate the (fake) local signing
 * agent holds, makes it the bid key, seals a bid with it, and test-decrypts it on the tool page — the agent unwraps the
 * file key (RSA-OAEP), the browser does the rest, and the hashes match the receipt. Afterwards the demo's passphrase
 * key (Demo@2026) and the bindings are as before, for the other specs on this server.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const PAGE = '/sealedBid/index?gnCoding=ZBTB_TBJM&systemCoding=ZBTB';
const AGENT = `http://127.0.0.1:${FAKE_CA_AGENT_PORT}`;
const plain = Buffer.concat([Buffer.from('%PDF-1.7\n投标文件（CA 密钥，E2E）\n'), randomBytes(256 * 1024)]);

/**
 * Binds the agent's certificate `id` to user1's enterprise (a nonce signed by the agent, as /caRegister does) unless a
 * failed first attempt left it bound, and answers the binding's id (found by the SHA-256 of the certificate's DER).
 */
async function bindAgentCert(page: Page, id: string): Promise<string> {
  return page.evaluate(
    async ({ agent, certId }) => {
      const headers = {
        'content-type': 'application/json',
        authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
      };
      const json = (r: Response) => r.json();
      const certs = (await fetch(`${agent}/certs`).then(json)).certs as { id: string; certificate: string }[];
      const certificate = certs.find((c) => c.id === certId)!.certificate;
      const der = Uint8Array.from(atob(certificate), (ch) => ch.charCodeAt(0));
      const fingerprint = Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', der)), (b) =>
        b.toString(16).padStart(2, '0'),
      ).join('');
      const bound = async () =>
        (
          (await fetch('/ks/ca/bindings?curPage=1&pageSize=50', { headers }).then(json)).data.records as {
            id: string;
            fingerprint: string;
          }[]
        ).find((b) => b.fingerprint === fingerprint)?.id;
      const already = await bound();
      if (already) return already;
      const nonce = (await fetch('/ks/ca/nonce', { method: 'POST' }).then(json)).data.nonce as string;
      const bytes = new TextEncoder().encode(nonce);
      const { signature } = await fetch(`${agent}/sign`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: certId, data: btoa(String.fromCharCode(...bytes)) }),
      }).then(json);
      const res = await fetch('/ks/ca/bindings/bind', {
        method: 'POST',
        headers,
        body: JSON.stringify({ certificate, nonce, signature }),
      });
      if (!res.ok) throw new Error(`bind: ${res.status} ${await res.text()}`);
      const idNow = await bound();
      if (!idNow) throw new Error('the binding is not listed');
      return idNow;
    },
    { agent: AGENT, certId: id },
  );
}

async function unbind(page: Page, id: string) {
  const status = await page.evaluate(async (bindingId) => {
    const res = await fetch('/ks/ca/bindings/unbind', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}`,
      },
      body: JSON.stringify({ id: bindingId }),
    });
    return res.status;
  }, id);
  expect(status).toBe(200);
}

test('user1 seals a bid with the key of an RSA CA certificate and test-decrypts it through the signing agent', async ({
  browser,
}) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  const bindingId = await bindAgentCert(page, 'rsa');
  try {
    await page.goto(PAGE);
    await page.getByTestId('bid-key-change').click();
    await page.getByTestId('bid-key-use-ca').click();
    await expect(page.getByTestId('bid-key-current')).toContainText('CA 证书：示例建设工程有限公司', {
      timeout: 30_000,
    });

    const row = page.getByTestId('bid-sections').locator('tr', { hasText: '第二实验小学' });
    await row
      .getByTestId('bid-file-input')
      .setInputFiles({ name: '投标文件（CA 密钥）.pdf', mimeType: 'application/pdf', buffer: plain });
    await fillBidSummary(page);
    await expect(page.getByTestId('bid-receipt')).toBeVisible({ timeout: 60_000 });
    await expect(row.getByTestId('bid-sealed')).toContainText('投标文件（CA 密钥）.pdf');

    // the tool page offers the certificate, not a passphrase; the agent unwraps, the hashes match the receipt
    await row.getByTestId('bid-tool-link').click();
    await expect(page.getByTestId('bid-tool-ca')).toContainText('示例建设工程有限公司');
    await expect(page.getByTestId('bid-tool-passphrase')).toHaveCount(0);
    await page.getByTestId('bid-tool-run-ca').click();
    await expect(page.getByTestId('bid-tool-verdict')).toHaveText('解密成功，文件完好', { timeout: 60_000 });
    await expect(page.getByTestId('check-plain')).toHaveText('与回执一致');
    await expect(page.getByTestId('check-cipher')).toHaveText('与回执一致');
  } finally {
    // as the demo was: a passphrase key under Demo@2026, and no binding of this certificate
    await page.goto(PAGE);
    await page.getByTestId('bid-key-change').click();
    await page.getByTestId('bid-passphrase').fill('Demo@2026');
    await page.getByTestId('bid-passphrase-again').fill('Demo@2026');
    await page.getByTestId('bid-key-create').click();
    await expect(page.getByTestId('bid-key-current')).toContainText('口令保护的密钥', { timeout: 60_000 });
    await unbind(page, bindingId);
    await context.close();
  }
});
