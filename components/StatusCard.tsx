import type { ReactNode } from "react";

export interface StatusCardProps {
  title: string;
  description?: string;
  /** The way out, usually one <Button>. */
  children?: ReactNode;
  /** Marks the card for tests and styling hooks, e.g. `data-invalid-checkout`. */
  [data: `data-${string}`]: string | undefined;
}

/**
 * The centred card of a page's not-found, invalid or loading state, so every such state reads
 * the same: heading, one line of help, one action.
 */
export function StatusCard({ title, description, children, ...data }: StatusCardProps) {
  return (
    <div
      className="mx-auto mt-10 max-w-md rounded-xl border border-border bg-card px-6 py-8 text-center shadow-sm sm:mt-16 sm:px-8"
      {...data}
    >
      <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="mt-2 text-sm text-muted-foreground">{description}</p>}
      {children && <div className="mt-6 flex justify-center">{children}</div>}
    </div>
  );
}
