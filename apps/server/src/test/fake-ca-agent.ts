import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { creditCodeCheckChar } from '@ks/contracts';
import { createTestCa, type TestCert } from '../modules/ca/testca';

/**
 * A stand-in for a CA vendor's local signing agent (test-only module), holding test keys of the demo enterprise
 * 示例建设工程有限公司: a good SM2 certificate (valid for 20 more days, so /lock warns 即将过期), an expired one, one from
 * a CA the platform does not trust, and a good RSA one (whose key can unwrap sealed bids' file keys). Its protocol is
 * the web's (features/ca/agent.ts):
 *   GET /certs → { certs: [{ id, label, certificate: base64 DER }] };  POST /sign { id, data: base64 } → { signature }
 *   POST /decrypt { id, data: base64, algorithm: 'RSA-OAEP-256' } → { plaintext: base64 }   (RSA keys only)
 * with CORS for the page's origin. GET /health answers once the trusted root is written.
 *
 * Run directly (`node --import tsx apps/server/src/test/fake-ca-agent.ts`) it writes the trusted roots' PEM to
 * CA_ROOTS_FILE (the e2e servers' CA_TRUSTED_ROOTS) and listens on FAKE_CA_AGENT_PORT.
 */
const DAY = 86_400_000;
const base = '91140100MA0K8G2J7';
export const FAKE_AGENT_CREDIT_CODE = `${base}${creditCodeCheckChar(base)}`;
export const FAKE_AGENT_HOLDER = '示例建设工程有限公司';
export const FAKE_AGENT_LABELS = {
  good: `${FAKE_AGENT_HOLDER}（SM2）`,
  expired: `${FAKE_AGENT_HOLDER}（旧证书）`,
  foreign: `${FAKE_AGENT_HOLDER}（其他CA）`,
  rsa: `${FAKE_AGENT_HOLDER}（RSA）`,
} as const;

export interface FakeCaAgent {
  url: string;
  rootsPem: string;
  certs: Record<keyof typeof FAKE_AGENT_LABELS, TestCert>;
  signs: number;
  decrypts: number;
  close(): Promise<void>;
}

export async function startFakeCaAgent(opts: { port?: number; rootsFile?: string } = {}): Promise<FakeCaAgent> {
  const now = Date.now();
  const trusted = createTestCa({ kind: 'SM2', name: '测试国密 CA' });
  const trustedRsa = createTestCa({ kind: 'RSA', name: '测试 RSA CA' });
  const foreignCa = createTestCa({ kind: 'RSA', name: '未受信任的 CA' });
  const issue = { creditCode: FAKE_AGENT_CREDIT_CODE, holder: FAKE_AGENT_HOLDER };
  const certs = {
    good: trusted.issue({ ...issue, notAfter: new Date(now + 20 * DAY) }),
    expired: trusted.issue({ ...issue, notBefore: new Date(now - 400 * DAY), notAfter: new Date(now - 2 * DAY) }),
    foreign: foreignCa.issue(issue),
    rsa: trustedRsa.issue({ ...issue, kind: 'RSA' }),
  };
  const rootsPem = `${trusted.pem}${trustedRsa.pem}`;
  if (opts.rootsFile) {
    mkdirSync(path.dirname(opts.rootsFile), { recursive: true });
    writeFileSync(opts.rootsFile, rootsPem);
  }
  const state: FakeCaAgent = { url: '', rootsPem, certs, signs: 0, decrypts: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'access-control-allow-origin': '*',
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        // whatever the page sends (the e2e clients add x-forwarded-for to every request)
        'access-control-allow-headers': String(req.headers['access-control-request-headers'] ?? 'content-type'),
        'access-control-allow-private-network': 'true',
      });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://agent');
    if (req.method === 'OPTIONS') return send(204, {});
    if (url.pathname === '/health') return send(200, { ok: true });
    if (req.method === 'GET' && url.pathname === '/certs') {
      return send(200, {
        certs: (Object.keys(certs) as (keyof typeof certs)[]).map((id) => ({
          id,
          label: FAKE_AGENT_LABELS[id],
          certificate: certs[id].base64,
        })),
      });
    }
    if (req.method === 'POST' && url.pathname === '/sign') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: { id?: unknown; data?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { error: '请求格式错误' });
        }
        const cert = typeof body.id === 'string' ? certs[body.id as keyof typeof certs] : undefined;
        if (!cert) return send(404, { error: '未找到该证书' });
        if (typeof body.data !== 'string') return send(400, { error: '缺少待签名数据' });
        state.signs += 1;
        return send(200, { signature: cert.key.sign(Buffer.from(body.data, 'base64')).toString('base64') });
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/decrypt') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let body: { id?: unknown; data?: unknown; algorithm?: unknown };
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return send(400, { error: '请求格式错误' });
        }
        const cert = typeof body.id === 'string' ? certs[body.id as keyof typeof certs] : undefined;
        if (!cert) return send(404, { error: '未找到该证书' });
        if (typeof body.data !== 'string') return send(400, { error: '缺少待解密数据' });
        if (body.algorithm !== 'RSA-OAEP-256' || !cert.key.decrypt) {
          return send(400, { error: '该证书的密钥不支持 RSA-OAEP 解密' });
        }
        try {
          const plaintext = cert.key.decrypt(Buffer.from(body.data, 'base64'));
          state.decrypts += 1;
          return send(200, { plaintext: plaintext.toString('base64') });
        } catch {
          return send(400, { error: '解密失败：数据不是用该证书的公钥加密的' });
        }
      });
      return;
    }
    return send(404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.FAKE_CA_AGENT_PORT ?? 18098);
  const rootsFile = process.env.CA_ROOTS_FILE;
  if (!rootsFile) throw new Error('CA_ROOTS_FILE is required');
  void startFakeCaAgent({ port, rootsFile }).then((a) => process.stdout.write(`fake CA signing agent on ${a.url}\n`));
}
