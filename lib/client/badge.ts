/**
 * The badge's colour variants. The type lives here rather than beside the component so the browser
 * code that picks a variant (lib/client/admin/labels.ts) need not import a component.
 */
export type BadgeVariant =
  | "default"
  | "secondary"
  | "outline"
  | "destructive"
  | "success"
  | "live";
