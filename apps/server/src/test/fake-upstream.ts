import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { signPush } from '../platform/integrations/upstream';

/**
 * A local stand-in for the upstream public-resource platform (test-only module). `POST /push` checks the app id and
 * the HMAC signature (401 when wrong), records what it receives, and answers 200 — unless told to fail the next N
 * requests (`failNext(n, 'http-500' | 'timeout')`). Run directly (`node --import tsx apps/server/src/test/fake-upstream.ts`)
 * it listens on FAKE_UPSTREAM_PORT for the e2e servers, with GET /health, and POST /control {fail, mode} to set failures.
 */
export const FAKE_UPSTREAM_APP_ID = 'fake-dex-app';
export const FAKE_UPSTREAM_SECRET = 'fake-dex-secret-0001';

export interface Received {
  businessKey: string;
  body: unknown;
  signatureOk: boolean;
}

export interface FakeUpstream {
  url: string;
  received: Received[];
  /** requests answered with 200, by business key */
  accepted: Map<string, number>;
  failNext(n: number, mode?: 'http-500' | 'timeout'): void;
  close(): Promise<void>;
}

export async function startFakeUpstream(port = 0): Promise<FakeUpstream> {
  let failing = 0;
  let failMode: 'http-500' | 'timeout' = 'http-500';
  const received: Received[] = [];
  const accepted = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const send = (status: number, data: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(data));
      };
      if (req.method === 'GET' && req.url === '/health') return send(200, { ok: true });
      if (req.method === 'POST' && req.url === '/control') {
        const c = JSON.parse(body || '{}') as { fail?: number; mode?: 'http-500' | 'timeout' };
        failing = c.fail ?? 0;
        failMode = c.mode ?? 'http-500';
        return send(200, { ok: true });
      }
      if (req.method === 'GET' && req.url === '/received') return send(200, received);
      if (req.method !== 'POST' || req.url !== '/push') return send(404, { message: 'not found' });
      const h = (n: string) => String(req.headers[n] ?? '');
      const signatureOk =
        h('x-app-id') === FAKE_UPSTREAM_APP_ID &&
        h('x-signature') === signPush(FAKE_UPSTREAM_SECRET, h('x-timestamp'), h('x-nonce'), body);
      const businessKey = h('idempotency-key');
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(body);
      } catch {
        // recorded as null
      }
      received.push({ businessKey, body: parsed, signatureOk });
      if (!signatureOk) return send(401, { message: 'bad signature' });
      if (failing > 0) {
        failing -= 1;
        if (failMode === 'timeout') return; // never answers: the client's timeout ends it
        return send(500, { message: 'upstream failure' });
      }
      accepted.set(businessKey, (accepted.get(businessKey) ?? 0) + 1);
      return send(200, { code: 0, message: 'ok' });
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received,
    accepted,
    failNext(n, mode = 'http-500') {
      failing = n;
      failMode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.FAKE_UPSTREAM_PORT ?? 19599);
  void startFakeUpstream(port).then((f) => process.stdout.write(`fake upstream on ${f.url}\n`));
}
