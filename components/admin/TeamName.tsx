import { Avatar } from "./Avatar.tsx";
import type { Team } from "@/lib/domain/types.ts";

/** A team's logo (or initial) and name. */
export function TeamName({ team, fallback }: { team: Team | null | undefined; fallback: string }) {
  const name = team?.name ?? fallback;
  return (
    <span className="inline-flex items-center gap-2">
      <Avatar src={team?.logoUrl} name={name} size="sm" square />
      <span className="font-medium">{name}</span>
    </span>
  );
}
