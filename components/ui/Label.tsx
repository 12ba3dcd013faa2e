import type { LabelHTMLAttributes } from "preact";
import { cn } from "../../lib/ui/cn.ts";

export type LabelProps = Omit<LabelHTMLAttributes<HTMLLabelElement>, "class"> & {
  class?: string;
};

/** A form label (pass `for` with the control's id). */
export function Label({ class: className, ...rest }: LabelProps) {
  return <label class={cn("text-sm font-medium leading-none", className)} {...rest} />;
}
