import { constants, createHash, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeCaAgent, startFakeCaAgent } from '../../test/fake-ca-agent';
import { client, createTestApp, loginToken, type TestApp } from '../../test/harness';

/**
 * A sealed bid's key in a CA certificate (issue 16): user1 binds the RSA certificate the (fake) signing agent holds and
 * makes it the bid key; the key tells the browser which certificate it is (the SHA-256 of its DER, as the agent lists
 * it), and the agent unwraps a file key wrapped to it — RSA-OAEP with SHA-256, the sealed bids' wrap — while a key
 * that cannot (SM2), an unknown certificate and data wrapped to another key are refused with a message.
 */
let t: TestApp;
let agent: FakeCaAgent;
const c = client(() => t);
let user1: string;

async function post(url: string, body: unknown) {
  const res = await fetch(`${agent.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { plaintext?: string; error?: string } };
}

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ks-bid-ca-'));
  const rootsFile = path.join(dir, 'roots.pem');
  agent = await startFakeCaAgent({ rootsFile });
  t = await createTestApp({ env: { CA_TRUSTED_ROOTS: rootsFile, CA_AGENT_URL: agent.url } });
  user1 = await loginToken(t.app, 'user1', 'U');
});

afterAll(async () => {
  await t?.close();
  await agent?.close();
});

describe('a bid key held in a CA certificate', () => {
  let publicKey: string;

  it('names the certificate by the SHA-256 of its DER', async () => {
    const cert = agent.certs.rsa;
    const nonce = (await t.app.inject({ method: 'POST', url: '/ks/ca/nonce' }).then((r) => r.json())).data.nonce;
    const bound = await c.post('/ks/ca/bindings/bind', user1, {
      certificate: cert.base64,
      nonce,
      signature: cert.signNonce(nonce),
    });
    expect(bound.status).toBe(200);
    const bindings = await c.get('/ks/ca/bindings', user1);
    const binding = (bindings.body.data.records as { id: string; fingerprint: string }[]).find(
      (b) => b.fingerprint === createHash('sha256').update(cert.der).digest('hex'),
    );
    expect(binding).toBeDefined();
    const key = await c.post('/ks/trade/bid/v1/key', user1, { kind: 'ca', caBindingId: binding!.id });
    expect(key.status).toBe(200);
    expect(key.body.data).toMatchObject({
      kind: 'ca',
      caBindingId: binding!.id,
      caCertFingerprint: createHash('sha256').update(cert.der).digest('hex'),
      encryptedPrivateKey: null,
    });
    publicKey = key.body.data.publicKey;
    const detail = await c.get(`/ks/trade/bid/v1/key/detail?id=${key.body.data.id}`, user1);
    expect(detail.body.data.caCertFingerprint).toBe(key.body.data.caCertFingerprint);
  });

  it('is unwrapped by the signing agent: RSA-OAEP with SHA-256', async () => {
    const fileKey = randomBytes(32);
    const wrapped = publicEncrypt(
      {
        key: createPublicKey({ key: Buffer.from(publicKey, 'base64'), format: 'der', type: 'spki' }),
        padding: constants.RSA_PKCS1_OAEP_PADDING,
        oaepHash: 'sha256',
      },
      fileKey,
    );
    const before = agent.decrypts;
    const r = await post('/decrypt', { id: 'rsa', data: wrapped.toString('base64'), algorithm: 'RSA-OAEP-256' });
    expect(r.status).toBe(200);
    expect(Buffer.from(r.body.plaintext!, 'base64').equals(fileKey)).toBe(true);
    expect(agent.decrypts).toBe(before + 1);
  });

  it('is refused by a key that cannot, for an unknown certificate and for data wrapped to another key', async () => {
    const data = randomBytes(256).toString('base64');
    const sm2 = await post('/decrypt', { id: 'good', data, algorithm: 'RSA-OAEP-256' });
    expect(sm2).toEqual({ status: 400, body: { error: '该证书的密钥不支持 RSA-OAEP 解密' } });
    const unknown = await post('/decrypt', { id: 'nope', data, algorithm: 'RSA-OAEP-256' });
    expect(unknown.status).toBe(404);
    const other = await post('/decrypt', { id: 'rsa', data, algorithm: 'RSA-OAEP-256' });
    expect(other).toEqual({ status: 400, body: { error: '解密失败：数据不是用该证书的公钥加密的' } });
  });
});
