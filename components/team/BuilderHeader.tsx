import type { ReactNode } from "react";
import { useState } from "react";
import type { Competition } from "@/lib/domain/types.ts";
import type { BuilderFixture } from "@/lib/domain/live.ts";
import { formatPrice, formatSalary, prizeText } from "@/lib/domain/format.ts";
import { type PoolFields, shownPrizePool } from "@/lib/domain/formats.ts";
import type { TeamRules } from "@/lib/domain/team_rules.ts";
import { Badge } from "@/components/ui/Badge.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { RulesDialog } from "@/components/RulesDialog.tsx";
import { Countdown } from "./Countdown.tsx";
import { LocalTime } from "@/components/LocalTime.tsx";
import { cn } from "@/lib/client/cn.ts";

export type BuilderCompetition = BuilderFields & {
  /** The competition's match, for each player's opponent and the kick-off. */
  fixture?: BuilderFixture | null;
  /** The round's matches (a round contest): each player's fixture, the match filter, locks. */
  fixtures?: BuilderFixture[] | null;
  /** Late swap: picks whose match has not kicked off may change after the deadline. */
  lateSwap?: boolean;
};

type BuilderFields = Pick<
  Competition,
  | "id"
  | "name"
  | "description"
  | "entryFee"
  | "prizePool"
  | "prizeType"
  | "customPrizeDescription"
  | "currency"
  | "deadline"
  | "status"
  | "maxEntries"
  | "currentEntries"
  | "maxPlayersPerTeam"
  | "maxForwards"
  | "minDefenders"
  | "salaryCap"
  | "maxEntries"
  | "currentEntries"
  | "cancelReason"
  | "captainMultiplier"
>;

/** Only what the builder shows and checks, to keep the page's island props small. */
export function builderFields(c: BuilderFields & Omit<PoolFields, "prizePool">): BuilderFields {
  const { id, name, description, entryFee, prizeType, customPrizeDescription } = c;
  const { currency, deadline, status, maxPlayersPerTeam, maxForwards, minDefenders, salaryCap } = c;
  const { maxEntries, currentEntries, cancelReason } = c;
  return {
    id,
    name,
    description,
    entryFee,
    // A growing pool as it stands when the page is made (it is frozen at the deadline).
    prizePool: shownPrizePool(c),
    prizeType,
    customPrizeDescription,
    currency,
    deadline,
    status,
    maxEntries,
    currentEntries,
    maxPlayersPerTeam,
    maxForwards,
    minDefenders,
    salaryCap,
    cancelReason: cancelReason ?? null,
    captainMultiplier: c.captainMultiplier ?? null,
  };
}

export interface BuilderHeaderProps {
  competition: BuilderCompetition;
  rules: TeamRules;
  renderedAt: string;
  onExpire: () => void;
}

function Fact(props: { label: string; className?: string; children: ReactNode }) {
  return (
    <div className={cn("min-w-0 rounded-lg bg-muted/60 px-3 py-2", props.className)}>
      <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
        {props.label}
      </p>
      <div className="font-semibold leading-snug">{props.children}</div>
    </div>
  );
}

/** The rule badges: per team, GK, DEF, forwards (when set), salary cap (when set). */
function RuleBadges({ rules, maxForwardsSet }: { rules: TeamRules; maxForwardsSet: boolean }) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Team rules">
      <li>
        <Badge variant="secondary">Max {rules.maxPlayersPerTeam} per team</Badge>
      </li>
      <li>
        <Badge variant="secondary">Min 1 GK</Badge>
      </li>
      <li>
        <Badge variant="secondary">Min {rules.minDefenders} DEF</Badge>
      </li>
      {maxForwardsSet && (
        <li>
          <Badge variant="secondary">Max {rules.maxForwards} FWD</Badge>
        </li>
      )}
      {rules.salaryCap !== null && (
        <li>
          <Badge variant="secondary">
            Salary cap {formatSalary(rules.salaryCap, rules.currency)}
          </Badge>
        </li>
      )}
    </ul>
  );
}

/** Competition name, countdown, prize, fee, rule badges and the competition's rules dialog. */
export function BuilderHeader({ competition: c, rules, renderedAt, onExpire }: BuilderHeaderProps) {
  const [rulesOpen, setRulesOpen] = useState(false);
  const maxForwardsSet = c.maxForwards !== null && c.maxForwards !== undefined;
  const prize = prizeText(c);
  return (
    <section className="rounded-xl border border-border bg-card p-5 shadow-sm">
      <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{c.name}</h1>
          {c.description && <p className="mt-1 text-sm text-muted-foreground">{c.description}</p>}
          {c.fixture && (
            <p className="mt-1 text-sm" data-kickoff="">
              <span className="font-medium">
                {c.fixture.homeShortName} v {c.fixture.awayShortName}
              </span>
              {" · Kick-off "}
              <LocalTime iso={c.fixture.kickoffTime} className="whitespace-nowrap" />
            </p>
          )}
          {c.fixtures && c.fixtures.length > 0 && (
            <p className="mt-1 text-sm" data-round-games="">
              <span className="font-medium">{c.fixtures.length} matches</span>
              {" · First kick-off "}
              <LocalTime iso={c.fixtures[0].kickoffTime} className="whitespace-nowrap" />
              {c.lateSwap && (
                <span className="ml-2 rounded-full bg-primary/10 px-2 py-0.5 text-xs font-semibold text-primary">
                  Late swap
                </span>
              )}
            </p>
          )}
        </div>
        <div className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:min-w-[28rem]">
          <Fact label="Closes in">
            <Countdown deadline={c.deadline} renderedAt={renderedAt} onExpire={onExpire} />
            {c.deadline && (
              <LocalTime
                iso={c.deadline}
                className="block text-xs font-normal text-muted-foreground"
              />
            )}
          </Fact>
          <Fact label="Prize" className="order-last col-span-2 sm:order-none sm:col-span-1">
            <span
              className={prize.length > 16 ? "text-sm font-bold" : "text-lg font-bold"}
              data-prize=""
            >
              {prize}
            </span>
          </Fact>
          <Fact label="Entry fee">
            <span className="text-lg font-bold" data-fee="">
              {formatPrice(c.entryFee, c.currency)}
            </span>
          </Fact>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
        <RuleBadges rules={rules} maxForwardsSet={maxForwardsSet} />
        <Button variant="ghost" size="sm" aria-haspopup="dialog" onClick={() => setRulesOpen(true)}>
          How it works
        </Button>
      </div>
      <RulesDialog
        open={rulesOpen}
        onClose={() => setRulesOpen(false)}
        maxPlayersPerTeam={rules.maxPlayersPerTeam}
        minDefenders={rules.minDefenders}
        maxForwards={maxForwardsSet ? rules.maxForwards : null}
        salaryCap={rules.salaryCap}
        currency={c.currency}
      />
    </section>
  );
}
