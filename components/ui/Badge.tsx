import type { HTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";
import type { BadgeVariant } from "@/lib/client/badge.ts";

export type { BadgeVariant };

const VARIANTS: Record<BadgeVariant, string> = {
  default: "border-transparent bg-primary text-primary-foreground",
  secondary: "border-transparent bg-secondary text-secondary-foreground",
  outline: "border-border text-foreground",
  destructive: "border-transparent bg-destructive text-destructive-foreground",
  success: "border-transparent bg-success text-white",
  live: "border-transparent bg-destructive text-destructive-foreground uppercase tracking-wide",
};

export type BadgeProps = Omit<HTMLAttributes<HTMLSpanElement>, "className"> & {
  variant?: BadgeVariant;
  className?: string;
};

/** A small pill label; the `live` variant carries a pulsing dot. */
export function Badge({ variant = "default", className, children, ...rest }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold",
        VARIANTS[variant],
        className,
      )}
      {...rest}
    >
      {variant === "live" && (
        <span className="h-1.5 w-1.5 rounded-full bg-white animate-pulse" aria-hidden="true" />
      )}
      {children}
    </span>
  );
}
