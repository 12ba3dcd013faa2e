import { useEffect, useState } from "react";
import { editTokenOf } from "@/lib/client/user_entries.ts";

/**
 * On a team's public page, the paying browser's way to its whole team: picks are hidden from
 * everyone until they lock, and the edit link (whose secret this browser keeps) shows them all.
 */
export default function OwnTeamLink({ teamId }: { teamId: string }) {
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => setToken(editTokenOf(teamId)), [teamId]);
  if (!token) return null;
  return (
    <a
      href={`/edit/${token}`}
      className="text-sm font-medium text-primary underline"
      data-own-team=""
    >
      See your whole team
    </a>
  );
}
