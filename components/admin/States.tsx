import type { ReactNode } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";

/** Placeholder rows while a table loads. */
export function TableSkeleton({ rows = 5, label = "Loading" }: { rows?: number; label?: string }) {
  return (
    <div className="flex flex-col gap-2" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => <Skeleton key={i} className="h-10 w-full" />)}
    </div>
  );
}

/** A quiet box for an empty list, with an optional call to action. */
export function EmptyState(
  props: { title: ReactNode; description?: ReactNode; action?: ReactNode },
) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-border px-6 py-12 text-center">
      <p className="font-medium">{props.title}</p>
      {props.description && <p className="text-sm text-muted-foreground">{props.description}</p>}
      {props.action && <div className="mt-2">{props.action}</div>}
    </div>
  );
}

/** A destructive box for a failed load, with an optional retry button. */
export function ErrorState(props: { message: string; action?: ReactNode }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-lg border border-destructive/50 bg-destructive/5 px-6 py-10 text-center text-destructive"
    >
      <p className="font-medium">{props.message}</p>
      {props.action}
    </div>
  );
}

/** A missing competition or match: a quiet box with the way back. */
export function NotFoundState(
  props: { title: string; description?: string; href: string; label: string },
) {
  return (
    <EmptyState
      title={<span role="heading" aria-level={2}>{props.title}</span>}
      description={props.description}
      action={<Button href={props.href}>{props.label}</Button>}
    />
  );
}
