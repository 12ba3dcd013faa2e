/**
 * The toast store shared by every island of a page. Only one toast is shown at a time:
 * a new toast replaces the current one. `<Toaster/>` (islands/Toaster.tsx) renders it.
 */

export type ToastVariant = "default" | "destructive";

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before the toast hides itself; 5000 by default. */
  duration?: number;
}

export interface ToastState {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  duration: number;
}

type Listener = (toast: ToastState | null) => void;

const DEFAULT_DURATION_MS = 5000;
const listeners = new Set<Listener>();
let current: ToastState | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;
let nextId = 1;

function publish(next: ToastState | null) {
  current = next;
  for (const listener of listeners) listener(current);
}

function clearTimer() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
}

/**
 * Shows a toast, replacing any toast on screen.
 * @example toast({ title: "Team Complete", description: "...", variant: "destructive" })
 */
export function toast(options: ToastOptions): { id: number; dismiss: () => void } {
  clearTimer();
  const state: ToastState = {
    id: nextId++,
    title: options.title,
    description: options.description,
    variant: options.variant ?? "default",
    duration: options.duration ?? DEFAULT_DURATION_MS,
  };
  publish(state);
  if (Number.isFinite(state.duration) && state.duration > 0) {
    timer = setTimeout(() => dismissToast(state.id), state.duration);
  }
  return { id: state.id, dismiss: () => dismissToast(state.id) };
}

/** Shows the destructive 'Error' toast with `description`. */
export function toastError(description: string): void {
  toast({ title: "Error", description, variant: "destructive" });
}

/** Hides the current toast (or only toast `id`, if it is still the one shown). */
export function dismissToast(id?: number): void {
  if (!current || (id !== undefined && current.id !== id)) return;
  clearTimer();
  publish(null);
}

/** The toast on screen, or null. */
export function currentToast(): ToastState | null {
  return current;
}

/** Calls `listener` on every change; returns the unsubscribe function. */
export function subscribeToast(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
