import { createHash, createPublicKey, type KeyObject, verify as nodeVerify } from 'node:crypto';
import { CA_MSG, type CaAlgorithm, creditCodeProblem, SM2_DEFAULT_USER_ID } from '@ks/contracts';
import { AsnConvert } from '@peculiar/asn1-schema';
import { BasicConstraints, Certificate, id_ce_basicConstraints, type Name } from '@peculiar/asn1-x509';
import smCrypto from 'sm-crypto';
import { AppError, badRequest } from '../../platform/errors';

/**
 * X.509 certificates of Chinese CA keys (CA锁): parsed from their ASN.1 (so that SM2 certificates, which node's crypto
 * does not verify, are read the same way as RSA and ECDSA ones), checked against the configured trust anchors, and
 * the signatures of their keys verified — RSA / ECDSA with node:crypto, SM2 with SM3 (GM/T 0003, 0009) with sm-crypto.
 */

export const OID = {
  rsaEncryption: '1.2.840.113549.1.1.1',
  ecPublicKey: '1.2.840.10045.2.1',
  /** the SM2 curve (also written as the key algorithm by some CAs) */
  sm2Curve: '1.2.156.10197.1.301',
  sm2WithSm3: '1.2.156.10197.1.501',
  commonName: '2.5.4.3',
  serialNumber: '2.5.4.5',
  country: '2.5.4.6',
  locality: '2.5.4.7',
  state: '2.5.4.8',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  organizationIdentifier: '2.5.4.97',
} as const;

/** Signature algorithms of certificates: the digest node's crypto uses, or SM2/SM3. */
const SIGNATURE_ALGORITHMS: Record<string, { kind: 'node'; hash: string } | { kind: 'sm2' }> = {
  '1.2.840.113549.1.1.5': { kind: 'node', hash: 'sha1' },
  '1.2.840.113549.1.1.11': { kind: 'node', hash: 'sha256' },
  '1.2.840.113549.1.1.12': { kind: 'node', hash: 'sha384' },
  '1.2.840.113549.1.1.13': { kind: 'node', hash: 'sha512' },
  '1.2.840.10045.4.1': { kind: 'node', hash: 'sha1' },
  '1.2.840.10045.4.3.2': { kind: 'node', hash: 'sha256' },
  '1.2.840.10045.4.3.3': { kind: 'node', hash: 'sha384' },
  '1.2.840.10045.4.3.4': { kind: 'node', hash: 'sha512' },
  [OID.sm2WithSm3]: { kind: 'sm2' },
};

const SHORT_NAMES: Record<string, string> = {
  [OID.commonName]: 'CN',
  [OID.serialNumber]: 'SERIALNUMBER',
  [OID.country]: 'C',
  [OID.locality]: 'L',
  [OID.state]: 'ST',
  [OID.organization]: 'O',
  [OID.organizationalUnit]: 'OU',
  [OID.organizationIdentifier]: 'organizationIdentifier',
};

export interface ParsedCert {
  der: Buffer;
  /** SHA-256 of the DER, hex lower case */
  fingerprint: string;
  serial: string;
  tbs: Buffer;
  signatureAlgorithm: string;
  signature: Buffer;
  /** the DER of the names, as this parser writes them (compared between certificates) */
  issuerKey: string;
  subjectKey: string;
  issuer: string;
  /** the issuer's CN (else its whole name) */
  issuerName: string;
  subject: string;
  subjectAttributes: { type: string; value: string }[];
  notBefore: Date;
  notAfter: Date;
  isCa: boolean;
  algorithm: CaAlgorithm | null;
  /** the key as node's crypto takes it (RSA, ECDSA), or the SM2 point as hex (04‖x‖y) */
  key: { kind: 'node'; key: KeyObject } | { kind: 'sm2'; point: string } | null;
}

const certError = (message: string, reason: string) => badRequest(message, { reason });

/** PEM or base64 DER → DER bytes; a 400 when it is neither. */
export function decodeCertificate(text: string): Buffer {
  const pem = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(text);
  const b64 = (pem ? pem[1]! : text).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw certError(CA_MSG.badCertificate, 'format');
  const der = Buffer.from(b64, 'base64');
  if (der.length < 100 || der[0] !== 0x30) throw certError(CA_MSG.badCertificate, 'format');
  return der;
}

/** Every certificate of a PEM bundle. */
export function pemBlocks(text: string): Buffer[] {
  return [...text.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) =>
    Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64'),
  );
}

export function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** The OID a DER `OBJECT IDENTIFIER` (tag 6) holds, or null. */
export function decodeOid(der: ArrayBuffer | Buffer | null | undefined): string | null {
  if (!der) return null;
  const b = Buffer.from(der as ArrayBuffer);
  if (b.length < 3 || b[0] !== 0x06 || b[1] !== b.length - 2) return null;
  const parts: number[] = [];
  let v = 0;
  for (let i = 2; i < b.length; i++) {
    v = v * 128 + (b[i]! & 0x7f);
    if (!(b[i]! & 0x80)) {
      parts.push(v);
      v = 0;
    }
  }
  const first = parts.shift() ?? 0;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...parts].join('.');
}

function nameAttributes(name: Name): { type: string; value: string }[] {
  return name.flatMap((rdn) => rdn.map((atv) => ({ type: atv.type, value: atv.value.toString() })));
}

function nameText(attrs: { type: string; value: string }[]): string {
  return attrs
    .slice()
    .reverse()
    .map((a) => `${SHORT_NAMES[a.type] ?? a.type}=${a.value}`)
    .join(', ');
}

function keyOf(spkiDer: Buffer, algorithmOid: string, params: ArrayBuffer | null | undefined, bits: ArrayBuffer) {
  const curve = decodeOid(params);
  if (algorithmOid === OID.sm2Curve || (algorithmOid === OID.ecPublicKey && curve === OID.sm2Curve)) {
    const point = Buffer.from(bits).toString('hex');
    return { algorithm: 'SM2' as const, key: { kind: 'sm2' as const, point } };
  }
  if (algorithmOid !== OID.rsaEncryption && algorithmOid !== OID.ecPublicKey) return { algorithm: null, key: null };
  try {
    const key = createPublicKey({ key: spkiDer, format: 'der', type: 'spki' });
    return {
      algorithm: algorithmOid === OID.rsaEncryption ? ('RSA' as const) : ('ECDSA' as const),
      key: { kind: 'node' as const, key },
    };
  } catch {
    return { algorithm: null, key: null };
  }
}

/** Reads a certificate's DER; a 400 (证书格式不正确) when it is not one. */
export function parseCertificate(der: Buffer): ParsedCert {
  let cert: Certificate;
  try {
    cert = AsnConvert.parse(der, Certificate);
  } catch {
    throw certError(CA_MSG.badCertificate, 'format');
  }
  const tbs = cert.tbsCertificate;
  const raw = cert.tbsCertificateRaw;
  if (!raw) throw certError(CA_MSG.badCertificate, 'format');
  const spkiDer = Buffer.from(AsnConvert.serialize(tbs.subjectPublicKeyInfo));
  const { algorithm, key } = keyOf(
    spkiDer,
    tbs.subjectPublicKeyInfo.algorithm.algorithm,
    tbs.subjectPublicKeyInfo.algorithm.parameters,
    tbs.subjectPublicKeyInfo.subjectPublicKey,
  );
  let isCa = false;
  for (const ext of tbs.extensions ?? []) {
    if (ext.extnID !== id_ce_basicConstraints) continue;
    try {
      isCa = AsnConvert.parse(ext.extnValue, BasicConstraints).cA === true;
    } catch {
      throw certError(CA_MSG.badCertificate, 'format');
    }
  }
  const subjectAttributes = nameAttributes(tbs.subject);
  const issuerAttributes = nameAttributes(tbs.issuer);
  return {
    der,
    fingerprint: createHash('sha256').update(der).digest('hex'),
    serial: Buffer.from(tbs.serialNumber)
      .toString('hex')
      .toUpperCase()
      .replace(/^(00)+(?=.)/, ''),
    tbs: Buffer.from(raw),
    signatureAlgorithm: cert.signatureAlgorithm.algorithm,
    signature: Buffer.from(cert.signatureValue),
    issuerKey: Buffer.from(AsnConvert.serialize(tbs.issuer)).toString('hex'),
    subjectKey: Buffer.from(AsnConvert.serialize(tbs.subject)).toString('hex'),
    issuer: nameText(issuerAttributes),
    issuerName: issuerAttributes.find((a) => a.type === OID.commonName)?.value ?? nameText(issuerAttributes),
    subject: nameText(subjectAttributes),
    subjectAttributes,
    notBefore: tbs.validity.notBefore.getTime(),
    notAfter: tbs.validity.notAfter.getTime(),
    isCa,
    algorithm,
    key,
  };
}

/** The holder's name: CN of the subject, else O. */
export function holderOf(c: Pick<ParsedCert, 'subjectAttributes'>): string {
  const of = (t: string) => c.subjectAttributes.find((a) => a.type === t)?.value;
  return of(OID.commonName) ?? of(OID.organization) ?? '';
}

/**
 * The unified social credit code (GB 32100) a Chinese CA writes into an enterprise certificate's subject: serialNumber
 * (2.5.4.5), organizationIdentifier (2.5.4.97, e.g. NTRCN-…), OU or CN text, in that order — the first 18-character
 * run with a right check digit (a longer run: its last 18 characters, as in 1@5001SF0<code>).
 */
export function creditCodeOf(attrs: { type: string; value: string }[]): string | null {
  const order = [OID.serialNumber, OID.organizationIdentifier, OID.organizationalUnit, OID.commonName];
  for (const type of order) {
    for (const a of attrs.filter((x) => x.type === type)) {
      const runs = a.value.toUpperCase().match(/[0-9A-Z]{18,}/g) ?? [];
      for (const run of runs) {
        const candidate = run.slice(-18);
        if (creditCodeProblem(candidate) === null) return candidate;
      }
    }
  }
  return null;
}

function sm2Verify(point: string, data: Buffer, signature: Buffer): boolean {
  try {
    const raw = signature.length === 64;
    return smCrypto.sm2.doVerifySignature(Array.from(data), signature.toString('hex'), point, {
      der: !raw,
      hash: true,
      userId: SM2_DEFAULT_USER_ID,
    });
  } catch {
    return false;
  }
}

/** Did the issuer's key sign this certificate (its TBS bytes, with the certificate's signature algorithm)? */
export function issuedBy(cert: ParsedCert, issuer: ParsedCert): boolean {
  const alg = SIGNATURE_ALGORITHMS[cert.signatureAlgorithm];
  if (!alg || !issuer.key) return false;
  if (alg.kind === 'sm2') return issuer.key.kind === 'sm2' && sm2Verify(issuer.key.point, cert.tbs, cert.signature);
  if (issuer.key.kind !== 'node') return false;
  try {
    return nodeVerify(alg.hash, cert.tbs, issuer.key.key, cert.signature);
  } catch {
    return false;
  }
}

/**
 * Did the certificate's key sign `data`? RSA: PKCS#1 v1.5 with SHA-256; ECDSA: SHA-256, DER or r‖s; SM2: SM3 with the
 * GM/T 0009 default user id, DER or r‖s.
 */
export function signedBy(cert: ParsedCert, data: Buffer, signature: Buffer): boolean {
  if (!cert.key) return false;
  if (cert.key.kind === 'sm2') return sm2Verify(cert.key.point, data, signature);
  try {
    const key = cert.key.key;
    if (cert.algorithm === 'ECDSA' && signature[0] !== 0x30) {
      return nodeVerify('sha256', data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return nodeVerify('sha256', data, key, signature);
  } catch {
    return false;
  }
}

/** The trust anchors: every certificate of the configured PEM bundle (roots, and intermediates trusted as they are). */
export interface TrustStore {
  anchors: ParsedCert[];
}

export function loadTrustStore(pem: string, source: string): TrustStore {
  const blocks = pemBlocks(pem);
  if (!blocks.length) throw new Error(`CA_TRUSTED_ROOTS: no certificate in ${source}`);
  const anchors = blocks.map((der, i) => {
    try {
      return parseCertificate(der);
    } catch {
      throw new Error(`CA_TRUSTED_ROOTS: certificate ${i + 1} of ${source} cannot be read`);
    }
  });
  return { anchors };
}

const dateText = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A certificate a client presents, checked at `now`: readable, an end-entity certificate, within its validity period,
 * issued (signature verified) by a trust anchor that is itself valid, with a key this platform verifies and a unified
 * social credit code in its subject. Throws a 400 with the reason otherwise.
 */
export function checkCertificate(text: string, store: TrustStore, now: Date): ParsedCert & { creditCode: string } {
  const cert = parseCertificate(decodeCertificate(text));
  if (cert.isCa) throw certError(CA_MSG.caCertificate, 'ca');
  if (cert.notAfter.getTime() < now.getTime()) {
    throw certError(`${CA_MSG.expired}（有效期至 ${dateText(cert.notAfter)}）`, 'expired');
  }
  if (cert.notBefore.getTime() > now.getTime()) {
    throw certError(`${CA_MSG.notYetValid}（生效日期 ${dateText(cert.notBefore)}）`, 'notYetValid');
  }
  const issuers = store.anchors.filter((a) => a.subjectKey === cert.issuerKey && issuedBy(cert, a));
  if (!issuers.length) throw certError(CA_MSG.foreign, 'foreign');
  if (!issuers.some((a) => a.notBefore <= now && a.notAfter >= now)) {
    throw certError(CA_MSG.issuerExpired, 'issuerExpired');
  }
  if (!cert.algorithm) throw certError(CA_MSG.unsupportedKey, 'key');
  const creditCode = creditCodeOf(cert.subjectAttributes);
  if (!creditCode) throw certError(CA_MSG.noCreditCode, 'creditCode');
  return { ...cert, creditCode };
}

export const isCertError = (e: unknown): e is AppError => e instanceof AppError;
