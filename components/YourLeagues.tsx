import { useEffect, useState } from "react";
import { getUserLeagues, type UserLeague } from "@/lib/client/leagues.ts";

/** The leagues this browser made or joined (kept in this browser), as links; nothing when none. */
export function YourLeagues() {
  const [leagues, setLeagues] = useState<UserLeague[]>([]);
  useEffect(() => setLeagues(getUserLeagues()), []);
  if (leagues.length === 0) return null;
  return (
    <section
      aria-labelledby="your-leagues"
      className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5"
    >
      <h2 id="your-leagues" className="text-lg font-semibold">Your leagues</h2>
      <ul className="mt-2 flex flex-wrap gap-2 text-sm">
        {leagues.map((l) => (
          <li key={l.id}>
            <a
              href={`/leagues/${l.id}`}
              className="inline-block rounded-md border border-border px-3 py-1.5 font-medium hover:bg-accent"
              data-your-league={l.id}
            >
              {l.name}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
