import { CA_MSG, creditCodeCheckChar } from '@ks/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors';
import { checkCertificate, creditCodeOf, decodeOid, loadTrustStore, OID, parseCertificate, signedBy } from './cert';
import { createTestCa, encodeOid } from './testca';

/** The certificate checks alone (no server): where the code is found, and each refusal's reason. */

const DAY = 86_400_000;
const CODE = `91140100MA0K8G2J7${creditCodeCheckChar('91140100MA0K8G2J7')}`;

function reasonOf(f: () => unknown): { message: string; reason: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return { message: (e as AppError).message, reason: (e as AppError & { data: { reason: string } }).data.reason };
  }
  throw new Error('expected a refusal');
}

describe('certificates', () => {
  const rsa = createTestCa({ kind: 'RSA' });
  const sm2 = createTestCa({ kind: 'SM2' });
  const store = loadTrustStore(rsa.pem + sm2.pem, 'test');
  const now = new Date();

  it('finds the credit code in serialNumber, organizationIdentifier, OU or CN, and checks its digit', () => {
    for (const codeIn of ['serialNumber', 'organizationIdentifier', 'OU', 'CN'] as const) {
      const cert = parseCertificate(rsa.issue({ creditCode: CODE, codeIn }).der);
      expect(creditCodeOf(cert.subjectAttributes), codeIn).toBe(CODE);
    }
    const wrongDigit = `${CODE.slice(0, 17)}${CODE[17] === '0' ? '1' : '0'}`;
    expect(creditCodeOf([{ type: OID.serialNumber, value: wrongDigit }])).toBeNull();
    expect(creditCodeOf([{ type: OID.commonName, value: `1@5001SF0${CODE}` }])).toBe(CODE);
    const none = rsa.issue({ creditCode: CODE, codeIn: 'none' });
    expect(reasonOf(() => checkCertificate(none.base64, store, now))).toEqual({
      message: CA_MSG.noCreditCode,
      reason: 'creditCode',
    });
  });

  it('verifies RSA, ECDSA and SM2 signatures of the keys, and refuses altered data', () => {
    for (const [root, kind] of [
      [rsa, 'RSA'],
      [rsa, 'ECDSA'],
      [sm2, 'SM2'],
      [sm2, 'RSA'],
    ] as const) {
      const leaf = root.issue({ creditCode: CODE, kind });
      const cert = checkCertificate(leaf.base64, store, now);
      expect(cert.algorithm).toBe(kind);
      const sig = Buffer.from(leaf.signNonce('nonce-1'), 'base64');
      expect(signedBy(cert, Buffer.from('nonce-1'), sig), kind).toBe(true);
      expect(signedBy(cert, Buffer.from('nonce-2'), sig), kind).toBe(false);
    }
  });

  it('refuses a CA certificate, a not-yet-valid one, one issued under an expired root, and a tampered one', () => {
    const caCert = rsa.issue({ creditCode: CODE, ca: true });
    expect(reasonOf(() => checkCertificate(caCert.base64, store, now)).reason).toBe('ca');
    const future = rsa.issue({ creditCode: CODE, notBefore: new Date(now.getTime() + DAY) });
    const f = reasonOf(() => checkCertificate(future.base64, store, now));
    expect(f.reason).toBe('notYetValid');
    expect(f.message).toContain(CA_MSG.notYetValid);
    const oldRoot = createTestCa({
      kind: 'SM2',
      notBefore: new Date(now.getTime() - 900 * DAY),
      notAfter: new Date(now.getTime() - DAY),
    });
    const underOld = oldRoot.issue({ creditCode: CODE });
    const withOld = loadTrustStore(oldRoot.pem, 'old');
    expect(reasonOf(() => checkCertificate(underOld.base64, withOld, now)).reason).toBe('issuerExpired');
    // one byte of the holder's name changed: the issuer's signature no longer holds
    const good = sm2.issue({ creditCode: CODE, holder: '示例建设工程有限公司' });
    const tampered = Buffer.from(good.der);
    const at = tampered.indexOf(Buffer.from('示例', 'utf8'));
    tampered[at + 1] = tampered[at + 1]! ^ 1;
    expect(reasonOf(() => checkCertificate(tampered.toString('base64'), store, now)).reason).toBe('foreign');
  });

  it('reads OIDs as written', () => {
    expect(decodeOid(encodeOid(OID.sm2Curve))).toBe(OID.sm2Curve);
    expect(decodeOid(encodeOid('1.2.840.113549.1.1.11'))).toBe('1.2.840.113549.1.1.11');
    expect(decodeOid(Buffer.from([0x05, 0x00]))).toBeNull();
  });

  it('stops on a bundle without certificates', () => {
    expect(() => loadTrustStore('nothing here', 'x.pem')).toThrow(/CA_TRUSTED_ROOTS: no certificate in x.pem/);
  });
});

describe('configuration', () => {
  it('stops the start on an unreadable roots file and a bad agent address', async () => {
    const { readTrustStore } = await import('./ca.service');
    expect(() => readTrustStore('/nonexistent/roots.pem')).toThrow(
      /CA_TRUSTED_ROOTS: cannot read \/nonexistent\/roots.pem/,
    );
    expect(readTrustStore(null)).toBeNull();
    const { loadConfig, ConfigError } = await import('../../config');
    expect(() => loadConfig({ CA_AGENT_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(loadConfig({ CA_AGENT_URL: 'http://127.0.0.1:28090/', CA_TRUSTED_ROOTS: 'roots.pem' }, '/srv').ca).toEqual({
      agentUrl: 'http://127.0.0.1:28090',
      trustedRoots: '/srv/roots.pem',
    });
  });
});
