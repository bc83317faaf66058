import { z } from 'zod';

/**
 * The one zod of the contracts. In a browser zod must not probe whether it may compile parsers with `Function('')`:
 * the platform's content security policy forbids eval, and the probe alone is reported as a violation on every page
 * that loads a schema. Servers keep zod's compiled parsers.
 */
if (typeof (globalThis as { document?: unknown }).document !== 'undefined') z.config({ jitless: true });

export { z };
