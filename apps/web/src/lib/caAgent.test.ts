import { describe, expect, it } from 'vitest';
import { AgentError, agentDecrypt, findAgentCert } from './caAgent';

/**
 * The local signing agent's decryption (sealed bids with a CA key): the wrapped file key goes out as base64 with the
 * algorithm named, the plaintext comes back as bytes; the certificate is found among the agent's by the SHA-256 of
 * its DER; refusals keep the agent's words.
 */
const AGENT = 'http://127.0.0.1:28090';
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const hex = async (bytes: Uint8Array<ArrayBuffer>) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );

describe('the signing agent', () => {
  it('decrypts a wrapped key with RSA-OAEP-256 and answers the bytes', async () => {
    const sent: { url: string; body: unknown }[] = [];
    const fetchImpl = async (url: string, init: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify({ plaintext: b64(new Uint8Array([1, 2, 250])) }), { status: 200 });
    };
    const out = await agentDecrypt(AGENT, 'k1', new Uint8Array([9, 8, 7]), fetchImpl as never);
    expect(Array.from(out)).toEqual([1, 2, 250]);
    expect(sent).toEqual([
      { url: `${AGENT}/decrypt`, body: { id: 'k1', data: b64(new Uint8Array([9, 8, 7])), algorithm: 'RSA-OAEP-256' } },
    ]);
  });

  it('keeps the agent’s refusal, and says when it cannot be reached', async () => {
    const refusing = async () =>
      new Response(JSON.stringify({ error: '该证书的密钥不支持 RSA-OAEP 解密' }), { status: 400 });
    const err = await agentDecrypt(AGENT, 'k1', new Uint8Array([1]), refusing as never).catch((e) => e);
    expect(err).toBeInstanceOf(AgentError);
    expect(err.message).toBe('该证书的密钥不支持 RSA-OAEP 解密');
    const down = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(agentDecrypt(AGENT, 'k1', new Uint8Array([1]), down as never)).rejects.toMatchObject({
      kind: 'unreachable',
    });
  });

  it('finds the bound certificate by the SHA-256 of its DER, or nothing when its key is not plugged in', async () => {
    const a = new Uint8Array([48, 3, 1, 2, 3]);
    const b = new Uint8Array([48, 3, 4, 5, 6]);
    const fetchImpl = async () =>
      new Response(
        JSON.stringify({
          certs: [
            { id: 'sm2', certificate: b64(a), label: '国密' },
            { id: 'rsa', certificate: b64(b), label: 'RSA' },
          ],
        }),
        { status: 200 },
      );
    expect(await findAgentCert(AGENT, (await hex(b)).toUpperCase(), fetchImpl as never)).toMatchObject({ id: 'rsa' });
    expect(await findAgentCert(AGENT, await hex(new Uint8Array([0])), fetchImpl as never)).toBeNull();
  });
});
