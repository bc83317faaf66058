/**
 * What the process does with a promise that rejects with nobody waiting for it: Node's default ends the process — one
 * request could stop the server for everyone. Such a rejection is a bug (the lint rule noFloatingPromises keeps them
 * out), so it is logged loudly, with the reason and stack, and the process keeps serving. An uncaught exception still
 * ends the process (its state may be broken); the supervisor restarts it.
 */
export interface GuardLogger {
  error(obj: Record<string, unknown>, msg: string): void;
}

let installed: ((reason: unknown) => void) | null = null;
let logger: GuardLogger = {
  error: (obj, msg) => console.error(`${msg}:`, obj.err),
};

export function installProcessGuards(log?: GuardLogger): void {
  if (log) logger = log;
  if (installed) return;
  installed = (reason: unknown) => {
    logger.error(
      { err: reason instanceof Error ? reason : new Error(String(reason)) },
      'UNHANDLED PROMISE REJECTION (a bug: a promise failed with nobody waiting for it; the server keeps running)',
    );
  };
  process.on('unhandledRejection', installed);
}
