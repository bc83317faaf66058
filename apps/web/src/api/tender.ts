import {
  type ClarifyInput,
  paths,
  type RegistrationInput,
  type TenderDocInput,
  type TenderNoticeInput,
  type TenderSectionInput,
} from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { download } from './request';

/** The five-in-one project detail: the project with its sections, section changes, the timeline settings. */

export const TENDER_KEY = ['tender'] as const;
export const tenderProjectKey = (id: string) => [...TENDER_KEY, 'project', id] as const;

export const tenderProjectQuery = (id: string) =>
  queryOptions({ queryKey: tenderProjectKey(id), queryFn: () => call('tenderProject', { params: { id } }) });

export const tenderSettingsQuery = queryOptions({
  queryKey: [...TENDER_KEY, 'settings'],
  queryFn: () => call('tenderSettings'),
  staleTime: 60_000,
});

/** Silent: the section dialog puts the refusal (a rule, a taken code) on its fields. */
export const saveTenderSection = (body: TenderSectionInput) => call('tenderSectionSave', { data: body, silent: true });

export const deleteTenderSection = (id: string) => call('tenderSectionDelete', { data: { id } });

// ── notices (招标公告 tab) ──────────────────────────────────────────────────

export const sectionNoticesKey = (sectionId: string) => [...TENDER_KEY, 'notices', sectionId] as const;
export const sectionNoticesQuery = (sectionId: string) =>
  queryOptions({
    queryKey: sectionNoticesKey(sectionId),
    queryFn: () => call('tenderNotices', { params: { sectionId } }),
  });

/** The qualification tree of the qualification dialog (screen 14): categories and their levels, highest first. */
export const qualificationTreeQuery = queryOptions({
  queryKey: [...TENDER_KEY, 'qualification-tree'],
  queryFn: () => call('tenderQualificationTree'),
  staleTime: 10 * 60_000,
});

/** Silent: the notice form puts a refusal on its fields or above the form. */
export const saveTenderNotice = (body: TenderNoticeInput) => call('tenderNoticeSave', { data: body, silent: true });
export const submitTenderNotice = (id: string, version: number) =>
  call('tenderNoticeSubmit', { data: { id, version }, silent: true });

// ── registration (投标报名) ─────────────────────────────────────────────────

export const openSectionsQuery = queryOptions({
  queryKey: [...TENDER_KEY, 'open-sections'],
  queryFn: () => call('registrationOpenSections'),
});
export const registrationCheckQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...TENDER_KEY, 'registration-check', sectionId],
    queryFn: () => call('registrationCheck', { params: { sectionId } }),
  });
export const registrationQuantityQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...TENDER_KEY, 'registration-quantity', sectionId],
    queryFn: () => call('registrationQuantity', { params: { sectionId } }),
  });
export const registerForSection = (body: RegistrationInput) => call('registrationSave', { data: body, silent: true });

// ── tender documents and clarifications (招标文件 tab) ───────────────────────

/** bd-files: every file of every section of a project (documents with their downloads, clarification files). */
export const projectFilesQuery = (projectId: string) =>
  queryOptions({
    queryKey: [...TENDER_KEY, 'files', 'project', projectId],
    queryFn: () => call('tenderProjectFiles', { params: { projectId } }),
  });

export const tenderFilesKey = (sectionId: string) => [...TENDER_KEY, 'files', sectionId] as const;
export const tenderFilesQuery = (sectionId: string) =>
  queryOptions({
    queryKey: tenderFilesKey(sectionId),
    queryFn: () => call('tenderFiles', { data: { sectionId } }),
  });
export const downloadStatusQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...tenderFilesKey(sectionId), 'download-status'],
    queryFn: () => call('tenderFileDownloadStatus', { data: { sectionId } }),
  });
export const clarificationsQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...tenderFilesKey(sectionId), 'clarifications'],
    queryFn: () => call('clarifyList', { data: { sectionId } }),
  });

/** Silent: the dialogs show the refusal (a rule, a locked section) beside the form. */
export const saveTenderFile = (body: TenderDocInput) => call('tenderFileSave', { data: body, silent: true });
export const deleteTenderFile = (id: string) => call('tenderFileDelete', { data: { id } });
export const saveClarification = (body: ClarifyInput) => call('clarifySave', { data: body, silent: true });
export const submitClarification = (id: string, version: number) => call('clarifySubmit', { data: { id, version } });
export const revokeClarification = (id: string, version: number) => call('clarifyRevoke', { data: { id, version } });
export const deleteClarification = (id: string, version: number) => call('clarifyDelete', { data: { id, version } });
export const sendClarification = (id: string, version: number) => call('clarifySend', { data: { id, version } });
export const auditClarification = (body: { id: string; version: number; pass: boolean; opinion: string }) =>
  call('clarifyAudit', { data: body, silent: true });

/** Downloads a tender document through the server, which records a bidder's download before sending it. */
export async function downloadTenderFile(id: string, fallbackName: string) {
  const result = await download({
    url: `${paths.tenderFileDownload.path}?${new URLSearchParams({ id })}`,
    method: paths.tenderFileDownload.method,
  });
  saveBlob(result, fallbackName);
}
