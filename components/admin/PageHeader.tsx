import type { ComponentChildren } from "preact";

export interface PageHeaderProps {
  title: ComponentChildren;
  description?: ComponentChildren;
  /** Buttons shown on the right (wrapping below the title on small screens). */
  actions?: ComponentChildren;
}

/** The heading block of an admin screen: title, one-line description and actions. */
export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <div class="flex flex-col gap-4 border-b border-border pb-6 md:flex-row md:items-end md:justify-between">
      <div class="flex flex-col gap-1">
        <p class="text-xs font-semibold uppercase tracking-wider text-muted-foreground">
          Admin Portal
        </p>
        <h1 class="flex flex-wrap items-center gap-3 text-2xl font-bold tracking-tight">{title}</h1>
        {description && <p class="text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div class="flex flex-wrap items-center gap-2">{actions}</div>}
    </div>
  );
}
