import type { ReactNode } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Icon } from "./Icons.tsx";

export interface BackButtonProps {
  /** Where it leads; the dashboard by default. */
  href?: string;
  children?: ReactNode;
}

/** The outline 'Back to …' button of an admin screen's header. */
export function BackButton(
  { href = "/admin/dashboard", children = "Back to Dashboard" }: BackButtonProps,
) {
  return (
    <Button variant="outline" href={href}>
      <Icon name="arrowLeft" />
      {children}
    </Button>
  );
}
