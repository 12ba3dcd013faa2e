import type { SelectHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";

export type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, "className"> & {
  className?: string;
};

/** A native <select> styled like the other inputs; children are <option>s. */
export function Select({ className, ...rest }: SelectProps) {
  return (
    <div className={cn("relative", className)}>
      <select
        className={cn(
          "h-10 w-full appearance-none rounded-md border border-border bg-background",
          "py-2 pl-3 pr-9 text-sm focus-visible:outline-none focus-visible:ring-2",
          "focus-visible:ring-ring focus-visible:ring-offset-1 disabled:cursor-not-allowed",
          "disabled:opacity-50",
        )}
        {...rest}
      />
      <svg
        viewBox="0 0 24 24"
        width="16"
        height="16"
        aria-hidden="true"
        className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-muted-foreground"
      >
        <path d="m6 9 6 6 6-6" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
    </div>
  );
}
