type Listener = () => void;
export type PasswordChangeReason = 'reset' | 'expired';

/**
 * Whether the signed-in account must change its password now (an administrator reset it: the server allows nothing
 * else, answering 403 with code 10020). The change-password dialog in the antd shell follows this store.
 */
let required = false;
/** why: an administrator reset the password, or it is older than the platform allows */
let reason: PasswordChangeReason = 'reset';
let onDone: (() => void) | null = null;
const listeners = new Set<Listener>();

const emit = () => {
  for (const l of listeners) l();
};

/** Ask for the change; `then` runs once it is done (e.g. go on to the home page after signing in). */
export function requirePasswordChange(then?: () => void, why: PasswordChangeReason = 'reset'): void {
  if (then) onDone = then;
  if (required) return;
  required = true;
  reason = why;
  emit();
}

/** The change is done (or the session ended): close the dialog and run what was waiting for it. */
export function passwordChanged(): void {
  const next = onDone;
  onDone = null;
  if (!required) return;
  required = false;
  emit();
  next?.();
}

/** Forget the request without running what waited (sign-out). */
export function dropPasswordChange(): void {
  onDone = null;
  if (!required) return;
  required = false;
  emit();
}

export const isPasswordChangeRequired = () => required;
export const passwordChangeReason = () => reason;

export function subscribePasswordChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
