type Listener = () => void;

let message: string | null = null;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l();
}

/**
 * The login prompt: on the login page (and the root, which is the login page) request errors are shown inline
 * above the form instead of in a dialog (spec §8). The last message is kept, so a page that mounts after the
 * error still shows it.
 */
export function showLoginPrompt(text: string): void {
  message = text;
  emit();
}

export function clearLoginPrompt(): void {
  if (message === null) return;
  message = null;
  emit();
}

export function getLoginPrompt(): string | null {
  return message;
}

export function subscribeLoginPrompt(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
