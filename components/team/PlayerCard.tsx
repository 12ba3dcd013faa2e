import { formatPoints, formatSalary } from "@/lib/domain/format.ts";
import { seasonPoints } from "@/lib/domain/scoring.ts";
import { Dialog } from "@/components/ui/Dialog.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { PlayerAvatar } from "@/components/PlayerAvatar.tsx";
import { PositionBadge } from "./PositionBadge.tsx";
import type { PickPlayer } from "@/lib/client/players.ts";
import { formatLine } from "@/lib/client/live/format.ts";

export interface PlayerCardProps {
  player: PickPlayer | null;
  currency: string;
  /** "v CHE (H) · Sat 15:00" when the player's club is in the match. */
  fixture: string | null;
  selected: boolean;
  onToggle: (player: PickPlayer) => void;
  onClose: () => void;
}

/** A player's card: club, price, the next match and how the season's points add up. */
export function PlayerCard(
  { player, currency, fixture, selected, onToggle, onClose }: PlayerCardProps,
) {
  if (!player) return null;
  const season = player.season ?? { goals: 0, assists: 0, cleanSheets: 0 };
  const { totalPoints, lines } = seasonPoints(player.position, season);
  return (
    <Dialog
      open
      onClose={onClose}
      title={player.name}
      description={`${player.teamName} · ${formatSalary(player.salary, currency)}`}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>Close</Button>
          <Button
            onClick={() => {
              onToggle(player);
              onClose();
            }}
          >
            {selected ? "Remove from team" : "Add to team"}
          </Button>
        </>
      }
    >
      <div className="grid gap-4" data-player-card={player.id}>
        <div className="flex items-center gap-3">
          <PlayerAvatar name={player.name} src={player.crest} />
          <PositionBadge position={player.position} />
          {fixture && <span className="text-sm font-medium" data-card-fixture="">{fixture}</span>}
        </div>
        <table className="w-full text-sm">
          <caption className="mb-2 text-left text-xs font-medium uppercase tracking-wide text-muted-foreground">
            Season so far
          </caption>
          <tbody>
            {lines.map((line) => (
              <tr key={line.key} className="border-t border-border">
                <th scope="row" className="py-1.5 text-left font-normal">{line.label}</th>
                <td className="py-1.5 text-right tabular-nums text-muted-foreground">
                  {formatLine(line)}
                </td>
              </tr>
            ))}
            <tr className="border-t border-border font-semibold">
              <th scope="row" className="py-1.5 text-left">Points</th>
              <td className="py-1.5 text-right tabular-nums" data-card-points="">
                {formatPoints(totalPoints)}
              </td>
            </tr>
          </tbody>
        </table>
      </div>
    </Dialog>
  );
}
