/**
 * Contest formats: the templates an admin turns into competitions in one go (head-to-head,
 * 50/50, tournament, private), their payout tables in whole cents, and the pool that grows with
 * entries. Pure: `lib/db/contest_formats.ts` stores what these functions decide.
 *
 * A pool either grows (fee × entries × (1 − the operator's share), shown live in the lobby and
 * frozen with its prize table at the deadline) or is guaranteed (the competition's prizePool).
 * Ties follow the one prize split (`awardPlaces` in prizes.ts): tied entries share the prizes of
 * the places they cover.
 */
import { fieldError, InvalidInputError } from "./errors.ts";
import { toCents } from "./format.ts";
import type { PrizeRow } from "./prizes.ts";
import type {
  Competition,
  ContestFormat,
  ContestTemplate,
  Currency,
  League,
  Payout,
  PoolMode,
} from "./types.ts";

/** The operator's share of a growing pool when the template does not say (percent). */
export const DEFAULT_OPERATOR_SHARE_PERCENT = 10;
/** The highest operator's share a template may set (percent). */
export const MAX_OPERATOR_SHARE_PERCENT = 50;
/** A tournament pays about this fraction of its field (at least one place). */
export const TOURNAMENT_PAID_FRACTION = 0.2;
/**
 * The most places a table pays: a prize structure is written in one atomic (lib/db/prizes.ts
 * takes at most ATOMIC_CHUNK / 2 positions), and so is its freeze.
 */
export const MAX_PRIZE_PLACES = 200;
/** A 50/50's field when the template does not say. */
export const DEFAULT_FIFTY_FIFTY_ENTRIES = 10;

/** What each template pays, and whether it must fill (cancelled and refunded otherwise). */
const TEMPLATE_RULES: Record<
  ContestTemplate,
  { payout: Payout; label: string; mustFill: boolean }
> = {
  HEAD_TO_HEAD: { payout: "WINNER_TAKES_ALL", label: "Head-to-Head", mustFill: true },
  FIFTY_FIFTY: { payout: "TOP_HALF", label: "50/50", mustFill: true },
  TOURNAMENT: { payout: "TIERED", label: "Tournament", mustFill: false },
  PRIVATE: { payout: "TIERED", label: "Private", mustFill: false },
};

const PAYOUT_TEXT: Record<Payout, string> = {
  WINNER_TAKES_ALL: "The winner takes the pool.",
  TOP_HALF: "The top half of the field share the pool equally.",
  TIERED: "About the top 20% of the field are paid, in tiers.",
};

/**
 * A growing pool in cents: fee × entries × (1 − share), floored to the cent (the operator keeps
 * the fraction of a cent).
 * @example growingPoolCents(5, 7, 10) // 3150
 */
export function growingPoolCents(fee: number, entries: number, sharePercent: number): number {
  const keptBasisPoints = 10_000 - Math.round(sharePercent * 100);
  return Math.floor((toCents(fee) * Math.max(0, entries) * keptBasisPoints) / 10_000);
}

/** What the shown pool reads of a competition (views that carry fewer fields show prizePool). */
export interface PoolFields {
  prizePool: number;
  entryFee?: number;
  currentEntries?: number;
  format?: ContestFormat | null;
}

/**
 * The pool a visitor is shown: a growing pool that is not frozen yet is computed from the
 * entries so far; otherwise the stored prizePool (guaranteed, or frozen at the deadline).
 */
export function shownPrizePool(c: PoolFields): number {
  const f = c.format;
  if (!f || f.pool !== "GROWING" || f.frozenAt) return c.prizePool;
  return growingPoolCents(c.entryFee ?? 0, c.currentEntries ?? 0, f.operatorSharePercent) / 100;
}

/** Whether a pool is still growing (shown as such in the lobby). */
export function isGrowingPool(c: { format?: ContestFormat | null }): boolean {
  return c.format?.pool === "GROWING" && !c.format.frozenAt;
}

function rows(cents: number[]): PrizeRow[] {
  return cents.map((c, i) => ({ position: i + 1, prize: c / 100 }));
}

/** 50/50: the top half (at least one place) share the pool; leftover cents go to the top places. */
function topHalf(field: number, poolCents: number): number[] {
  const paid = Math.min(Math.max(1, Math.floor(field / 2)), MAX_PRIZE_PLACES, poolCents);
  const share = Math.floor(poolCents / paid);
  const extra = poolCents - share * paid;
  return Array.from({ length: paid }, (_, i) => share + (i < extra ? 1 : 0));
}

/** The first place of each tier of a tournament table: 1, 2, 3, 4, 6, 11, 16, 21, 31, 51, 101, 201, 501, … */
export function tierStarts(paid: number): number[] {
  const ends = [1, 2, 3, 5, 10, 15, 20, 30, 50];
  for (let base = 100; ends[ends.length - 1] < paid; base *= 10) {
    ends.push(base, base * 2, base * 5);
  }
  const starts = [1];
  for (const end of ends) if (end < paid) starts.push(end + 1);
  return starts;
}

/**
 * Tournament: about the top 20% paid (at least one place, at most MAX_PRIZE_PLACES). Places come in tiers (see
 * `tierStarts`); every place of a tier starting at place s weighs 1/(s + 1), so shares fall
 * with the place and are equal within a tier. Each place gets its weight's share floored to the
 * cent and 1st place the leftover cents; places a tiny pool cannot pay a cent are dropped.
 */
function tiered(field: number, poolCents: number): number[] {
  const share = Math.max(1, Math.floor(field * TOURNAMENT_PAID_FRACTION));
  let paid = Math.min(share, MAX_PRIZE_PLACES, poolCents);
  for (; paid > 0; paid--) {
    const starts = tierStarts(paid);
    const weights: number[] = [];
    for (let place = 1, tier = 0; place <= paid; place++) {
      if (tier + 1 < starts.length && starts[tier + 1] === place) tier++;
      weights.push(1 / (starts[tier] + 1));
    }
    const total = weights.reduce((a, b) => a + b, 0);
    const cents = weights.map((w) => Math.floor((poolCents * w) / total));
    cents[0] += poolCents - cents.reduce((a, b) => a + b, 0);
    if (cents[paid - 1] > 0) return cents;
  }
  return [];
}

/**
 * The prize table of a payout for a field of `field` entries and a pool of `poolCents`: rows by
 * position whose prizes sum to the pool exactly, none below a cent. An empty field or pool pays
 * nothing ([]).
 * @example payoutTable("TOP_HALF", 4, 1001) // [{position: 1, prize: 5.01}, {position: 2, prize: 5}]
 */
export function payoutTable(payout: Payout, field: number, poolCents: number): PrizeRow[] {
  if (!(field >= 1) || !(poolCents >= 1)) return [];
  if (payout === "WINNER_TAKES_ALL") return rows([poolCents]);
  if (payout === "TOP_HALF") return rows(topHalf(field, poolCents));
  return rows(tiered(field, poolCents));
}

/** What the contests are made for: one match (or one round), and what they share. */
export interface ContestBase {
  matchId?: number | null;
  roundId?: number | null;
  /** "Arsenal v Chelsea", or the round's name: each contest's name starts with it. */
  title: string;
  league: League;
  /** ISO; no entry after it. */
  deadline: string;
  /** The fee of every template that does not set its own. */
  entryFee: number;
  currency: Currency;
}

/** One template of the admin action. */
export interface TemplateSpec {
  format: ContestTemplate;
  /** Absent: the base's fee. */
  entryFee?: number;
  /** Absent: GROWING. */
  pool?: PoolMode;
  /** GROWING: the operator's share in percent (absent: DEFAULT_OPERATOR_SHARE_PERCENT). */
  operatorSharePercent?: number;
  /** GUARANTEED: the pool paid whatever the entries. */
  prizePool?: number;
  /** The field: 2 for head-to-head, DEFAULT_FIFTY_FIFTY_ENTRIES for a 50/50; others: no cap. */
  maxEntries?: number | null;
  /** PRIVATE: how its pool is paid (absent: TIERED). */
  payout?: Payout;
  /** Left out of the lobby (absent: only PRIVATE is). */
  private?: boolean;
  name?: string;
}

/** A competition to create, with the prize table it starts with (empty until frozen). */
export interface ContestPlan {
  competition: {
    name: string;
    description: string;
    league: League;
    matchId: number | null;
    roundId?: number | null;
    deadline: string;
    entryFee: number;
    prizePool: number;
    currency: Currency;
    maxEntries: number | null;
    minEntries: number | null;
    format: ContestFormat;
    unlisted: boolean;
  };
  prizes: PrizeRow[];
}

/** Invalid input about one field of template `i`: the path is ["templates", i, field]. */
function templateError(i: number, field: string, message: string): InvalidInputError {
  return new InvalidInputError(message, [{ path: ["templates", i, field], message }]);
}

function fieldOf(spec: TemplateSpec, i: number): number | null {
  const max = spec.maxEntries ?? null;
  if (spec.format === "HEAD_TO_HEAD") {
    if (max !== null && max !== 2) {
      throw templateError(i, "maxEntries", "A head-to-head has 2 entries");
    }
    return 2;
  }
  if (spec.format === "FIFTY_FIFTY") return max ?? DEFAULT_FIFTY_FIFTY_ENTRIES;
  return max;
}

/**
 * The competitions a set of templates makes for one match or round, in template order. A
 * head-to-head or 50/50 needs its whole field by the deadline (minEntries = maxEntries), else
 * the minimum-entries job cancels it and refunds every entrant. A guaranteed pool with a known
 * field starts with its prize table; every table is computed again from the entries at the
 * deadline and frozen then (`lib/db/contest_formats.ts`). Throws InvalidInputError whose
 * issue path is ["templates", i, field].
 * @example competitionsFromTemplates(base, [{ format: "HEAD_TO_HEAD" }, { format: "FIFTY_FIFTY", maxEntries: 20 }])
 */
export function competitionsFromTemplates(
  base: ContestBase,
  templates: TemplateSpec[],
): ContestPlan[] {
  if (templates.length === 0) throw fieldError("templates", "Choose at least one template");
  return templates.map((spec, i) => {
    const rules = TEMPLATE_RULES[spec.format];
    if (!rules) throw templateError(i, "format", "Unknown template");
    const payout = spec.format === "PRIVATE" ? spec.payout ?? rules.payout : rules.payout;
    const maxEntries = fieldOf(spec, i);
    if (maxEntries !== null && !(Number.isInteger(maxEntries) && maxEntries >= 2)) {
      throw templateError(i, "maxEntries", "Max entries must be an integer of at least 2");
    }
    if (payout === "TOP_HALF" && !(maxEntries !== null && maxEntries <= 2 * MAX_PRIZE_PLACES)) {
      throw templateError(
        i,
        "maxEntries",
        `Paying the top half needs a field of at most ${2 * MAX_PRIZE_PLACES} entries`,
      );
    }
    const entryFee = spec.entryFee ?? base.entryFee;
    if (!(entryFee > 0)) throw templateError(i, "entryFee", "Entry fee must be positive");
    const pool = spec.pool ?? "GROWING";
    const share = spec.operatorSharePercent ?? DEFAULT_OPERATOR_SHARE_PERCENT;
    if (!(share >= 0 && share <= MAX_OPERATOR_SHARE_PERCENT)) {
      throw templateError(
        i,
        "operatorSharePercent",
        `The operator's share must be from 0 to ${MAX_OPERATOR_SHARE_PERCENT} percent`,
      );
    }
    let prizePool = 0;
    if (pool === "GUARANTEED") {
      if (!(spec.prizePool !== undefined && spec.prizePool > 0)) {
        throw templateError(i, "prizePool", "A guaranteed pool needs a positive prize pool");
      }
      prizePool = toCents(spec.prizePool) / 100;
    }
    const prizes = pool === "GUARANTEED" && maxEntries !== null
      ? payoutTable(payout, maxEntries, toCents(prizePool))
      : [];
    const growing = pool === "GROWING"
      ? ` The pool grows with every entry (${share}% operator's share).`
      : "";
    return {
      competition: {
        name: spec.name?.trim() || `${base.title} · ${rules.label}`,
        description: `${PAYOUT_TEXT[payout]}${growing}`,
        league: base.league,
        matchId: base.matchId ?? null,
        ...(base.roundId != null ? { roundId: base.roundId } : {}),
        deadline: base.deadline,
        entryFee: toCents(entryFee) / 100,
        prizePool,
        currency: base.currency,
        maxEntries,
        minEntries: rules.mustFill ? maxEntries : null,
        format: {
          template: spec.format,
          payout,
          pool,
          operatorSharePercent: pool === "GROWING" ? share : 0,
          frozenAt: null,
        },
        unlisted: spec.private ?? spec.format === "PRIVATE",
      },
      prizes,
    };
  });
}

/**
 * The pool and prize table to freeze for a competition made from a template, from the entries it
 * holds now (`currentEntries`): a growing pool from the fees, a guaranteed one as it stands.
 */
export function frozenPrizes(
  c: Pick<Competition, "prizePool" | "entryFee" | "currentEntries"> & { format: ContestFormat },
): { poolCents: number; prizes: PrizeRow[] } {
  const poolCents = c.format.pool === "GROWING"
    ? growingPoolCents(c.entryFee, c.currentEntries, c.format.operatorSharePercent)
    : toCents(c.prizePool);
  return { poolCents, prizes: payoutTable(c.format.payout, c.currentEntries, poolCents) };
}
