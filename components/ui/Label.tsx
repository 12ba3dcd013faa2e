import type { LabelHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";

export type LabelProps = Omit<LabelHTMLAttributes<HTMLLabelElement>, "className"> & {
  className?: string;
};

/** A form label (pass `for` with the control's id). */
export function Label({ className, ...rest }: LabelProps) {
  return <label className={cn("text-sm font-medium leading-none", className)} {...rest} />;
}
