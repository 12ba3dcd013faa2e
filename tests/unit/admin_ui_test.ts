import assert from "node:assert/strict";
import { adminFetch, errorText, isNotFound } from "@/lib/client/admin/admin_api.ts";
import { ApiError } from "@/lib/client/api.ts";
import { matchStateText, matchStateVariant } from "@/lib/client/admin/labels.ts";
import {
  competitionPayload,
  defaultCompetitionValues,
  validateCompetition,
} from "@/lib/client/admin/competition_form.ts";
import {
  daysAheadParts,
  formatAdminDate,
  formatAdminDateUtc,
  fromLocalParts,
  toLocalParts,
} from "@/lib/client/admin/datetime.ts";
import { defaultMatchValues, outcomeOf, validateMatch } from "@/lib/client/admin/match_form.ts";
import {
  clubOptions,
  filterPlayers,
  pageCount,
  pageRows,
} from "@/lib/client/admin/player_table.ts";
import { offersSampleTeams } from "@/lib/client/admin/teams.ts";
import { validateClub } from "@/lib/client/admin/clubs.ts";
import { rowStats } from "@/components/admin/CompetitionsTable.tsx";
import type { CompetitionRow } from "@/lib/client/admin/types.ts";
import { competitionRevenue } from "@/lib/domain/competition.ts";
import { draftErrors, draftOf, draftPoints } from "@/lib/client/admin/performance_draft.ts";
import type { PlayerWithTeam } from "@/lib/client/admin/types.ts";

Deno.test("[admin-ui] deadlines are entered locally and stored as UTC", async (t) => {
  await t.step("a local date and time round-trips through UTC", () => {
    const iso = "2030-03-31T01:30:00.000Z";
    assert.equal(fromLocalParts(toLocalParts(iso)), iso);
  });
  await t.step("missing or invalid parts give null / empty parts", () => {
    assert.equal(fromLocalParts({ date: "", time: "10:00" }), null);
    assert.equal(fromLocalParts({ date: "2030-02-31x", time: "" }), null);
    assert.deepEqual(toLocalParts("nonsense"), { date: "", time: "" });
  });
  await t.step("defaults are 7 days ahead, rounded up to the hour", () => {
    const now = new Date("2030-01-01T10:20:00Z");
    const at = new Date(fromLocalParts(daysAheadParts(7, now))!);
    const ms = at.getTime() - now.getTime();
    assert.ok(ms > 7 * 86_400_000 && ms <= 7 * 86_400_000 + 3_600_000);
    assert.equal(at.getMinutes(), 0);
  });
});

Deno.test("[admin-ui] the competition form uses the product defaults and messages", async (t) => {
  const values = defaultCompetitionValues(new Date("2030-01-01T10:00:00Z"));
  await t.step("defaults: fee 10, pool 100, USD, CASH, UPCOMING, 100 entries, cap 50000", () => {
    assert.deepEqual(
      [values.entryFee, values.prizePool, values.currency, values.prizeType, values.status],
      ["10", "100", "USD", "CASH", "UPCOMING"],
    );
    assert.deepEqual(
      [values.maxEntries, values.maxPlayersPerTeam, values.maxForwards, values.minDefenders],
      ["100", "3", "2", "1"],
    );
    assert.equal(values.salaryCap, "50000", "the rules' cap until a match suggests one");
  });
  await t.step("a blank name and deadline give the agreed messages", () => {
    const errors = validateCompetition({ ...values, deadlineDate: "" });
    assert.equal(errors?.name, "Name is required");
    assert.equal(errors?.deadline, "Deadline is required");
  });
  await t.step("money must be positive; blank max entries means unlimited", () => {
    const errors = validateCompetition({ ...values, name: "X", entryFee: "0", prizePool: "-1" });
    assert.equal(errors?.entryFee, "Entry fee must be positive");
    assert.equal(errors?.prizePool, "Prize pool must be positive");
    const payload = competitionPayload({ ...values, name: "X", maxEntries: " " });
    assert.equal(payload.maxEntries, null);
    assert.equal(payload.entryFee, "10", "money is sent as a string");
  });
  await t.step("captains: off by default, the multiplier sent only when on, 1.5–3", () => {
    assert.equal(values.captains, false);
    assert.equal(competitionPayload({ ...values, name: "X" }).captainMultiplier, null);
    const on = { ...values, name: "X", captains: true, captainMultiplier: "2.5" };
    assert.equal(competitionPayload(on).captainMultiplier, "2.5");
    assert.equal(validateCompetition(on), null);
    assert.equal(
      validateCompetition({ ...on, captainMultiplier: "3.5" })?.captainMultiplier,
      "Captain multiplier must be from 1.5 to 3 in steps of 0.1",
    );
    assert.equal(validateCompetition({ ...on, captainMultiplier: "3.5", captains: false }), null);
  });
  await t.step("the prize description is sent only for NON_CASH", () => {
    const base = { ...values, name: "X", customPrizeDescription: "Signed ball" };
    assert.equal(competitionPayload(base).customPrizeDescription, null);
    assert.equal(
      competitionPayload({ ...base, prizeType: "NON_CASH" }).customPrizeDescription,
      "Signed ball",
    );
  });
});

Deno.test("[admin-ui] the match form validates teams and computes the result", () => {
  const values = { ...defaultMatchValues(), homeTeamId: "1", awayTeamId: "1", stadium: "" };
  const errors = validateMatch(values);
  assert.equal(errors?.awayTeamId, "Home team and away team cannot be the same");
  assert.equal(errors?.stadium, "Stadium is required");
  assert.equal(validateMatch({ ...defaultMatchValues() })?.homeTeamId, "Home team is required");
  assert.deepEqual(outcomeOf({ ...values, homeScore: "2", awayScore: "1" }), {
    result: "HOME_WIN",
    status: "COMPLETED",
  });
  assert.equal(outcomeOf({ ...values, homeScore: "1", awayScore: "1" }).result, "DRAW");
  assert.equal(outcomeOf({ ...values, homeScore: "1", awayScore: "" }).result, "NOT_PLAYED");
});

Deno.test("[admin-ui] the players table searches name, position and team, 10 a page", () => {
  const team = {
    id: 1,
    name: "Riverside Rovers",
    shortName: "RIV",
    league: "PREMIER_LEAGUE" as const,
    logoUrl: null,
  };
  const players: PlayerWithTeam[] = Array.from({ length: 23 }, (_, i) => ({
    id: i + 1,
    name: i === 0 ? "Alice Keeper" : `Player ${i + 1}`,
    position: i === 0 ? "GK" : "MID",
    teamId: 1,
    imageUrl: null,
    salary: 1000,
    goals: 0,
    assists: 0,
    cleanSheets: 0,
    team: i < 2 ? team : null,
  }));
  assert.deepEqual(filterPlayers(players, "alice").map((p) => p.id), [1]);
  assert.deepEqual(filterPlayers(players, "gk").map((p) => p.id), [1]);
  assert.deepEqual(filterPlayers(players, "rovers").map((p) => p.id), [1, 2]);
  assert.equal(filterPlayers(players, "  ").length, 23);
  assert.equal(pageCount(23), 3);
  assert.equal(pageCount(0), 1);
  assert.deepEqual(pageRows(players, 3).map((p) => p.id), [21, 22, 23]);
});

Deno.test("[admin-ui] performance rows score live and respect the input limits", () => {
  const record = {
    player: { id: 7, name: "Mid", position: "MID" as const },
    performance: { minutesPlayed: 90, goals: 1, assists: 1, bonus: 3 },
  };
  const draft = draftOf(record);
  assert.equal(draftPoints("MID", draft), 2 + 5 + 3 + 3);
  assert.equal(draftPoints("MID", { ...draft, bonus: "1" }), 13, "any positive bonus is 3");
  assert.equal(draftErrors(7, "MID", draft), null);
  assert.equal(
    draftErrors(7, "MID", { ...draft, minutesPlayed: "95" })?.minutesPlayed,
    "Minutes must be between 0 and 90",
  );
  assert.equal(
    draftErrors(7, "MID", { ...draft, yellowCards: "3" })?.yellowCards,
    "Yellow cards must be between 0 and 2",
  );
  assert.ok(draftErrors(7, "MID", { ...draft, goals: "-1" })?.goals);
});

Deno.test("[admin-ui] a failed admin call reads 'status: body' and the server message", async (t) => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/json") return Response.json({ message: "Name is required" }, { status: 400 });
      if (path === "/empty") return new Response(null, { status: 404, statusText: "Not Found" });
      return Response.json([{ id: 1 }]);
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await t.step("a JSON error keeps its message field", async () => {
      const err = await adminFetch(`${base}/json`).catch((e) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.message, '400: {"message":"Name is required"}');
      assert.equal(err.serverMessage, "Name is required");
      assert.equal(errorText(err, "Failed to create competition"), "Name is required");
    });
    await t.step("an empty body gives the status text and the fallback", async () => {
      const err = await adminFetch(`${base}/empty`).catch((e) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.message, "404: Not Found");
      assert.ok(isNotFound(err));
      assert.equal(errorText(err, "Failed to update match"), "Failed to update match");
    });
    await t.step("a success returns the decoded JSON", async () => {
      assert.deepEqual(await adminFetch(`${base}/ok`), [{ id: 1 }]);
    });
    await t.step("an exception is 'An unexpected error occurred'", () => {
      assert.equal(errorText(new TypeError("network"), "x"), "An unexpected error occurred");
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("[admin-ui] Manage Players filters by club and position, with the search", async (t) => {
  const club = (id: number, name: string) => ({
    id,
    name,
    shortName: name.slice(0, 3).toUpperCase(),
    league: "PREMIER_LEAGUE" as const,
    logoUrl: null,
  });
  const rovers = club(1, "Riverside Rovers");
  const city = club(2, "Ashford City");
  const player = (id: number, name: string, position: PlayerWithTeam["position"], team = rovers) =>
    ({
      id,
      name,
      position,
      teamId: team.id,
      imageUrl: null,
      salary: 1000,
      goals: 0,
      assists: 0,
      cleanSheets: 0,
      team,
    }) satisfies PlayerWithTeam;
  const players = [
    player(1, "Ann Keeper", "GK"),
    player(2, "Bob Back", "DEF"),
    player(3, "Cid Keeper", "GK", city),
    player(4, "Dan Striker", "FWD", city),
  ];
  const ids = (rows: PlayerWithTeam[]) => rows.map((p) => p.id);
  await t.step("a club keeps only its players", () => {
    assert.deepEqual(ids(filterPlayers(players, "", { teamId: "2", position: "ALL" })), [3, 4]);
  });
  await t.step("a position keeps only that position", () => {
    assert.deepEqual(ids(filterPlayers(players, "", { teamId: "ALL", position: "GK" })), [1, 3]);
  });
  await t.step("club, position and search combine", () => {
    assert.deepEqual(ids(filterPlayers(players, "", { teamId: "1", position: "GK" })), [1]);
    assert.deepEqual(ids(filterPlayers(players, "dan", { teamId: "1", position: "ALL" })), []);
    assert.deepEqual(ids(filterPlayers(players, "keeper", { teamId: "2", position: "GK" })), [3]);
  });
  await t.step("the club options are the players' distinct clubs by name", () => {
    assert.deepEqual(clubOptions(players), [
      { id: 2, name: "Ashford City" },
      { id: 1, name: "Riverside Rovers" },
    ]);
  });
});

Deno.test("[admin-ui] sample teams are offered on an empty site only", () => {
  assert.equal(offersSampleTeams([]), true);
  assert.equal(offersSampleTeams([{ name: "Northgate United" }]), false);
});

Deno.test("[admin-ui] the club form checks what the server checks", () => {
  assert.equal(
    validateClub({ name: "Eastfield", shortName: "EFW", league: "SERIE_A", logoUrl: "" }),
    null,
  );
  assert.deepEqual(
    validateClub({ name: " ", shortName: "", league: "SERIE_A", logoUrl: "ftp://x" }),
    {
      name: "Team name is required",
      shortName: "Short name is required",
      logoUrl: "Must be an http(s) URL or a path starting with /",
    },
  );
});

Deno.test("[admin-ui] a cancelled competition counts no revenue on the dashboard", async (t) => {
  await t.step("the domain rule", () => {
    const base = { currentEntries: 4, entryFee: 12.5 };
    assert.equal(competitionRevenue({ ...base, status: "LIVE" }), 50);
    assert.equal(competitionRevenue({ ...base, status: "CANCELLED" }), 0);
  });
  await t.step("a row cancelled on screen drops the revenue it was loaded with", () => {
    const row = {
      status: "CANCELLED",
      entries: 4,
      currentEntries: 4,
      entryFee: 12.5,
      revenue: 50,
    } as CompetitionRow;
    assert.deepEqual(rowStats(row), { entries: 4, revenue: 0 });
    assert.deepEqual(rowStats({ ...row, status: "LIVE" }), { entries: 4, revenue: 50 });
  });
});

Deno.test("[admin ui] dates read as on the public pages: 24-hour clock, day before month", () => {
  const at = new Date(2031, 5, 15, 18, 30).toISOString();
  assert.equal(formatAdminDate(at), "15 Jun 2031, 18:30");
  assert.equal(formatAdminDate(null), "—");
  assert.equal(formatAdminDate("not a date"), "—");
});

Deno.test("[admin-ui] the matches list says a match in play is in play, not a result", () => {
  const base = { result: "AWAY_WIN", homeScore: 1, awayScore: 2 };
  assert.equal(matchStateText({ ...base, status: "LIVE" }), "In play 1–2");
  assert.equal(matchStateVariant({ ...base, status: "LIVE" }), "live");
  assert.equal(matchStateText({ ...base, status: "COMPLETED" }), "Away Win 1–2");
  assert.equal(
    matchStateText({ status: "UPCOMING", result: "NOT_PLAYED", homeScore: null, awayScore: null }),
    "Not Played",
  );
  assert.equal(matchStateText({ ...base, status: "POSTPONED" }), "Postponed");
});

Deno.test("[admin-ui] one date format: '15 Jun 2031, 18:30', with UTC named where the server renders it", () => {
  assert.equal(formatAdminDateUtc("2031-06-15T18:30:42Z"), "15 Jun 2031, 18:30 UTC");
  assert.equal(
    formatAdminDateUtc("2031-06-15T18:30:42Z", { seconds: true }),
    "15 Jun 2031, 18:30:42 UTC",
  );
  assert.equal(formatAdminDateUtc("2031-06-05T08:03:00Z", { time: false }), "5 Jun 2031");
  assert.equal(formatAdminDateUtc(null), "—");
  assert.equal(formatAdminDateUtc("not a date"), "—");
});
