import { lazy, Suspense, useState } from "react";
import { Button } from "@/components/ui/Button.tsx";

/** The dialog and the rules it shows load on the first click: every page has this button. */
const RulesDialog = lazy(() =>
  import("@/components/RulesDialog.tsx").then((m) => ({ default: m.RulesDialog }))
);
import type { RulesContentProps } from "@/components/RulesContent.tsx";
import type { Competition } from "@/lib/domain/types.ts";
import { apiFetch } from "@/lib/client/api.ts";

/** The competition a contest page is about (team selection, payment, leaderboard), or null. */
function contestOfPage(path: string): number | null {
  const match = /^\/(?:team-selection|payment|leaderboard)\/(\d{1,15})\/?$/.exec(path);
  return match ? Number(match[1]) : null;
}

/** That competition's own rules for the dialog; the defaults elsewhere or when unreadable. */
async function pageRules(): Promise<RulesContentProps> {
  const id = contestOfPage(location.pathname);
  if (id === null) return {};
  try {
    const c = await apiFetch<Competition>(`/api/competitions/${id}`);
    return {
      maxPlayersPerTeam: c.maxPlayersPerTeam,
      minDefenders: c.minDefenders,
      maxForwards: c.maxForwards ?? null,
      salaryCap: c.salaryCap > 0 ? c.salaryCap : null,
      currency: c.currency,
      captainMultiplier: c.captainMultiplier ?? null,
    };
  } catch {
    return {};
  }
}

/**
 * The header's Rules button and the 'Fantasy Rules' dialog it opens: on a contest's pages it
 * states that contest's rules (cap, per club, forwards, defenders), elsewhere the defaults.
 */
export default function RulesButton() {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const [rules, setRules] = useState<RulesContentProps>({});
  const show = async () => {
    setRules(await pageRules());
    setUsed(true);
    setOpen(true);
  };
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        aria-haspopup="dialog"
        onClick={show}
      >
        <svg
          viewBox="0 0 24 24"
          width="16"
          height="16"
          aria-hidden="true"
          className="max-sm:hidden"
        >
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
          <RulesDialog open={open} onClose={() => setOpen(false)} {...rules} />
        </Suspense>
      )}
    </>
  );
}
