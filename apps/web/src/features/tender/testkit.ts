import type { TenderProject, TenderSection } from '@ks/contracts';

/** The five-in-one project and section the tender tests share: 太原 SXGC-2026-1101 and its BD-01, far in the future. */
export const PROJECT_ID = '3f0a8a38-6f1e-4a53-9d43-1b6a3e1f2c11';
export const SECTION_ID = '0b1c2d3e-4f50-4a61-8b72-93a4b5c6d7e8';

export const tenderSection = (over: Partial<TenderSection> = {}): TenderSection => ({
  id: SECTION_ID,
  projectId: PROJECT_ID,
  code: 'BD-01',
  name: '施工标段',
  estimate: 38_500_000,
  deposit: 770_000,
  docSaleStart: '2099-03-01',
  docSaleEnd: '2099-03-07',
  bidDeadline: '2099-03-25T01:30:00.000Z',
  perfCount: 0,
  perfMinAmount: 0,
  perfYears: 3,
  version: 1,
  createdBy: 'u',
  createdAt: '2099-01-01T00:00:00.000Z',
  updatedAt: '2099-01-01T00:00:00.000Z',
  ...over,
});

export const tenderProject = (over: Partial<TenderProject> = {}): TenderProject => ({
  id: PROJECT_ID,
  status: 'passed',
  values: {
    xmmc: '太原市晋源区第二实验小学教学综合楼建设工程',
    xmbh: 'SXGC-2026-1101',
    xmszd: '山西省/太原市/晋源区',
    ztz: 48_600_000,
  },
  canEdit: true,
  sections: [tenderSection()],
  ...over,
});
