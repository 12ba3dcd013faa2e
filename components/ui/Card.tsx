import type { HTMLAttributes } from "preact";
import { cn } from "../../lib/ui/cn.ts";

type DivProps = Omit<HTMLAttributes<HTMLDivElement>, "class"> & { class?: string };
type HeadingProps = Omit<HTMLAttributes<HTMLHeadingElement>, "class"> & { class?: string };
type ParagraphProps = Omit<HTMLAttributes<HTMLParagraphElement>, "class"> & { class?: string };

/** A bordered surface grouping related content. */
export function Card({ class: className, ...rest }: DivProps) {
  return (
    <div
      class={cn(
        "rounded-xl border border-border bg-card text-card-foreground shadow-sm",
        className,
      )}
      {...rest}
    />
  );
}

export function CardHeader({ class: className, ...rest }: DivProps) {
  return <div class={cn("flex flex-col gap-1.5 p-6", className)} {...rest} />;
}

export function CardTitle({ class: className, ...rest }: HeadingProps) {
  return (
    <h3 class={cn("text-lg font-semibold leading-tight tracking-tight", className)} {...rest} />
  );
}

export function CardDescription({ class: className, ...rest }: ParagraphProps) {
  return <p class={cn("text-sm text-muted-foreground", className)} {...rest} />;
}

export function CardContent({ class: className, ...rest }: DivProps) {
  return <div class={cn("p-6 pt-0", className)} {...rest} />;
}

export function CardFooter({ class: className, ...rest }: DivProps) {
  return <div class={cn("flex items-center p-6 pt-0", className)} {...rest} />;
}
