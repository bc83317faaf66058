import { Msg } from '@ks/contracts';

/** 1: warning icon; 2: info icon (spec screen 22). */
export type PromptType = 1 | 2;

export interface PromptOptions {
  message?: string;
  type?: PromptType;
  onOk?: () => void;
}

export interface PromptItem {
  id: number;
  message: string;
  type: PromptType;
  onOk?: () => void;
}

type Listener = () => void;

let queue: readonly PromptItem[] = [];
let nextId = 1;
const listeners = new Set<Listener>();

function emit(): void {
  for (const l of listeners) l();
}

/**
 * Shows the global prompt dialog (title 提示, one button 确 定). Callable from anywhere, React or not; prompts
 * that arrive while one is open wait in a queue and show one after another.
 */
export function prompt(options: PromptOptions = {}): void {
  queue = [
    ...queue,
    { id: nextId++, message: options.message || Msg.PROMPT_DEFAULT, type: options.type ?? 2, onOk: options.onOk },
  ];
  emit();
}

/** Confirms the prompt with this id if it is the one showing; a repeated confirmation is ignored. */
export function confirmPrompt(id: number): void {
  const head = queue[0];
  if (!head || head.id !== id) return;
  queue = queue.slice(1);
  emit();
  head.onOk?.();
}

export function currentPrompt(): PromptItem | null {
  return queue[0] ?? null;
}

export function subscribePrompt(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Empties the queue without calling any onOk (tests). */
export function resetPrompts(): void {
  queue = [];
  emit();
}
