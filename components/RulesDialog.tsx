import { Button } from "./ui/Button.tsx";
import { Dialog } from "./ui/Dialog.tsx";
import { RulesContent, type RulesContentProps } from "./RulesContent.tsx";

export interface RulesDialogProps extends RulesContentProps {
  open: boolean;
  onClose: () => void;
}

/** The 'Fantasy Rules' dialog; a competition passes its own rule numbers. */
export function RulesDialog({ open, onClose, ...rules }: RulesDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Fantasy Rules"
      description="Build your 5-player fantasy team and compete for prizes"
      footer={<Button onClick={onClose} className="w-full sm:w-auto">Got it</Button>}
    >
      <RulesContent {...rules} />
    </Dialog>
  );
}
