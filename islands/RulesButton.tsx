import { useState } from "react";
import { Button } from "../components/ui/Button.tsx";
import { Dialog } from "../components/ui/Dialog.tsx";
import { RulesContent } from "../components/RulesContent.tsx";

/** The header's Rules button and the 'Fantasy Rules' dialog it opens. */
export default function RulesButton() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" stroke-width="2" />
          <path
            d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01"
            fill="none"
            stroke="currentColor"
            stroke-width="2"
            stroke-linecap="round"
          />
        </svg>
        Rules
      </Button>
      <Dialog
        open={open}
        onClose={close}
        title="Fantasy Rules"
        description="Build your 5-player fantasy team and compete for prizes"
        footer={<Button onClick={close} class="w-full sm:w-auto">Got it</Button>}
      >
        <RulesContent />
      </Dialog>
    </>
  );
}
