import { NotFoundState } from "./States.tsx";

/** A competition that does not exist (or was deleted), with the way back to the dashboard. */
export function CompetitionNotFound() {
  return (
    <NotFoundState
      title="Competition Not Found"
      description="The competition may have been deleted."
      href="/admin/dashboard"
      label="Back to Competitions"
    />
  );
}
