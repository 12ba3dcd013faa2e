import type { InputHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";

export type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "className"> & {
  className?: string;
};

/** Text-like input; set `aria-invalid` to show the error state. */
export function Input({ className, type, ...rest }: InputProps) {
  return (
    <input
      type={type ?? "text"}
      className={cn(
        "flex h-10 w-full rounded-md border border-border bg-background px-3 py-2 text-sm",
        "placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2",
        "focus-visible:ring-ring focus-visible:ring-offset-1 disabled:cursor-not-allowed",
        "disabled:opacity-50 aria-[invalid=true]:border-destructive",
        className,
      )}
      {...rest}
    />
  );
}
