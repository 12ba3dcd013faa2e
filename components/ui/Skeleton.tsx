import { cn } from "@/lib/client/cn.ts";

/** A pulsing placeholder block; size it with classes (`h-4 w-32`). */
export function Skeleton(props: { className?: string }) {
  return (
    <div
      aria-hidden="true"
      data-skeleton=""
      className={cn("animate-pulse rounded-md bg-muted", props.className)}
    />
  );
}
