import {
  constants,
  generateKeyPairSync,
  type KeyObject,
  sign as nodeSign,
  privateDecrypt,
  randomBytes,
} from 'node:crypto';
import { SM2_DEFAULT_USER_ID } from '@ks/contracts';
import { AsnConvert, OctetString } from '@peculiar/asn1-schema';
import {
  AlgorithmIdentifier,
  AttributeTypeAndValue,
  AttributeValue,
  BasicConstraints,
  Certificate,
  Extension,
  Extensions,
  id_ce_basicConstraints,
  Name,
  RelativeDistinguishedName,
  SubjectPublicKeyInfo,
  TBSCertificate,
  Validity,
  Version,
} from '@peculiar/asn1-x509';
import smCrypto from 'sm-crypto';
import { OID, toPem } from './cert';

/**
 * Test CAs made on the spot (tests and the e2e fake signing agent; never used by the product): an RSA, ECDSA (P-256)
 * or SM2 root, and enterprise certificates it issues with the unified social credit code where Chinese CAs put it.
 * SM2 certificates are DER written here (asn1-x509 schema) and signed SM2-with-SM3 by sm-crypto, as a 国密 CA does.
 */

export type TestKeyKind = 'RSA' | 'ECDSA' | 'SM2';

export interface TestKey {
  kind: TestKeyKind;
  spki: SubjectPublicKeyInfo;
  /** RSA PKCS#1 v1.5 / ECDSA (DER) with SHA-256; SM2 with SM3 and the default user id (DER) */
  sign(data: Buffer): Buffer;
  /** RSA keys only: RSA-OAEP with SHA-256 (what wraps a sealed bid's file key) */
  decrypt?(data: Buffer): Buffer;
}

export interface TestCert {
  der: Buffer;
  pem: string;
  /** base64 DER: what a signing agent answers */
  base64: string;
  key: TestKey;
  /** a signature of the nonce's UTF-8 bytes, base64, as the signing agent makes it */
  signNonce(nonce: string): string;
}

export interface TestCa extends TestCert {
  name: string;
  issue(opts: IssueOptions): TestCert;
}

export interface IssueOptions {
  /** the enterprise's unified social credit code */
  creditCode: string;
  /** the holder (CN and O) */
  holder?: string;
  kind?: TestKeyKind;
  notBefore?: Date;
  notAfter?: Date;
  /** where the code goes: serialNumber (default), organizationIdentifier (NTRCN-…), OU, or CN text */
  codeIn?: 'serialNumber' | 'organizationIdentifier' | 'OU' | 'CN' | 'none';
  /** issue a CA certificate instead (basicConstraints cA) */
  ca?: boolean;
}

const DAY = 86_400_000;

/** DER of an OBJECT IDENTIFIER. */
export function encodeOid(oid: string): Buffer {
  const [a, b, ...rest] = oid.split('.').map(Number);
  const body: number[] = [a! * 40 + b!];
  for (const n of rest) {
    const bytes = [n & 0x7f];
    let v = Math.floor(n / 128);
    while (v > 0) {
      bytes.unshift((v & 0x7f) | 0x80);
      v = Math.floor(v / 128);
    }
    body.push(...bytes);
  }
  return Buffer.from([0x06, body.length, ...body]);
}

const toArrayBuffer = (b: Buffer): ArrayBuffer => b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
const NULL_DER = toArrayBuffer(Buffer.from([0x05, 0x00]));

export function makeKey(kind: TestKeyKind): TestKey {
  if (kind === 'SM2') {
    const pair = smCrypto.sm2.generateKeyPairHex();
    const spki = new SubjectPublicKeyInfo({
      algorithm: new AlgorithmIdentifier({
        algorithm: OID.ecPublicKey,
        parameters: toArrayBuffer(encodeOid(OID.sm2Curve)),
      }),
      subjectPublicKey: toArrayBuffer(Buffer.from(pair.publicKey, 'hex')),
    });
    return {
      kind,
      spki,
      sign: (data) =>
        Buffer.from(
          smCrypto.sm2.doSignature(Array.from(data), pair.privateKey, {
            der: true,
            hash: true,
            publicKey: pair.publicKey,
            userId: SM2_DEFAULT_USER_ID,
          }),
          'hex',
        ),
    };
  }
  const pair =
    kind === 'RSA'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const privateKey: KeyObject = pair.privateKey;
  const spki = AsnConvert.parse(pair.publicKey.export({ type: 'spki', format: 'der' }), SubjectPublicKeyInfo);
  const sign = (data: Buffer) => nodeSign('sha256', data, privateKey);
  if (kind !== 'RSA') return { kind, spki, sign };
  const decrypt = (data: Buffer) =>
    privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, data);
  return { kind, spki, sign, decrypt };
}

function nameOf(parts: [string, string][]): Name {
  return new Name(
    parts.map(
      ([type, value]) =>
        new RelativeDistinguishedName([
          new AttributeTypeAndValue({
            type,
            value: new AttributeValue(
              type === OID.country || type === OID.serialNumber ? { printableString: value } : { utf8String: value },
            ),
          }),
        ]),
    ),
  );
}

function signatureAlgorithmOf(kind: TestKeyKind): AlgorithmIdentifier {
  if (kind === 'RSA') return new AlgorithmIdentifier({ algorithm: '1.2.840.113549.1.1.11', parameters: NULL_DER });
  if (kind === 'ECDSA') return new AlgorithmIdentifier({ algorithm: '1.2.840.10045.4.3.2' });
  return new AlgorithmIdentifier({ algorithm: OID.sm2WithSm3 });
}

function build(opts: {
  subject: Name;
  issuer: Name;
  key: TestKey;
  issuerKey: TestKey;
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
}): TestCert {
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const sigAlg = signatureAlgorithmOf(opts.issuerKey.kind);
  const tbs = new TBSCertificate({
    version: Version.v3,
    serialNumber: toArrayBuffer(serial),
    signature: sigAlg,
    issuer: opts.issuer,
    validity: new Validity({ notBefore: opts.notBefore, notAfter: opts.notAfter }),
    subject: opts.subject,
    subjectPublicKeyInfo: opts.key.spki,
    extensions: new Extensions([
      new Extension({
        extnID: id_ce_basicConstraints,
        critical: true,
        extnValue: new OctetString(AsnConvert.serialize(new BasicConstraints({ cA: opts.ca }))),
      }),
    ]),
  });
  const tbsDer = Buffer.from(AsnConvert.serialize(tbs));
  const signature = opts.issuerKey.sign(tbsDer);
  const der = Buffer.from(
    AsnConvert.serialize(
      new Certificate({ tbsCertificate: tbs, signatureAlgorithm: sigAlg, signatureValue: toArrayBuffer(signature) }),
    ),
  );
  const key = opts.key;
  return {
    der,
    pem: toPem(der),
    base64: der.toString('base64'),
    key,
    signNonce: (nonce) => key.sign(Buffer.from(nonce, 'utf8')).toString('base64'),
  };
}

/** A self-signed root of `kind`, valid from a year ago for twenty years unless told. */
export function createTestCa(
  opts: { kind?: TestKeyKind; name?: string; notBefore?: Date; notAfter?: Date } = {},
): TestCa {
  const kind = opts.kind ?? 'RSA';
  const name = opts.name ?? `测试 ${kind} 根 CA`;
  const key = makeKey(kind);
  const subject = nameOf([
    [OID.country, 'CN'],
    [OID.organization, '测试认证中心'],
    [OID.commonName, name],
  ]);
  const now = Date.now();
  const root = build({
    subject,
    issuer: subject,
    key,
    issuerKey: key,
    notBefore: opts.notBefore ?? new Date(now - 365 * DAY),
    notAfter: opts.notAfter ?? new Date(now + 20 * 365 * DAY),
    ca: true,
  });
  return {
    ...root,
    name,
    issue(o) {
      const holder = o.holder ?? '测试企业';
      const codeIn = o.codeIn ?? 'serialNumber';
      const parts: [string, string][] = [
        [OID.country, 'CN'],
        [OID.organization, holder],
      ];
      if (codeIn === 'OU') parts.push([OID.organizationalUnit, o.creditCode]);
      if (codeIn === 'organizationIdentifier') parts.push([OID.organizationIdentifier, `NTRCN-${o.creditCode}`]);
      parts.push([OID.commonName, codeIn === 'CN' ? `${holder}@${o.creditCode}` : holder]);
      if (codeIn === 'serialNumber') parts.push([OID.serialNumber, o.creditCode]);
      return build({
        subject: nameOf(parts),
        issuer: subject,
        key: makeKey(o.kind ?? kind),
        issuerKey: key,
        notBefore: o.notBefore ?? new Date(now - 30 * DAY),
        notAfter: o.notAfter ?? new Date(now + 2 * 365 * DAY),
        ca: o.ca ?? false,
      });
    },
  };
}
