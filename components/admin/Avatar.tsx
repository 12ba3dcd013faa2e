import { useState } from "react";
import { cn } from "@/lib/client/cn.ts";

/** A round image (player photo, team logo) falling back to the first letter of the name. */
export function Avatar(
  props: { src?: string | null; name: string; size?: "sm" | "md"; square?: boolean },
) {
  const [failed, setFailed] = useState(false);
  const size = props.size === "sm" ? "h-6 w-6 text-[10px]" : "h-8 w-8 text-xs";
  const shape = props.square ? "rounded-md" : "rounded-full";
  if (props.src && !failed) {
    return (
      <img
        src={props.src}
        alt=""
        loading="lazy"
        onError={() => setFailed(true)}
        className={cn(size, shape, "shrink-0 bg-muted object-contain")}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        size,
        shape,
        "inline-flex shrink-0 items-center justify-center bg-muted font-semibold text-muted-foreground",
      )}
    >
      {props.name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
