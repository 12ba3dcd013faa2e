import { buttonClass } from "@/components/ui/Button.tsx";
import { cn } from "@/lib/client/cn.ts";
import { Icon, type IconName } from "./Icons.tsx";

/** The small ghost icon button of a table row's actions. */
const ICON_BUTTON = buttonClass({ variant: "ghost", size: "icon-sm" });
const DESTRUCTIVE = "text-destructive hover:text-destructive";

interface RowActionProps {
  /** The accessible name, e.g. "Edit Ashford City". */
  label: string;
  /** The tooltip; the label when absent. */
  title?: string;
  icon: IconName;
}

/** A row action that opens a page: an icon link. */
export function RowActionLink({ href, label, title, icon }: RowActionProps & { href: string }) {
  return (
    <a href={href} className={ICON_BUTTON} aria-label={label} title={title ?? label}>
      <Icon name={icon} />
    </a>
  );
}

/** A row action done in place: an icon button, red when it destroys something. */
export function RowActionButton(
  { label, title, icon, destructive = false, onClick }: RowActionProps & {
    destructive?: boolean;
    onClick: () => void;
  },
) {
  return (
    <button
      type="button"
      className={destructive ? cn(ICON_BUTTON, DESTRUCTIVE) : ICON_BUTTON}
      aria-label={label}
      title={title ?? label}
      onClick={onClick}
    >
      <Icon name={icon} />
    </button>
  );
}
