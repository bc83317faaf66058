import { createHash, randomBytes } from 'node:crypto';
import { BID_MSG } from '@ks/contracts';
import { expect, type Page, test } from './fixtures';
import { acknowledgePractice, fillBidSummary, newClient, type Role, signIn } from './helpers';

/**
 * Issue 16, sealed bids: user1 (示例建设工程有限公司, registered for 第二实验小学 BD-01 in the demo, its bid key protected
 * by the demo passphrase) encrypts a bid file in the browser and uploads it before the deadline; the receipt names the
 * plaintext's SHA-256 as computed here; the server keeps ciphertext that no role — administrator, developer, reviewer,
 * the bidder itself — can download in plain, each attempt refused with the message; only the bidder gets its
 * ciphertext back, and the bid-file tool page test-decrypts it to the hash on the receipt.
 */
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const PAGE = '/sealedBid/index?gnCoding=ZBTB_TBJM&systemCoding=ZBTB';
const MARKER = '投标报价：人民币叁仟柒佰陆拾捌万元整（E2E）';
/** a bid file of two upload chunks and a bit, starting with a marker to look for in the ciphertext */
const plain = Buffer.concat([Buffer.from(`%PDF-1.7\n${MARKER}\n`), randomBytes(6 * 1024 * 1024)]);
const plainSha = createHash('sha256').update(plain).digest('hex');
let bidId = '';

/** A call of the API from the page, as its signed-in user. */
async function api(page: Page, url: string) {
  return page.evaluate(async (u) => {
    const res = await fetch(u, { headers: { authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}` } });
    const type = res.headers.get('content-type') ?? '';
    if (type.includes('json')) return { status: res.status, message: (await res.json()).message as string, text: '' };
    const bytes = new Uint8Array(await res.arrayBuffer());
    return {
      status: res.status,
      message: '',
      text: new TextDecoder('utf-8', { fatal: false }).decode(bytes),
      size: bytes.length,
    };
  }, url);
}

test('user1 encrypts a bid file in the browser and uploads it; the receipt names its SHA-256', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto(PAGE);
  await expect(page.getByTestId('bid-key-current')).toBeVisible({ timeout: 30_000 });
  // the SHA-256 runs in WebAssembly (hash-wasm): the site's content security policy lets the page compile a module
  const wasm = await page.evaluate(() =>
    WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
      () => 'compiled',
      (e: Error) => e.message,
    ),
  );
  expect(wasm).toBe('compiled');
  const row = page.getByTestId('bid-sections').locator('tr', { hasText: '第二实验小学' });
  // the demo's sealed bid is there; this one replaces it
  await expect(row.getByTestId('bid-sealed')).toContainText('已加密封存');
  await row
    .getByTestId('bid-file-input')
    .setInputFiles({ name: '投标文件（E2E）.pdf', mimeType: 'application/pdf', buffer: plain });
  await fillBidSummary(page);
  await expect(page.getByTestId('bid-receipt')).toBeVisible({ timeout: 120_000 });
  await expect(page.getByTestId('receipt-plain-sha256')).toContainText(plainSha);
  await expect(row.getByTestId('bid-sealed')).toContainText('投标文件（E2E）.pdf');
  const sections = await page.evaluate(async () => {
    const res = await fetch('/ks/trade/bid/v1/sections', {
      headers: { authorization: `Bearer ${sessionStorage.getItem('token') ?? ''}` },
    });
    return (await res.json()).data as { projectName: string; sealed: { id: string; plainSha256: string } | null }[];
  });
  const mine = sections.find((s) => s.projectName.includes('第二实验小学'))!;
  expect(mine.sealed!.plainSha256).toBe(plainSha);
  bidId = mine.sealed!.id;

  // its own ciphertext comes back to the bidder — ciphertext: the plaintext's words are nowhere in it
  const own = await api(page, `/ks/trade/bid/v1/cipher?id=${bidId}&chunk=0`);
  expect(own.status).toBe(200);
  expect(own.size).toBe(5 * 1024 * 1024);
  expect(own.text).not.toContain(MARKER);
  // the content in plain: not even to its bidder before opening
  const content = await api(page, `/ks/trade/bid/v1/content?id=${bidId}`);
  expect(content.status).toBe(403);
  expect(content.message).toBe(BID_MSG.sealedNoRead);
  await context.close();
});

for (const [account, role] of [
  ['admin', 'M'],
  ['dev', 'D'],
  ['auditor', 'U'],
] as [string, Role][]) {
  test(`${account} can neither download nor preview the sealed bid before opening`, async ({ browser }) => {
    expect(bidId).not.toBe('');
    const { context, page } = await newClient(browser);
    await signIn(page, account, role);
    await expect(page).toHaveURL(/\/system\/pageConfig$/, { timeout: 30_000 });
    const content = await api(page, `/ks/trade/bid/v1/content?id=${bidId}`);
    expect(content.status).toBe(403);
    expect(content.message).toBe(BID_MSG.sealedNoRead);
    const cipher = await api(page, `/ks/trade/bid/v1/cipher?id=${bidId}&chunk=0`);
    expect(cipher.status).toBe(403);
    expect(cipher.message).toBe(BID_MSG.cipherOthers);
    // nor through the file download, by the bid's id
    const file = await api(page, `/ks/common/common/file/download?fileId=${bidId}`);
    expect(file.status).toBe(404);
    await context.close();
  });
}

test('the bidder test-decrypts its upload on the tool page, and it matches the receipt', async ({ browser }) => {
  const { context, page } = await newClient(browser);
  await signIn(page, 'user1', 'U');
  await acknowledgePractice(page);
  await page.goto(PAGE);
  const row = page.getByTestId('bid-sections').locator('tr', { hasText: '第二实验小学' });
  await row.getByTestId('bid-tool-link').click();
  await expect(page.getByTestId('bid-tool-form')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('bid-tool-passphrase').fill('wrong passphrase');
  await page.getByTestId('bid-tool-run').click();
  await expect(page.getByTestId('bid-tool-error')).toContainText('口令不正确');
  await page.getByTestId('bid-tool-passphrase').fill('Demo@2026');
  await page.getByTestId('bid-tool-run').click();
  await expect(page.getByTestId('bid-tool-verdict')).toHaveText('解密成功，文件完好', { timeout: 120_000 });
  await expect(page.getByTestId('check-plain')).toHaveText('与回执一致');
  await expect(page.getByTestId('check-cipher')).toHaveText('与回执一致');
  await expect(page.getByTestId('bid-tool-result')).toContainText(plainSha);
  await context.close();
});
