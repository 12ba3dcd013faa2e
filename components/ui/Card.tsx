import type { HTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";

type DivProps = Omit<HTMLAttributes<HTMLDivElement>, "className"> & { className?: string };
type HeadingProps = Omit<HTMLAttributes<HTMLHeadingElement>, "className"> & { className?: string };
type ParagraphProps = Omit<HTMLAttributes<HTMLParagraphElement>, "className"> & {
  className?: string;
};

/** A bordered surface grouping related content. */
export function Card({ className, ...rest }: DivProps) {
  return (
    <div
      className={cn(
        "rounded-xl border border-border bg-card text-card-foreground shadow-sm",
        className,
      )}
      {...rest}
    />
  );
}

export function CardHeader({ className, ...rest }: DivProps) {
  return <div className={cn("flex flex-col gap-1.5 p-6", className)} {...rest} />;
}

export function CardTitle({ className, ...rest }: HeadingProps) {
  return (
    <h3 className={cn("text-lg font-semibold leading-tight tracking-tight", className)} {...rest} />
  );
}

export function CardDescription({ className, ...rest }: ParagraphProps) {
  return <p className={cn("text-sm text-muted-foreground", className)} {...rest} />;
}

export function CardContent({ className, ...rest }: DivProps) {
  return <div className={cn("p-6 pt-0", className)} {...rest} />;
}

export function CardFooter({ className, ...rest }: DivProps) {
  return <div className={cn("flex items-center p-6 pt-0", className)} {...rest} />;
}
