import { useState } from "react";
import { cn } from "@/lib/client/cn.ts";

export interface PlayerAvatarProps {
  /** The player's (or team's) name: its first letter is the fallback. */
  name: string;
  /** Team crest, or the player's picture; the initial shows when missing or broken. */
  src?: string | null;
  size?: "sm" | "md" | "lg";
  className?: string;
}

const SIZES = { sm: "h-8 w-8 text-xs", md: "h-10 w-10 text-sm", lg: "h-12 w-12 text-base" };

/** A round crest or picture with the first letter of the name as fallback. */
export function PlayerAvatar({ name, src, size = "md", className }: PlayerAvatarProps) {
  const [broken, setBroken] = useState(false);
  const box = cn(
    "avatar",
    SIZES[size],
    className,
  );
  if (src && !broken) {
    return (
      <span className={cn(box, "border border-border bg-white")}>
        <img
          src={src}
          alt=""
          loading="lazy"
          decoding="async"
          className="avatar-img"
          onError={() => setBroken(true)}
        />
      </span>
    );
  }
  return (
    <span className={cn(box, "bg-primary/10 font-bold text-primary")} aria-hidden="true">
      {(name.trim()[0] ?? "?").toUpperCase()}
    </span>
  );
}
