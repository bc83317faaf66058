import type { DictionaryCode, FieldDef, UniqueKey } from '@ks/contracts';
import { paths } from '@ks/contracts';
import { queryOptions } from '@tanstack/react-query';
import { ENGINE_KEY, type NodeFields } from './engine';
import { request } from './request';

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
    queryFn: () =>
      request<NodeFields>({
        url: paths.arrayFields.path,
        method: paths.arrayFields.method,
        data: systemCoding ? { gnCoding, systemCoding } : { gnCoding },
      }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

/** Another node's fields (a pull-down source's label / value / parent fields). */
export const sourceFieldsQuery = (gnCoding: string) =>
  queryOptions({
    queryKey: [...ENGINE_KEY, 'fields', gnCoding, 'source'],
    queryFn: () =>
      request<NodeFields>({
        url: paths.arrayFields.path,
        method: paths.arrayFields.method,
        data: { gnCoding },
        silent: true,
      }),
    staleTime: 60_000,
    retry: false,
  });

export const dictionaryCodesQuery = queryOptions({
  queryKey: [...ENGINE_KEY, 'dictionaryCodes'],
  queryFn: () => request<DictionaryCode[]>({ url: paths.dicCodes.path, method: paths.dicCodes.method }),
  staleTime: 5 * 60_000,
});

export const saveNodeFields = (body: {
  gnCoding: string;
  fields: FieldDef[];
  version: number;
  uniqueKeys?: UniqueKey[];
}) => request<NodeFields>({ url: paths.saveFields.path, method: paths.saveFields.method, data: body, silent: true });
