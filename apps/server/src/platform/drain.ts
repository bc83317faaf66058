/**
 * The loop of a background worker that takes its work from the database (cost detections, outbox pushes, registration
 * syncs): `runOne` claims and does one item and answers whether there was one; the drain runs it until there is none,
 * one item at a time in this process. `kick` asks for a run now (a new item was queued): during a run it makes the run
 * look once more before it ends, so nothing queued meanwhile waits for the next poll. The poll (every `pollMs`) picks
 * up what other processes queued and what a dead process left behind. `stop` ends the loop after the current item.
 */
export interface Drain {
  kick(): Promise<void>;
  start(): void;
  /** the current run, settled (tests) */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

export function createDrain(
  name: string,
  runOne: () => Promise<boolean>,
  opts: { pollMs?: number; enabled?: boolean } = {},
): Drain {
  const enabled = opts.enabled ?? true;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;

  const kick = (): Promise<void> => {
    if (stopped || !enabled) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          while (!stopped && (await runOne())) {
            // the next one
          }
        } catch (e) {
          if (!stopped) process.emitWarning(`${name}: ${(e as Error).message}`);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    kick,
    start() {
      if (!enabled || stopped) return;
      timer = setInterval(() => void kick(), opts.pollMs ?? 5_000);
      timer.unref();
      void kick();
    },
    settle: () => running ?? Promise.resolve(),
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running;
    },
  };
}

/**
 * Keeps a claimed item's lease while it is worked on: `renew` every `everyMs` (errors ignored: the next one tries
 * again, and a lost lease only lets another process take the item over). Answers the function that stops it.
 */
export function keepLease(renew: () => Promise<unknown>, everyMs: number): () => void {
  const t = setInterval(() => void renew().catch(() => undefined), Math.max(100, everyMs));
  t.unref();
  return () => clearInterval(t);
}
