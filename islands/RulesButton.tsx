import { lazy, Suspense, useState } from "react";
import { Button } from "../components/ui/Button.tsx";

/** The dialog and the rules it shows load on the first click: every page has this button. */
const RulesDialog = lazy(() =>
  import("../components/RulesDialog.tsx").then((m) => ({ default: m.RulesDialog }))
);

/** The header's Rules button and the 'Fantasy Rules' dialog it opens. */
export default function RulesButton() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
          <circle cx="12" cy="12" r="10" fill="none" stroke="currentColor" strokeWidth="2" />
          <path
            d="M9.1 9a3 3 0 0 1 5.8 1c0 2-3 3-3 3M12 17h.01"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
        Rules
      </Button>
      {used && (
        <Suspense fallback={null}>
          <RulesDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
