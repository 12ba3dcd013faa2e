/**
 * Every write of public data touches its change markers (lib/store/touch.ts) in the same atomic:
 * the render cache reads only the markers, so a write that forgot them would leave visitors a
 * stale page. A recording store sees every commit; one that writes a public key without moving
 * `["public"]` is a failure naming the keys, except a sale (a commit writing `["entries", id]`),
 * which moves its competition's marker `["live", cid]` (and `["public"]` only when it fills the
 * competition, touch.ts `touchSale`). Every exported function of every lib/db module that can
 * write is found from the sources (tests/helpers/db_writers.ts), so a new write function, or a new
 * module, must join the scenario or say why it changes nothing visitors see.
 */
import assert from "node:assert/strict";
import * as competitionPlayers from "@/lib/db/competition_players.ts";
import * as competitions from "@/lib/db/competitions.ts";
import * as contestFormats from "@/lib/db/contest_formats.ts";
import * as poolFreeze from "@/lib/db/pool_freeze.ts";
import * as entryEdits from "@/lib/db/entry_edits.ts";
import * as entryRefundDecisions from "@/lib/db/entry_refund_decisions.ts";
import * as events from "@/lib/db/events.ts";
import * as imports from "@/lib/db/imports.ts";
import * as matchPlayers from "@/lib/db/match_players.ts";
import * as statusClock from "@/lib/db/status_clock.ts";
import * as matches from "@/lib/db/matches.ts";
import * as performances from "@/lib/db/performances.ts";
import * as players from "@/lib/db/players.ts";
import * as prizes from "@/lib/db/prizes.ts";
import * as rounds from "@/lib/db/rounds.ts";
import * as standings from "@/lib/db/standings.ts";
import * as teams from "@/lib/db/teams.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";
import { keys } from "@/lib/store/keys.ts";
import { makeTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, makeTeam } from "@/tests/helpers/fixtures.ts";
import { libDbWriters } from "@/tests/helpers/db_writers.ts";

/** Key prefixes whose records visitors see (pages, public GET APIs). */
const PUBLIC = new Set([
  "teams",
  "players",
  "players_by_team",
  "matches",
  "competitions",
  "competition_players",
  "performances",
  "events",
  "prizes",
  "entries",
  "entries_by_competition",
]);

/**
 * Write functions of lib/db that change nothing visitors see, and why: by module (every write of
 * it) or by function. Everything else that writes runs in the scenario below.
 */
const NOT_PUBLIC: Record<string, string> = {
  "admins": "admin accounts: no public page shows them",
  "analytics": "visit counts for the admin dashboard",
  "busyRetry": "a store wrapper: the writes are its callers'",
  "instrumentedKv": "a store wrapper: the writes are its callers'",
  "checkouts": "pending payments, seen by the admin and the payer only",
  "dump": "restoreKv fills an empty store before it serves: no answer is kept yet",
  "entriesByEmail": "the e-mail index of My entries, which is private and never cached",
  "groupCommit": "the batch under entryWrites.commitEntry: its commits are those entries'",
  "entryWrites.commitEntry": "the commit of entries.createEntry, which the scenario runs",
  "ids": "id counters: the record is written, and touched, by the caller's own atomic",
  "leases": "start-up turns between processes",
  "leagues":
    "friends' leagues: their page and API are built per request from the league records and the " +
    "standings, never from the render cache",
  "loginTrust": "admin sign-in records",
  "oauthStates": "admin sign-in records",
  "sessions": "admin sign-in records",
  "totp": "admin sign-in records",
  "migrations": "runs the modules' own migrations, each one listed here or in the scenario",
  "outbox": "e-mails waiting to be sent",
  "persons": "a person's sign-in links, sessions, limits and breaks: their own account page only",
  "selfExclusions": "the self-exclusion list: the admin's page and the payment checks only",
  "notifications":
    "an entry's private notification settings and the push queue: no page shows them",
  "payoutRecords": "winners' payout details and notices, admin only",
  "pushRetries":
    "pushes kept for another try, and the final-standings mark on an entry's private " +
    "notification settings: no page shows them",
  "rateLimits": "per-address counters",
  "refunds": "refund claims and notices; the cancellation visitors see is touched by its own write",
  "roster": "re-packs the picks of entries already written, and touched, with their entries",
  "testPaymentIntents": "the offline payment provider's intents",
  "util": "deleteKeys: a helper whose callers touch in their own atomic",
  "competitionPlayers.migrateCompetitionPlayerSalaries": "rewrites links to the same salaries",
  "audit": "the admin activity log, shown to admins only",
  "feed":
    "the data feed's own records (providers, signatures, deliveries, event ids); the events " +
    "and results they lead to are written by events.changeGameEvents and matches.updateMatch",
  "imports.resumeImport": "goes on with the chunks of imports.applyImport, whose writes run here",
};

interface Violation {
  step: string;
  keys: string[];
}

/** `kv` recording every commit that writes a public key without moving `["public"]`. */
function recordingStore(kv: Deno.Kv, step: () => string, violations: Violation[]): Deno.Kv {
  const isPublic = (key: Deno.KvKey) => PUBLIC.has(String(key[0]));
  const same = (a: Deno.KvKey, b: Deno.KvKey) => JSON.stringify(a) === JSON.stringify(b);
  const note = (written: Deno.KvKey[], touched: boolean) => {
    const shown = written.filter(isPublic);
    if (shown.length > 0 && !touched) {
      violations.push({ step: step(), keys: shown.map((k) => JSON.stringify(k)) });
    }
  };
  return new Proxy(kv, {
    get(target, prop) {
      if (prop === "set" || prop === "delete") {
        return (key: Deno.KvKey, ...rest: unknown[]) => {
          note([key], false);
          // deno-lint-ignore no-explicit-any
          return (target as any)[prop](key, ...rest);
        };
      }
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const written: Deno.KvKey[] = [];
          let touched = false;
          let liveMoved = false;
          const wrapped: Deno.AtomicOperation = new Proxy(op, {
            get(o, name) {
              const value = Reflect.get(o, name, o);
              if (typeof value !== "function") return value;
              if (name === "commit") {
                return async () => {
                  const res = await op.commit();
                  const sale = written.some((k) => k[0] === "entries") && liveMoved;
                  if (res.ok) note(written, touched || sale);
                  return res;
                };
              }
              return (...args: unknown[]) => {
                if (name === "set" || name === "delete") written.push(args[0] as Deno.KvKey);
                if (name === "sum" && same(args[0] as Deno.KvKey, keys.publicVersion())) {
                  touched = true;
                }
                if (name === "sum" && (args[0] as Deno.KvKey)[0] === "live") liveMoved = true;
                if (name === "mutate") {
                  for (const m of args as Deno.KvMutation[]) written.push(m.key);
                }
                value.apply(o, args);
                return wrapped;
              };
            },
          });
          return wrapped;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

Deno.test("[touch] every public write moves the public change marker", async (t) => {
  const app = await makeTestApp();
  const violations: Violation[] = [];
  let current = "";
  const kv = recordingStore(app.kv, () => current, violations);
  const covered = new Set<string>();
  const step = async (name: string, run: () => Promise<unknown>) => {
    current = name;
    covered.add(name);
    await run();
  };
  try {
    await step("seed.seedDemoDataIfEmpty", () => seedDemoDataIfEmpty(kv));
    const home = await makeTeam(kv);
    const away = await makeTeam(kv);
    const c = await makeCompetition(kv, { name: "Touch Cup" });
    const [gk, def] = c.players;
    let matchId = 0;
    let eventId = 0;
    await step("teams.createTeam", () => teams.createTeam(kv, { ...home, name: "New Club" }));
    await step("teams.updateTeam", () => teams.updateTeam(kv, home.id, { name: "Renamed" }));
    await step("players.createPlayer", async () => {
      const p = await players.createPlayer(kv, {
        name: "Fresh Face",
        teamId: home.id,
        position: "MID",
        salary: 1000,
      });
      await step("players.deletePlayer", () => players.deletePlayer(kv, p.id));
    });
    await step("players.updatePlayer", () => players.updatePlayer(kv, gk.id, { name: "Renamed" }));
    await step("matches.createMatch", async () => {
      const kickoffTime = new Date(Date.now() + 86_400_000).toISOString();
      const input = { kickoffTime, stadium: "Park", league: home.league };
      const m = await matches.createMatch(kv, {
        ...input,
        homeTeamId: home.id,
        awayTeamId: away.id,
      });
      matchId = m.id;
    });
    await step(
      "matches.updateMatch",
      () => matches.updateMatch(kv, matchId, { stadium: "Ground" }),
    );
    let growing = 0;
    await step("contestFormats.createContestsFromTemplates", async () => {
      const [made] = await contestFormats.createContestsFromTemplates(kv, {
        matchId,
        entryFee: 5,
        templates: [{ format: "TOURNAMENT" }],
      });
      growing = made.id;
    });
    // Past its deadline, the growing pool and its prize table are frozen.
    const later = new Date(Date.now() + 2 * 86_400_000);
    await step("contestFormats.freezeDuePools", () => contestFormats.freezeDuePools(kv, later));
    await step("poolFreeze.freezeContestPool", async () => {
      await poolFreeze.freezeContestPool(kv, growing, later);
      await competitions.deleteCompetition(kv, growing); // the match is deleted further down
    });
    let roundId = 0;
    await step("rounds.createRound", async () => {
      roundId = (await rounds.createRound(kv, { name: "Matchday", matchIds: [matchId] })).id;
    });
    await step("rounds.updateRound", () => rounds.updateRound(kv, roundId, { name: "Renamed" }));
    await step("rounds.deleteRound", () => rounds.deleteRound(kv, roundId));
    await step("matches.setLiveScore", () => matches.setLiveScore(kv, matchId, 1, 0));
    await step("matches.recordKickOff", () => matches.recordKickOff(kv, matchId, new Date()));
    await step("competitions.createCompetition", async () => {
      const other = await competitions.createCompetition(kv, {
        name: "Short Lived",
        league: "PREMIER_LEAGUE",
        entryFee: 5,
        prizePool: 50,
        deadline: new Date(Date.now() + 86_400_000).toISOString(),
      });
      await step(
        "competitions.deleteCompetition",
        () => competitions.deleteCompetition(kv, other.id),
      );
    });
    await step(
      "competitions.updateCompetition",
      () => competitions.updateCompetition(kv, c.id, { name: "Touched Cup" }),
    );
    await step(
      "competitionPlayers.removeCompetitionPlayers",
      () => competitionPlayers.removeCompetitionPlayers(kv, c.id, [def.id]),
    );
    await step(
      "competitionPlayers.addCompetitionPlayers",
      () => competitionPlayers.addCompetitionPlayers(kv, c.id, [def.id]),
    );
    await step(
      "competitionPlayers.setCompetitionPlayerSalary",
      () => competitionPlayers.setCompetitionPlayerSalary(kv, c.id, def.id, 1500),
    );
    await step(
      "prizes.setPrizeStructure",
      () => prizes.setPrizeStructure(kv, c.id, [{ position: 1, prize: 60 }]),
    );
    let entry: Awaited<ReturnType<typeof makeEntry>> | null = null;
    await step("entries.createEntry", async () => entry = await makeEntry(kv, c));
    await step("entryEdits.editEntry", () =>
      entryEdits.editEntry(kv, entry!.editToken!, {
        playerIds: entry!.playerIds,
        teamName: "Edited Eleven",
        revision: entry!.revision ?? 0,
      }));
    await step("entryRefundDecisions.claimEntryRefundByAdmin", async () => {
      const second = await makeEntry(kv, c);
      await entryRefundDecisions.claimEntryRefundByAdmin(kv, c.id, second.teamId, "Paid twice", {
        admin: "admin",
      });
    });
    await step(
      "competitions.updateCompetition",
      () => competitions.updateCompetition(kv, c.id, { status: "LIVE" }),
    );
    await step("events.createGameEvent", async () => {
      eventId = (await events.createGameEvent(kv, c.id, { playerId: gk.id, eventType: "SAVE" })).id;
    });
    await step("events.deleteGameEvent", () => events.deleteGameEvent(kv, c.id, eventId));
    await step(
      "events.changeGameEvents",
      () => events.changeGameEvents(kv, c.id, { add: { playerId: gk.id, eventType: "SAVE" } }),
    );
    await step("statusClock.advanceCompetitionStatuses", async () => {
      await competitions.updateCompetition(kv, c.id, { autoStatus: true });
      await statusClock.advanceCompetitionStatuses(kv, new Date(Date.now() + 7 * 86_400_000));
    });
    await step(
      "statusClock.advanceMatchCompetitions",
      () => statusClock.advanceMatchCompetitions(kv, matchId),
    );
    await step("statusClock.kickOffMatch", () => statusClock.kickOffMatch(kv, matchId));
    await step(
      "statusClock.endMatch",
      () => statusClock.endMatch(kv, matchId, { homeScore: 1, awayScore: 0 }),
    );
    await step(
      "matchPlayers.migrateOffMatchPlayers",
      () => matchPlayers.migrateOffMatchPlayers(kv),
    );
    await step(
      "matchPlayers.listOffMatchFindings",
      async () => matchPlayers.listOffMatchFindings(kv, await competitions.listCompetitions(kv)),
    );
    await step("imports.applyImport", () =>
      imports.applyImport(kv, {
        kind: "clubs",
        format: "csv",
        fileName: "clubs.csv",
        content:
          "externalId,name,shortName,league,logoUrl\nclub-touch,Touch Town,TTN,PREMIER_LEAGUE,\n",
      }, "admin"));
    await step(
      "performances.savePerformances",
      () => performances.savePerformances(kv, c.id, [{ playerId: gk.id, saves: 3 }]),
    );
    await step("standings.awardPrizes", () => standings.awardPrizes(kv, c.id));
    await step("standings.resumeAwards", () => standings.resumeAwards(kv));
    await step(
      "competitions.markCompetitionCancelled",
      () => competitions.markCompetitionCancelled(kv, c.id, "Rain"),
    );
    await step("matches.deleteMatch", () => matches.deleteMatch(kv, matchId));
    await step("teams.deleteTeam", async () => {
      const lone = await makeTeam(kv);
      current = "teams.deleteTeam";
      await teams.deleteTeam(kv, lone.id);
    });

    await t.step("no commit wrote public data without touching", () => {
      assert.deepEqual(violations, []);
    });

    await t.step("every write function of lib/db is in the scenario or says why not", async () => {
      const writers = await libDbWriters();
      assert.ok(writers.includes("teams.createTeam") && writers.includes("totp.activateTotp"));
      const exempt = (w: string) => w in NOT_PUBLIC || w.split(".")[0] in NOT_PUBLIC;
      const missing = writers.filter((w) => !covered.has(w) && !exempt(w));
      assert.deepEqual(missing, [], "write functions neither run here nor listed in NOT_PUBLIC");
      const stale = Object.keys(NOT_PUBLIC).filter((name) =>
        !writers.some((w) => w === name || w.startsWith(`${name}.`))
      );
      assert.deepEqual(stale, [], "NOT_PUBLIC names no write function");
    });
  } finally {
    await app.close();
  }
});
