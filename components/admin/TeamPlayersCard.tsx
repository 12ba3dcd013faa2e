import { Button } from "@/components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { Icon } from "./Icons.tsx";
import type { Team } from "@/lib/domain/types.ts";

/** The match form's card with the buttons that open each team's players. */
export function TeamPlayersCard(props: { home?: Team; away?: Team; onOpen: (t: Team) => void }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Team Players</CardTitle>
        <CardDescription>Add or edit the real players of the two teams.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          disabled={!props.home}
          onClick={() => props.home && props.onOpen(props.home)}
        >
          <Icon name="users" />Manage Home Team Players
        </Button>
        <Button
          variant="outline"
          disabled={!props.away}
          onClick={() => props.away && props.onOpen(props.away)}
        >
          <Icon name="users" />Manage Away Team Players
        </Button>
      </CardContent>
    </Card>
  );
}
