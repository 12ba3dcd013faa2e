import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/Card.tsx";

const CARDS = [
  {
    title: "Set up a competition",
    text:
      "Create a competition, add the players who can be picked and set the prize structure. Copy the entry link to share it.",
  },
  {
    title: "Run it live",
    text:
      "Set the status to LIVE when the match starts, then record game events. Entrants see them on the leaderboard within seconds.",
  },
  {
    title: "Finish and pay out",
    text:
      "Record the player performances, then set the status to COMPLETED. Prizes are awarded by rank and shown on the leaderboard.",
  },
];

/** The three help cards of the dashboard. */
export function HelpCards() {
  return (
    <section aria-label="Help" className="grid gap-4 md:grid-cols-3">
      {CARDS.map((card, i) => (
        <Card key={card.title}>
          <CardHeader className="pb-2">
            <CardTitle className="flex items-center gap-2 text-base">
              <span className="inline-flex h-6 w-6 items-center justify-center rounded-full bg-primary text-xs text-primary-foreground">
                {i + 1}
              </span>
              {card.title}
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">{card.text}</CardContent>
        </Card>
      ))}
    </section>
  );
}
