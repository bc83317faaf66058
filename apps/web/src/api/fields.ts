import type { ApiBody, FieldDef } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from './call';
import { ENGINE_KEY } from './engine';

/**
 * The developer's field editor (`/system/setUpForm`): a node's field list with its version, the versioned save, and the
 * dictionaries a `dic` field may name. The save is `silent`: the editor puts field errors on their rows and handles a
 * 409 (someone else saved first) with a reload.
 */

/** The node's stored fields; the editor always starts from what is stored now. */
export const editorFieldsKey = (gnCoding: string) => [...ENGINE_KEY, 'fields', gnCoding, 'editor'] as const;
export const editorFieldsQuery = (gnCoding: string, systemCoding: string) =>
  queryOptions({
    queryKey: editorFieldsKey(gnCoding),
    queryFn: () => call('arrayFields', { data: systemCoding ? { gnCoding, systemCoding } : { gnCoding } }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** Another node's fields (a pull-down source's label / value / parent fields). */
export const sourceFieldsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'fields', gnCoding, 'source'],
    queryFn: () => call('arrayFields', { data: { gnCoding }, silent: true }),
    staleTime: 60_000,
    retry: false,
  });

export const dictionaryCodesQuery = queryOptions({
  queryKey: [...ENGINE_KEY, 'dictionaryCodes'],
  queryFn: () => call('dicCodes'),
  staleTime: 5 * 60_000,
});

/**
 * The editor holds stored fields (FieldDef, whose option source is any string), which the body schema narrows; the
 * server parses the list with fieldListSchema and answers a 400 on any field it refuses.
 */
export const saveNodeFields = (body: Omit<ApiBody<'saveFields'>, 'fields'> & { fields: FieldDef[] }) =>
  call('saveFields', { data: body as ApiBody<'saveFields'>, silent: true });
