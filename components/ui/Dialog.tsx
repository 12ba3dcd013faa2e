import { type FocusEvent, type ReactNode, useId, useLayoutEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { cn } from "@/lib/client/cn.ts";

export interface DialogProps {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  /** Extra classes for the panel, e.g. a wider `max-w-3xl`. */
  className?: string;
}

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type=hidden])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) =>
    el.getClientRects().length > 0
  );
}

/** Keeps Tab and Shift+Tab inside `panel`. */
function trapTab(event: KeyboardEvent, panel: HTMLElement) {
  const items = focusableIn(panel);
  if (items.length === 0) {
    event.preventDefault();
    panel.focus();
    return;
  }
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement as HTMLElement | null;
  const inside = active !== null && panel.contains(active);
  if (event.shiftKey && (!inside || active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (!inside || active === last)) {
    event.preventDefault();
    first.focus();
  }
}

/** Open dialogs, oldest first: only the last one (the top-most) answers Escape and Tab. */
const openDialogs: symbol[] = [];

/**
 * While `panel` is the top-most open dialog, Escape closes it and Tab stays inside it, wherever
 * the focus is (also on <body>, after the focused element was removed, e.g. by a tab switch).
 */
function useDialogKeys(
  open: boolean,
  panelRef: { current: HTMLElement | null },
  onCloseRef: { current: () => void },
) {
  useLayoutEffect(() => {
    if (!open) return;
    const me = Symbol("dialog");
    openDialogs.push(me);
    const onKeyDown = (event: KeyboardEvent) => {
      const panel = panelRef.current;
      if (openDialogs[openDialogs.length - 1] !== me || !panel || event.defaultPrevented) return;
      if (event.key === "Escape" && !event.isComposing) {
        event.preventDefault();
        event.stopPropagation();
        onCloseRef.current();
      } else if (event.key === "Tab") {
        trapTab(event, panel);
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      openDialogs.splice(openDialogs.indexOf(me), 1);
    };
  }, [open]);
}

/** When the focused element inside the panel disappears, the focus goes back to the panel. */
function keepFocusInside(event: FocusEvent<HTMLElement>) {
  const panel = event.currentTarget;
  if (event.relatedTarget !== null) return;
  queueMicrotask(() => {
    const active = document.activeElement;
    if (panel.isConnected && (active === null || active === document.body)) panel.focus();
  });
}

/**
 * A modal dialog: labelled by its title, closed by Escape, the backdrop or the × button.
 * Focus moves into it on open, stays inside while it is open and returns to the opener.
 * It renders into <body> (a portal), so it covers the page wherever it is used.
 */
export function Dialog(props: DialogProps) {
  const { open, onClose, title, description, children, footer } = props;
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const titleId = useId();
  const descriptionId = useId();
  useDialogKeys(open, panelRef, onCloseRef);

  // A layout effect: its cleanup (focus back to the opener) runs in the same commit that
  // removes the dialog, so focus never lingers on <body>.
  useLayoutEffect(() => {
    if (!open) return;
    const opener = document.activeElement as HTMLElement | null;
    const panel = panelRef.current;
    if (panel) (focusableIn(panel).find((el) => !el.dataset.dialogClose) ?? panel).focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    return () => {
      document.body.style.overflow = overflow;
      if (opener && opener.isConnected) opener.focus();
    };
  }, [open]);

  if (!open) return null;

  const overlay = (
    <div className="fixed inset-0 z-50 flex items-center justify-center p-4">
      <div
        className="fixed inset-0 bg-black/60 backdrop-blur-sm"
        aria-hidden="true"
        data-dialog-backdrop=""
        onClick={() => onCloseRef.current()}
      />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        onBlur={keepFocusInside}
        className={cn(
          "relative z-10 flex max-h-[90vh] w-full max-w-lg flex-col gap-4 overflow-y-auto",
          "rounded-xl border border-border bg-background p-6 text-foreground shadow-2xl",
          "focus:outline-none",
          props.className,
        )}
      >
        <div className="flex flex-col gap-1.5 pr-8">
          <h2 id={titleId} className="text-lg font-semibold leading-tight tracking-tight">
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className="text-sm text-muted-foreground">
              {description}
            </p>
          )}
        </div>
        <div>{children}</div>
        {footer && (
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">{footer}</div>
        )}
        <button
          type="button"
          aria-label="Close"
          data-dialog-close="true"
          className={"absolute right-4 top-4 rounded-md p-1 text-muted-foreground opacity-70 " +
            "transition-opacity hover:opacity-100 focus-visible:outline-none " +
            "focus-visible:ring-2 focus-visible:ring-ring"}
          onClick={() => onCloseRef.current()}
        >
          <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
            <path
              d="M18 6 6 18M6 6l12 12"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
            />
          </svg>
        </button>
      </div>
    </div>
  );
  // A portal to <body>: an ancestor with a transform or backdrop filter (the sticky header)
  // would otherwise become the containing block of the fixed overlay.
  return typeof document === "undefined" ? overlay : createPortal(overlay, document.body);
}
