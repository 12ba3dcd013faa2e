import { cn } from "../../lib/ui/cn.ts";

/** A pulsing placeholder block; size it with classes (`h-4 w-32`). */
export function Skeleton(props: { class?: string }) {
  return (
    <div
      aria-hidden="true"
      data-skeleton=""
      class={cn("animate-pulse rounded-md bg-muted", props.class)}
    />
  );
}
