import type { AnchorHTMLAttributes, ButtonHTMLAttributes } from "react";
import { cn } from "@/lib/client/cn.ts";

export type ButtonVariant = "default" | "secondary" | "outline" | "ghost" | "destructive";
export type ButtonSize = "sm" | "md" | "lg" | "icon" | "icon-sm";

const BASE =
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium " +
  "transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring " +
  "focus-visible:ring-offset-2 disabled:pointer-events-none disabled:opacity-50 select-none";

const VARIANTS: Record<ButtonVariant, string> = {
  default: "bg-primary text-primary-foreground shadow-sm hover:bg-primary-hover",
  secondary: "bg-secondary text-secondary-foreground hover:bg-secondary/80",
  outline:
    "border border-border bg-background shadow-sm hover:bg-accent hover:text-accent-foreground",
  ghost: "hover:bg-accent hover:text-accent-foreground",
  destructive: "bg-destructive text-destructive-foreground shadow-sm hover:bg-destructive/90",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-xs",
  md: "h-10 px-4 py-2",
  lg: "h-11 px-8 text-base",
  icon: "h-10 w-10",
  /** A compact icon button for dense rows (tables, lists). */
  "icon-sm": "h-8 w-8",
};

/** Class names of a button, for elements that must look like one. */
export function buttonClass(
  opts: { variant?: ButtonVariant; size?: ButtonSize; className?: string } = {},
): string {
  return cn(BASE, VARIANTS[opts.variant ?? "default"], SIZES[opts.size ?? "md"], opts.className);
}

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "size" | "className"> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  /** Renders a link styled as a button instead of a <button>. */
  href?: string;
};

/** A button in the style of shadcn/ui; with `href` it renders an <a>. */
export function Button({ variant, size, className, href, type, ...rest }: ButtonProps) {
  const classes = buttonClass({ variant, size, className });
  if (href !== undefined) {
    const anchorProps = rest as AnchorHTMLAttributes<HTMLAnchorElement>;
    return <a href={href} className={classes} {...anchorProps} />;
  }
  return <button type={type ?? "button"} className={classes} {...rest} />;
}
