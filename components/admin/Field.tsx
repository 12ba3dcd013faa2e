import type { ComponentChildren } from "preact";
import { Label } from "../ui/Label.tsx";

export interface FieldProps {
  /** The id of the control; the label points at it and the error describes it. */
  id: string;
  label: ComponentChildren;
  error?: string;
  hint?: ComponentChildren;
  class?: string;
  children: ComponentChildren;
}

/** A labelled form control with an optional hint and a validation message below it. */
export function Field({ id, label, error, hint, class: className, children }: FieldProps) {
  return (
    <div class={`flex flex-col gap-2 ${className ?? ""}`}>
      <Label for={id}>{label}</Label>
      {children}
      {hint && !error && <p id={`${id}-hint`} class="text-xs text-muted-foreground">{hint}</p>}
      {error && (
        <p id={`${id}-error`} role="alert" class="text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** aria attributes of a control shown in a Field with this error. */
export function fieldAria(id: string, error?: string) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
  };
}
