import { formatSalary, lastName } from "@/lib/domain/format.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "@/components/team/PositionBadge.tsx";
import { RoleBadge, roleIn, type TeamRoles } from "@/components/team/RoleBadge.tsx";

/**
 * The five picks of the checkout: crest (or initial), last name, position and salary, and the
 * captain's and vice-captain's C and V on their crests.
 */
export function PicksSummary(
  { picks, currency, roles = null }: {
    picks: PickPlayer[];
    currency: string;
    roles?: TeamRoles | null;
  },
) {
  return (
    <section aria-labelledby="picks-title" className="grid gap-3">
      <h2 id="picks-title" className="text-base font-semibold">Your picks</h2>
      <ul className="grid grid-cols-5 gap-1 sm:gap-2" data-picks="">
        {picks.map((p) => (
          <li
            key={p.id}
            className="flex min-w-0 flex-col items-center gap-1 text-center"
            title={p.name}
          >
            <span className="relative">
              <PlayerAvatar name={p.name} src={p.crest} size="lg" />
              {roleIn(roles, p.id) && (
                <RoleBadge
                  role={roleIn(roles, p.id)!}
                  className="absolute -right-1.5 -top-1 ring-2 ring-card"
                />
              )}
            </span>
            <span className="w-full truncate text-[11px] font-semibold sm:text-xs">
              {lastName(p.name)}
            </span>
            <PositionBadge position={p.position} />
            <span className="text-[11px] text-muted-foreground tabular-nums">
              {formatSalary(p.salary, currency)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
