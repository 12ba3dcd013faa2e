/** Joins class names, skipping falsy parts: `cn("a", cond && "b", props.class)`. */
export function cn(...parts: (string | false | null | undefined)[]): string {
  return parts.filter(Boolean).join(" ");
}
