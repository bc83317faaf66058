type Listener = () => void;
export type PasswordChangeReason = 'reset' | 'expired';

/**
 * Whether the signed-in account must change its password now (an administrator reset it: the server allows nothing
 * else, answering 403 with code 10020). The change-password dialog in the antd shell follows this store.
 */
let required = false;
/** the owner asked for it (user menu 修改密码): the dialog may be cancelled */
let voluntary = false;
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
  // a change the server requires is no longer one the owner may cancel
  if (required && !voluntary) return;
  required = true;
  voluntary = false;
  reason = why;
  emit();
}

/** The owner asks to change the password (user menu 修改密码): the same dialog, which they may cancel. */
export function offerPasswordChange(): void {
  if (required) return;
  required = true;
  voluntary = true;
  emit();
}

/** 取消 of a change the owner asked for (a required one cannot be cancelled). */
export function cancelPasswordChange(): void {
  if (!required || !voluntary) return;
  required = false;
  voluntary = false;
  onDone = null;
  emit();
}

export const isPasswordChangeVoluntary = () => voluntary;

/** The change is done (or the session ended): close the dialog and run what was waiting for it. */
export function passwordChanged(): void {
  const next = onDone;
  onDone = null;
  if (!required) return;
  required = false;
  voluntary = false;
  emit();
  next?.();
}

/** Forget the request without running what waited (sign-out). */
export function dropPasswordChange(): void {
  onDone = null;
  if (!required) return;
  required = false;
  voluntary = false;
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
