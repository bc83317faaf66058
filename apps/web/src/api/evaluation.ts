import {
  type ApiBody,
  Code,
  type EvalBidderOutcome,
  type EvalPanel,
  type EvalRoom,
  paths,
  TENDER_LEGAL,
} from '@ks/contracts';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { saveBlob } from './engine';
import { type DownloadResult, download, isApiError, reportApiError } from './request';

/**
 * Bid evaluation (评标, issue 17): the sections the caller may enter, one section's room as the caller sees it, and
 * its steps. Every step answers the room as it is now, which goes straight into the room's query; the others in the
 * room learn of it from the live channel (event `evaluation`).
 */

export const EVAL_KEY = ['evaluation'] as const;

export const evalSectionsQuery = queryOptions({
  queryKey: [...EVAL_KEY, 'sections'],
  queryFn: () => call('evalSections'),
});

/** 标段交易进度 (overview-status): re-read with the room (same key prefix). */
export const tradeOverviewQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...EVAL_KEY, 'room', sectionId, 'overview-status'],
    queryFn: () => call('tradeOverview', { params: { sectionId }, silent: true }),
    enabled: sectionId.length > 0,
  });

export const evalRoomKey = (sectionId: string) => [...EVAL_KEY, 'room', sectionId] as const;

export const evalRoomQuery = (sectionId: string) =>
  queryOptions({
    queryKey: evalRoomKey(sectionId),
    queryFn: () => call('evalRoom', { params: { sectionId } }),
    enabled: sectionId.length > 0,
  });

/** The confirmed extractions the host may form the committee from (the 开始评标 dialog). */
export const evalExtractionsQuery = (sectionId: string) =>
  queryOptions({
    queryKey: [...EVAL_KEY, 'extractions', sectionId],
    queryFn: () => call('evalExtractions', { params: { sectionId } }),
    enabled: sectionId.length > 0,
  });

/** Put a step's answer into the room's query (and mark the section list stale: its status may have changed). */
export function setRoom(qc: QueryClient, room: EvalRoom): void {
  qc.setQueryData(evalRoomKey(room.section.id), room);
  void qc.invalidateQueries({ queryKey: evalSectionsQuery.queryKey, refetchType: 'none' });
}

export const evalBegin = (body: ApiBody<'evalBegin'>) => call('evalBegin', { data: body });
/** Silent: the method form puts the server's field errors on its fields and shows the rest above itself. */
export const evalMethod = (body: ApiBody<'evalMethod'>) => call('evalMethod', { data: body, silent: true });
export const evalDeclare = (body: ApiBody<'evalDeclare'>) => call('evalDeclare', { data: body });
export const evalSignIn = (sectionId: string, panel: EvalPanel) => call('evalSignIn', { data: { sectionId, panel } });
export const evalVote = (sectionId: string, memberId: string) => call('evalVote', { data: { sectionId, memberId } });
/** Silent: the 确定组长 dialog shows a refusal itself. */
export const evalPrincipal = (body: ApiBody<'evalPrincipal'>) => call('evalPrincipal', { data: body, silent: true });
export const evalSave = (body: ApiBody<'evalSave'>) => call('evalSave', { data: body });
/** Silent: the scoring grid shows a refusal itself (the deviation cells), and reports any other the usual way. */
export const evalSubmit = (sectionId: string, panel: EvalPanel) =>
  call('evalSubmit', { data: { sectionId, panel }, silent: true });
export const evalReopen = (body: ApiBody<'evalReopen'>) => call('evalReopen', { data: body });
export const evalClarify = (body: ApiBody<'evalClarify'>) => call('evalClarify', { data: body });
export const evalClarifyRevoke = (body: ApiBody<'evalClarifyRevoke'>) => call('evalClarifyRevoke', { data: body });
export const evalClarifyAnswer = (body: ApiBody<'evalClarifyAnswer'>) => call('evalClarifyAnswer', { data: body });
export const evalRender = (sectionId: string) => call('evalRender', { data: { sectionId } });
export const evalSignReport = (body: ApiBody<'evalSignReport'>) => call('evalSignReport', { data: body });

// ── after the evaluation: the candidates' publicity, objections, the award ──────────────────────────────────────

/** Silent: the publish dialog shows a refusal (too short a period…) itself, and reports any other failure. */
export const evalPublish = (body: ApiBody<'evalPublish'>) => call('evalPublish', { data: body, silent: true });
/** 答复异议 (the host): answers the room. */
export const evalObjectionAnswer = (body: ApiBody<'evalObjectionAnswer'>) =>
  call('evalObjectionAnswer', { data: body });
/** 确定中标人 (the host): answers the room. */
export const evalAward = (sectionId: string) => call('evalAward', { data: { sectionId } });
/** 提出异议 (a bidder): answers the bidder's outcome. */
export const evalObjection = (body: ApiBody<'evalObjection'>) => call('evalObjection', { data: body });

export const evalOutcomeKey = (sectionId: string) => [...EVAL_KEY, 'outcome', sectionId] as const;

/**
 * The server's message when it refused a step by one of its rules (400 or 409), for a dialog that shows it itself;
 * null for any other failure (the session, the network…), which takes the usual handling (reportApiError).
 */
export function refusalOf(err: unknown): string | null {
  if (!isApiError(err) || err.kind !== 'response' || err.status >= 500) return null;
  return err.code === Code.BAD_REQUEST || err.code === Code.CONFLICT ? err.message : null;
}

/** A 404: the caller is no bidder of the section (or it does not exist): nothing to show. */
const isNotFound = (err: unknown) => isApiError(err) && (err.status === 404 || err.code === 404);

/**
 * A bidder's view of the section after the evaluation (the opening hall's 评标结果 card); null when the server answers
 * 404 (not a bidder of the section), which is no error to prompt about. Any other failure is reported the usual way.
 */
export const evalOutcomeQuery = (sectionId: string) =>
  queryOptions({
    queryKey: evalOutcomeKey(sectionId),
    queryFn: async (): Promise<EvalBidderOutcome | null> => {
      try {
        return await call('evalOutcome', { params: { sectionId }, silent: true });
      } catch (err) {
        if (isNotFound(err)) return null;
        if (isApiError(err)) reportApiError(err);
        throw err;
      }
    },
    enabled: sectionId.length > 0,
  });

/** Put a bidder's outcome (the answer of 提出异议) into its query. */
export function setOutcome(qc: QueryClient, outcome: EvalBidderOutcome): void {
  qc.setQueryData(evalOutcomeKey(outcome.section.id), outcome);
}

/**
 * The shortest publicity period the host may choose (the tender settings' publicityDays, itself at least the legal 3
 * days). Read silently: a caller who may not read the settings falls back to the legal minimum, and the server
 * enforces the setting anyway.
 */
export const publicityDaysQuery = queryOptions({
  queryKey: [...EVAL_KEY, 'publicityDays'],
  queryFn: async (): Promise<number> => {
    try {
      const { settings } = await call('tenderSettings', { silent: true });
      return Math.max(settings.publicityDays, TENDER_LEGAL.publicityDays);
    } catch {
      return TENDER_LEGAL.publicityDays;
    }
  },
  staleTime: 60_000,
});

/** 中标通知书 (PDF), handed to the browser as a download. */
export async function downloadAwardNotice(sectionId: string, fallbackName: string) {
  const result = await download({
    url: `${paths.evalAwardNotice.path}?${new URLSearchParams({ sectionId })}`,
    method: paths.evalAwardNotice.method,
  });
  saveBlob(result, fallbackName);
}

/** 评标报告 as xlsx or PDF, handed to the browser as a download. */
export async function downloadEvalReport(sectionId: string, format: 'xlsx' | 'pdf', fallbackName: string) {
  const result = await download({
    url: `${paths.evalExport.path}?${new URLSearchParams({ sectionId, format })}`,
    method: paths.evalExport.method,
  });
  saveBlob(result, fallbackName);
}

/** A decrypted bid file (read-only), as the blob the server sends. */
export function fetchEvalDocument(sectionId: string, bidId: string): Promise<DownloadResult> {
  return download({
    url: `${paths.evalDocument.path}?${new URLSearchParams({ sectionId, bidId })}`,
    method: paths.evalDocument.method,
  });
}

/** One score the server named in a refusal (a deviation from the committee's median without a reason). */
export interface FlaggedCell {
  bidId: string;
  itemId: string;
  /** what the server adds, when it does: the names, the score and the committee's median */
  enterpriseName?: string;
  itemName?: string;
  score?: number;
  median?: number;
}

function cellOf(v: unknown): FlaggedCell | null {
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  if (typeof o.bidId !== 'string' || typeof o.itemId !== 'string') return null;
  const cell: FlaggedCell = { bidId: o.bidId, itemId: o.itemId };
  if (typeof o.enterpriseName === 'string') cell.enterpriseName = o.enterpriseName;
  if (typeof o.itemName === 'string') cell.itemName = o.itemName;
  if (typeof o.score === 'number') cell.score = o.score;
  if (typeof o.median === 'number') cell.median = o.median;
  return cell;
}

/**
 * The cells a refusal of evalSubmit names: the envelope's data `{cells: [{bidId, enterpriseName, itemId, itemName,
 * score, median}]}` (also read as a bare list, or under items / scores / deviations); empty for any other failure.
 */
export function flaggedCellsOf(err: unknown): FlaggedCell[] {
  if (!isApiError(err)) return [];
  const d = err.data as unknown;
  let list: unknown = d;
  if (!Array.isArray(list) && typeof d === 'object' && d !== null) {
    const o = d as Record<string, unknown>;
    list = [o.cells, o.items, o.scores, o.deviations].find(Array.isArray) ?? [];
  }
  if (!Array.isArray(list)) return [];
  return list.map(cellOf).filter((c): c is FlaggedCell => c !== null);
}
