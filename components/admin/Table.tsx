import type { ComponentChildren, JSX } from "preact";
import { cn } from "../../lib/ui/cn.ts";

/**
 * A scrollable admin table in the style of shadcn/ui; `caption` names it for screen readers.
 * `fixed` keeps the column widths given on the head cells (tables that must line up);
 * `tableClass` styles the table itself (e.g. `max-sm:block` for a card layout on phones).
 * `relative` keeps absolutely placed children (sr-only texts) inside the scroll box.
 */
export function Table(
  props: {
    caption?: string;
    children: ComponentChildren;
    class?: string;
    tableClass?: string;
    fixed?: boolean;
  },
) {
  return (
    <div
      class={cn(
        "relative w-full overflow-x-auto rounded-lg border border-border bg-card",
        props.class,
      )}
    >
      <table
        class={cn(
          "w-full caption-bottom text-sm",
          props.fixed && "table-fixed min-w-[64rem]",
          props.tableClass,
        )}
      >
        {props.caption && <caption class="sr-only">{props.caption}</caption>}
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
  { children, class: className }: { children: ComponentChildren; class?: string },
) {
  return <thead class={cn("border-b border-border bg-muted/50", className)}>{children}</thead>;
}

export function Th(
  { children, class: className, ...rest }: JSX.HTMLAttributes<HTMLTableCellElement>,
) {
  return (
    <th
      scope="col"
      class={cn(
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
  { children, class: className, ...rest }: JSX.HTMLAttributes<HTMLTableRowElement>,
) {
  return (
    <tr
      class={cn(
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
  { children, class: className, ...rest }: JSX.HTMLAttributes<HTMLTableCellElement>,
) {
  return (
    <td class={cn("px-3 py-2.5 align-middle", className as string)} {...rest}>
      {children}
    </td>
  );
}
