import {
  AGENCY_TYPE,
  type MarketDetail,
  type MarketEntity,
  type MarketKind,
  type MarketListQuery,
} from '@ks/contracts';
import type { Db } from '../../db/client';
import { notFound } from '../../platform/errors';
import * as repo from './market.repo';

type EnterpriseRow = NonNullable<Awaited<ReturnType<typeof repo.findEnterprise>>>;
type PractitionerRow = NonNullable<Awaited<ReturnType<typeof repo.findPractitioner>>>;

/** Certificate numbers are public only in part. */
export function maskCertNo(no: string): string {
  if (no.length <= 6) return `${no.slice(0, 1)}****`;
  return `${no.slice(0, 4)}${'*'.repeat(Math.min(8, no.length - 6))}${no.slice(-2)}`;
}

const dateText = (d: string | Date | null) =>
  d === null ? null : typeof d === 'string' ? d : d.toISOString().slice(0, 10);

function enterpriseEntity(e: EnterpriseRow): MarketEntity {
  return {
    id: e.id,
    kind: e.enterpriseType === AGENCY_TYPE ? 'agency' : 'enterprise',
    name: e.name,
    code: e.creditCode,
    type: e.enterpriseType,
    region: e.region,
    creditGrade: e.creditGrade,
    enterpriseName: null,
  };
}

function practitionerEntity(r: PractitionerRow): MarketEntity {
  return {
    id: r.p.id,
    kind: 'practitioner',
    name: r.p.name,
    code: maskCertNo(r.p.certNo),
    type: r.p.practiceArea,
    region: r.p.region,
    creditGrade: r.p.creditGrade,
    enterpriseName: r.enterpriseName,
  };
}

export async function listMarket(db: Db, q: MarketListQuery) {
  if (q.kind === 'practitioner') {
    const { records, total } = await repo.listPractitioners(db, q);
    return { records: records.map(practitionerEntity), total };
  }
  const { records, total } = await repo.listEnterprises(db, q);
  return { records: records.map(enterpriseEntity), total };
}

/** Today in China Standard Time (the platform's calendar), YYYY-MM-DD. */
export const todayInChina = (now: Date) => new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

export async function marketDetail(
  db: Db,
  kind: MarketKind,
  id: string,
  now: Date = new Date(),
): Promise<MarketDetail> {
  const today = todayInChina(now);
  const past = (d: string | null) => d !== null && d < today;
  let basic: MarketDetail['basic'];
  if (kind === 'practitioner') {
    const p = await repo.findPractitioner(db, id);
    if (!p) throw notFound('该从业人员不存在');
    basic = {
      ...practitionerEntity(p),
      legalPerson: null,
      address: null,
      registeredCapital: null,
      establishedAt: null,
      creditScore: p.p.creditScore === null ? null : Number(p.p.creditScore),
    };
  } else {
    const e = await repo.findEnterprise(db, id);
    if (!e || enterpriseEntity(e).kind !== kind) throw notFound('该市场主体不存在');
    basic = {
      ...enterpriseEntity(e),
      legalPerson: e.legalPerson,
      address: e.address,
      registeredCapital: e.registeredCapital,
      establishedAt: dateText(e.establishedAt),
      creditScore: e.creditScore === null ? null : Number(e.creditScore),
    };
  }
  const { quals, perfs, credits } = await repo.ownerRecords(
    db,
    kind === 'practitioner' ? 'practitioner' : 'enterprise',
    id,
  );
  return {
    basic,
    qualifications: quals.map((q) => ({
      name: q.name,
      level: q.level,
      // a practitioner's certificate is their registration: masked here as in the list
      certNo: kind === 'practitioner' ? maskCertNo(q.certNo) : q.certNo,
      validUntil: dateText(q.validUntil),
      expired: past(dateText(q.validUntil)),
    })),
    performances: perfs.map((p) => ({
      projectName: p.projectName,
      role: p.role,
      builder: p.builder,
      amount: p.amount,
      completedAt: dateText(p.completedAt),
    })),
    creditRecords: credits.map((c) => ({
      kind: c.kind,
      title: c.title,
      score: Number(c.score),
      issuer: c.issuer,
      startDate: dateText(c.startDate)!,
      endDate: dateText(c.endDate),
      expired: past(dateText(c.endDate)),
    })),
  };
}

export async function optionsOf(values: Promise<string[]>) {
  return (await values).map((v) => ({ label: v, value: v }));
}
