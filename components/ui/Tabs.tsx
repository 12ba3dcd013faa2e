import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react";
import { cn } from "@/lib/client/cn.ts";

export interface TabItem {
  value: string;
  label: ReactNode;
  content: ReactNode;
  disabled?: boolean;
}

export interface TabsProps {
  items: TabItem[];
  /** Controlled selection; leave unset to let the tabs keep their own state. */
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  /** Accessible name of the tab list. */
  label?: string;
  className?: string;
  /**
   * The address that shows a tab's panel from the server: each tab is then a link too, so a page
   * without JavaScript can open every panel (with it, a click only switches the panel).
   */
  hrefOf?: (value: string) => string;
}

/**
 * Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs,
 * only the selected tab is in the Tab order, and each panel is labelled by its tab.
 */
export function Tabs(props: TabsProps) {
  const { items, onValueChange } = props;
  const [own, setOwn] = useState(props.defaultValue ?? items[0]?.value ?? "");
  const selected = props.value ?? own;
  const baseId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  const enabled = items.filter((item) => !item.disabled);

  const select = (value: string) => {
    setOwn(value);
    onValueChange?.(value);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = enabled.findIndex((item) => item.value === selected);
    const moves: Record<string, number> = {
      ArrowRight: (index + 1) % enabled.length,
      ArrowLeft: (index - 1 + enabled.length) % enabled.length,
      Home: 0,
      End: enabled.length - 1,
    };
    const next = moves[event.key];
    if (next === undefined || enabled.length === 0) return;
    event.preventDefault();
    const value = enabled[next].value;
    select(value);
    listRef.current?.querySelector<HTMLElement>(`[data-tab-value="${CSS.escape(value)}"]`)
      ?.focus();
  };

  return (
    <div className={props.className}>
      <div
        ref={listRef}
        role="tablist"
        aria-label={props.label}
        onKeyDown={onKeyDown}
        className="inline-flex h-10 max-w-full items-center gap-1 overflow-x-auto rounded-md bg-muted p-1 text-muted-foreground"
      >
        {items.map((item) => {
          const active = item.value === selected;
          const tab = {
            role: "tab" as const,
            id: `${baseId}-tab-${item.value}`,
            "aria-selected": active,
            "aria-controls": `${baseId}-panel-${item.value}`,
            tabIndex: active ? 0 : -1,
            "data-tab-value": item.value,
            className: cn(
              "inline-flex items-center justify-center whitespace-nowrap rounded-sm px-2 py-1.5 sm:px-3",
              "text-sm font-medium transition-all focus-visible:outline-none",
              "focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50",
              active ? "bg-background text-foreground shadow-sm" : "hover:text-foreground",
            ),
          };
          if (props.hrefOf && !item.disabled) {
            return (
              <a
                key={item.value}
                {...tab}
                href={props.hrefOf(item.value)}
                onClick={(event) => {
                  event.preventDefault();
                  select(item.value);
                }}
              >
                {item.label}
              </a>
            );
          }
          return (
            <button
              key={item.value}
              type="button"
              {...tab}
              disabled={item.disabled}
              onClick={() => select(item.value)}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div
          key={item.value}
          role="tabpanel"
          id={`${baseId}-panel-${item.value}`}
          aria-labelledby={`${baseId}-tab-${item.value}`}
          hidden={item.value !== selected}
          tabIndex={0}
          className="mt-4 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          {item.value === selected && item.content}
        </div>
      ))}
    </div>
  );
}
