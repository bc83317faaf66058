import type { ApiBody, LibraryItem, LibraryKind, LibraryPage, LibrarySeries } from '@ks/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { call } from './call';

/**
 * 资料库 (issue 19): product-centre downloads and standard files; shapes in packages/contracts/src/library.ts. Reading
 * for everyone signed in; changes for administrators.
 */

export type { LibraryItem, LibraryKind, LibraryPage, LibrarySeries };

export const LIBRARY_KEY = ['library'] as const;

export interface LibraryFilters {
  kinds: LibraryKind[];
  series?: string;
  keyword?: string;
  pageNum: number;
  pageSize: number;
}

/** A page of items of some kinds (searched by keyword). */
export const libraryListQuery = (f: LibraryFilters) =>
  queryOptions({
    queryKey: [...LIBRARY_KEY, 'list', f] as const,
    queryFn: () =>
      call('libraryList', {
        params: {
          kinds: f.kinds.join(','),
          ...(f.series ? { series: f.series } : {}),
          ...(f.keyword ? { keyword: f.keyword } : {}),
          pageNum: f.pageNum,
          pageSize: f.pageSize,
        },
      }),
    placeholderData: keepPreviousData,
  });

/** The series of a kind, with their number of versions and current version. */
export const librarySeriesQuery = (kind: LibraryKind) =>
  queryOptions({
    queryKey: [...LIBRARY_KEY, 'series', kind],
    queryFn: () => call('librarySeries', { params: { kind } }),
  });

/** The current version of a series (null: none yet). */
export const libraryCurrentQuery = (kind: LibraryKind, series: string) =>
  queryOptions({
    queryKey: [...LIBRARY_KEY, 'current', kind, series],
    queryFn: () => call('libraryCurrent', { params: { kind, series }, silent: true }),
  });

export const addLibraryItem = (data: ApiBody<'libraryAdd'>) => call('libraryAdd', { data, silent: true });
export const updateLibraryItem = (data: ApiBody<'libraryUpdate'>) => call('libraryUpdate', { data, silent: true });
export const setLibraryCurrent = (id: string) => call('librarySetCurrent', { data: { id } });
export const deleteLibraryItem = (id: string) => call('libraryDelete', { data: { id } });
