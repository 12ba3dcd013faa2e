import type { Position } from "@/lib/domain/types.ts";
import { POSITION_NAMES } from "@/lib/domain/format.ts";
import { cn } from "@/lib/client/cn.ts";

const COLORS: Record<Position, string> = {
  GK: "bg-amber-100 text-amber-900",
  DEF: "bg-sky-100 text-sky-900",
  MID: "bg-emerald-100 text-emerald-900",
  FWD: "bg-rose-100 text-rose-900",
};

/** A position code pill (GK, DEF, MID, FWD) with its full name for screen readers. */
export function PositionBadge(
  { position, className }: { position: Position; className?: string },
) {
  return (
    <abbr
      title={POSITION_NAMES[position]}
      className={cn(
        "position-badge",
        COLORS[position],
        className,
      )}
    >
      {position}
    </abbr>
  );
}
