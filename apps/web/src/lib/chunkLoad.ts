import { CHUNK_LOAD_TIMEOUT_MS, Msg } from '@ks/contracts';
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

/** A page's code could not be loaded (network failure, a release replaced the files, or 120 s passed). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
  override readonly cause?: unknown;

  constructor(message: string = Msg.CHUNK_LOAD_FAILED, cause?: unknown) {
    super(message);
    this.cause = cause;
  }
}

const CHUNK_MESSAGE =
  /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|Loading chunk [\w-]+ failed/i;

export function isChunkLoadError(err: unknown): boolean {
  if (err instanceof ChunkLoadError) return true;
  if (err instanceof Error) return err.name === 'ChunkLoadError' || CHUNK_MESSAGE.test(err.message);
  return false;
}

/** Resolves with the module or rejects with ChunkLoadError on failure or after `timeoutMs` (spec §4: 120 s). */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError()), timeoutMs);
    load().then(
      (mod) => {
        clearTimeout(timer);
        resolve(mod);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof ChunkLoadError ? err : new ChunkLoadError(Msg.CHUNK_LOAD_FAILED, err));
      },
    );
  });
}

export type LazyPage<P extends object> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts loading the page's code (once); resolves when it is there. */
  preload(): Promise<void>;
};

/**
 * React.lazy for a page module with a default export, with the chunk timeout, and `preload()`. A page whose code
 * is already loaded renders at once, without suspending: the first render of a preloaded page shows no spinner,
 * so React's minimum fallback time never delays it.
 */
export function lazyPage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): LazyPage<P> {
  let loaded: { default: ComponentType<P> } | null = null;
  let pending: Promise<{ default: ComponentType<P> }> | null = null;
  const ensure = () => {
    pending ??= loadChunk(load, timeoutMs).then(
      (mod) => {
        loaded = mod;
        return mod;
      },
      (err: unknown) => {
        pending = null;
        throw err;
      },
    );
    return pending;
  };
  const component = lazy(() => {
    const mod = loaded;
    if (mod) {
      // a thenable that settles synchronously: React.lazy then resolves without suspending
      // biome-ignore lint/suspicious/noThenProperty: a thenable is exactly what React.lazy expects here
      return { then: (resolve: (m: typeof mod) => void) => resolve(mod) } as unknown as Promise<typeof mod>;
    }
    return ensure();
  }) as LazyPage<P>;
  component.preload = () => ensure().then(() => undefined);
  return component;
}

// A small store: whether a chunk failed to load, and whether a page already shows that failure inline.
type Listener = () => void;
let failed = false;
const inlineClaims = new Set<object>();
const listeners = new Set<Listener>();
const emit = () => {
  for (const l of listeners) l();
};

export function reportChunkLoadError(): void {
  if (failed) return;
  failed = true;
  emit();
}

/** The route error page calls this while it shows a chunk failure, so the global dialog stays hidden. */
export function claimChunkLoadPrompt(): () => void {
  const claim = {};
  inlineClaims.add(claim);
  emit();
  return () => {
    if (inlineClaims.delete(claim)) emit();
  };
}

/** true when the global reload dialog should show. */
export function chunkLoadPromptVisible(): boolean {
  return failed && inlineClaims.size === 0;
}

export function subscribeChunkLoad(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function resetChunkLoadState(): void {
  failed = false;
  inlineClaims.clear();
  emit();
}

/**
 * Vite fires `vite:preloadError` when a dynamic import or one of its preloaded dependencies fails (typically
 * after a release replaced the hashed files). The error still reaches the importer; this makes sure the visitor
 * is offered a reload even when the importer is not a route.
 */
export function installPreloadErrorHandler(target: Window = window): () => void {
  const onPreloadError = () => reportChunkLoadError();
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
