import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/lib/client/cn.ts";

/**
 * A scrollable admin table in the style of shadcn/ui; `caption` names it for screen readers.
 * `fixed` keeps the column widths given on the head cells (tables that must line up);
 * `tableClass` styles the table itself (e.g. `max-sm:block` for a card layout on phones).
 * `relative` keeps absolutely placed children (sr-only texts) inside the scroll box.
 */
export function Table(
  props: {
    caption?: string;
    children: ReactNode;
    className?: string;
    tableClass?: string;
    fixed?: boolean;
    /** The table may scroll sideways (wide, many columns): its box takes keyboard focus. */
    scrolls?: boolean;
  },
) {
  return (
    <div
      tabIndex={props.scrolls ? 0 : undefined}
      role={props.scrolls ? "region" : undefined}
      aria-label={props.scrolls ? props.caption : undefined}
      className={cn(
        "relative w-full overflow-x-auto rounded-lg border border-border bg-card",
        props.className,
      )}
    >
      <table
        className={cn(
          "w-full caption-bottom text-sm",
          props.fixed && "table-fixed min-w-[64rem]",
          props.tableClass,
        )}
      >
        {props.caption && <caption className="sr-only">{props.caption}</caption>}
        {props.children}
      </table>
    </div>
  );
}

/**
 * Phones (< 640 px), where a table row reads as a card: a cell shows its column name
 * (its `data-label`) above its value. No effect on wider screens.
 */
export const CARD_LABEL = "max-sm:before:block max-sm:before:content-[attr(data-label)] " +
  "max-sm:before:font-sans max-sm:before:text-xs max-sm:before:font-normal " +
  "max-sm:before:text-muted-foreground";

export function THead(
  { children, className }: { children: ReactNode; className?: string },
) {
  return <thead className={cn("border-b border-border bg-muted/50", className)}>{children}</thead>;
}

export function Th(
  { children, className, ...rest }: HTMLAttributes<HTMLTableCellElement>,
) {
  return (
    <th
      scope="col"
      className={cn(
        "h-10 whitespace-nowrap px-3 text-left align-middle text-xs font-semibold uppercase",
        "tracking-wide text-muted-foreground",
        className as string,
      )}
      {...rest}
    >
      {children}
    </th>
  );
}

export function Tr(
  { children, className, ...rest }: HTMLAttributes<HTMLTableRowElement>,
) {
  return (
    <tr
      className={cn(
        "border-b border-border last:border-0 transition-colors hover:bg-muted/40",
        className as string,
      )}
      {...rest}
    >
      {children}
    </tr>
  );
}

export function Td(
  { children, className, ...rest }: HTMLAttributes<HTMLTableCellElement>,
) {
  return (
    <td className={cn("px-3 py-2.5 align-middle", className as string)} {...rest}>
      {children}
    </td>
  );
}
