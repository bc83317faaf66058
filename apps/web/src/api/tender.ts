import type { TenderSectionInput } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';

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
