import type { Db } from '../../db/client';
import type { FileCaller } from './caller';

/**
 * Who may read the files a domain module binds to its own records (credit evidence, …): records that are not engine
 * records, so the record policy cannot answer. A module registers, for the node code its files carry, whether a
 * caller may read the record `recordId` (its side, its reviewers …); the files module asks it for anyone who is not
 * the file's owner, their enterprise or an administrator. A reader that throws counts as "no".
 */
export type FileReader = (db: Db, c: FileCaller, recordId: string) => Promise<boolean>;

const readers = new Map<string, FileReader>();

/** Registers the reader of `gnCoding`'s files (again: replaces it); answers the function that removes it. */
export function registerFileReader(gnCoding: string, reader: FileReader): () => void {
  const key = gnCoding.toLowerCase();
  readers.set(key, reader);
  return () => {
    if (readers.get(key) === reader) readers.delete(key);
  };
}

/** The reader registered for a node code, if any. */
export const fileReaderOf = (gnCoding: string): FileReader | undefined => readers.get(gnCoding.toLowerCase());
