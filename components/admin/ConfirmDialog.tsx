import { Button } from "@/components/ui/Button.tsx";
import { Dialog } from "@/components/ui/Dialog.tsx";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  message: string;
  confirmLabel?: string;
  busy?: boolean;
  /** The action cannot be taken (the message says why): the confirm button stays disabled. */
  blocked?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** Asks before a destructive action; Cancel or Escape keeps things as they are. */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <Dialog
      open={props.open}
      onClose={props.onCancel}
      title={props.title}
      description={props.message}
      footer={
        <>
          <Button variant="outline" onClick={props.onCancel}>Cancel</Button>
          <Button
            variant="destructive"
            disabled={props.busy || props.blocked}
            onClick={props.onConfirm}
          >
            {props.busy ? "Deleting..." : props.confirmLabel ?? "Delete"}
          </Button>
        </>
      }
    />
  );
}
