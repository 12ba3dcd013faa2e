import { useEffect, useState } from "react";
import { currentToast, dismissToast, subscribeToast, type ToastState } from "@/lib/client/toast.ts";
import { cn } from "@/lib/client/cn.ts";

let owner: symbol | null = null;

export interface ToasterProps {
  /**
   * Where toasts sit from 640 px: bottom right on the public pages, bottom left in the admin
   * portal, whose tables keep their row actions (edit, delete) in the right-hand column.
   */
  side?: "left" | "right";
}

/**
 * Renders the current toast in a polite live region: at the top on phones (clear of thumbs and
 * fixed bottom bars), at the bottom from 640 px on `side`, lifted by `--toast-offset` when a
 * page has a fixed bottom bar. Mounted once per page by `_app`; a second copy on the same page
 * stays empty, so toasts never show twice.
 */
export default function Toaster({ side = "right" }: ToasterProps) {
  const [item, setItem] = useState<ToastState | null>(null);
  const [active, setActive] = useState(false);

  useEffect(() => {
    if (owner) return;
    const me = Symbol("toaster");
    owner = me;
    setActive(true);
    setItem(currentToast());
    const unsubscribe = subscribeToast(setItem);
    return () => {
      unsubscribe();
      if (owner === me) owner = null;
    };
  }, []);

  if (!active) return null;
  const destructive = item?.variant === "destructive";

  return (
    <div
      aria-live="polite"
      aria-atomic="true"
      role="status"
      className={cn(
        "pointer-events-none fixed inset-x-0 top-0 z-[100] flex justify-center p-4",
        "sm:inset-x-auto sm:top-auto sm:bottom-[var(--toast-offset,0px)]",
        side === "left" ? "sm:left-0 sm:justify-start" : "sm:right-0 sm:justify-end",
      )}
      data-toaster={side}
    >
      {item && (
        <div
          key={item.id}
          data-toast={item.variant}
          className={cn(
            "pointer-events-auto relative flex w-full max-w-sm items-start gap-3 rounded-lg border",
            "p-4 pr-10 shadow-lg",
            destructive
              ? "border-destructive bg-destructive text-destructive-foreground"
              : "border-border bg-background text-foreground",
          )}
        >
          <div className="grid gap-1">
            <p className="text-sm font-semibold">{item.title}</p>
            {item.description && <p className="text-sm opacity-90">{item.description}</p>}
          </div>
          <button
            type="button"
            aria-label="Close notification"
            onClick={() => dismissToast(item.id)}
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <path d="M18 6 6 18M6 6l12 12" stroke="currentColor" strokeWidth="2" />
            </svg>
          </button>
        </div>
      )}
    </div>
  );
}
