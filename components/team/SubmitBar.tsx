import { useEffect, useRef } from "react";
import { formatSalary } from "@/lib/domain/format.ts";
import { TEAM_SIZE } from "@/lib/domain/team_rules.ts";
import { Button } from "@/components/ui/Button.tsx";

export interface SubmitBarProps {
  count: number;
  /** Cap minus team salary, or null without a cap. */
  remaining: number | null;
  /** The competition's currency: the budget is shown in it. */
  currency: string;
  closed: boolean;
  onSubmit: () => void;
  /** The button's words before the count (default "Submit Team"). */
  label?: string;
  /** A request is under way: the button waits. */
  busy?: boolean;
}

/** Lifts the toasts (islands/Toaster.tsx) above the fixed bar while the bar is on the page. */
function useToastOffset() {
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const root = document.documentElement.style;
    const el = bar.current;
    if (!el) return;
    const update = () => root.setProperty("--toast-offset", `${el.offsetHeight}px`);
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.removeProperty("--toast-offset");
    };
  }, []);
  return bar;
}

/** The fixed bottom bar: remaining budget and 'Submit Team (n/5)', enabled only at 5 picks. */
export function SubmitBar(
  { count, remaining, currency, closed, onSubmit, label = "Submit Team", busy = false }:
    SubmitBarProps,
) {
  const over = remaining !== null && remaining < 0;
  const bar = useToastOffset();
  return (
    <div
      ref={bar}
      id="submit-bar"
      tabIndex={-1}
      aria-label="Submit your team"
      role="region"
      className="fixed inset-x-0 bottom-0 z-30 focus:outline-none border-t border-border bg-background/95 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] backdrop-blur"
    >
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
        <div className="min-w-0" aria-live="polite">
          <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
            Remaining budget
          </p>
          <p className={over ? "font-bold text-destructive" : "font-bold"} data-remaining="">
            {remaining === null ? "No salary cap" : formatSalary(remaining, currency)}
          </p>
        </div>
        <Button
          size="lg"
          className="px-5 sm:px-8"
          disabled={count !== TEAM_SIZE || closed || busy}
          aria-busy={busy || undefined}
          onClick={onSubmit}
          data-submit-team=""
        >
          {label} ({count}/{TEAM_SIZE})
        </Button>
      </div>
    </div>
  );
}
