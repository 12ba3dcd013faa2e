import assert from "node:assert/strict";
import {
  checkAddPlayer,
  DEFAULT_RULES,
  missingForTeam,
  type RulePlayer,
  rulesOf,
} from "@/lib/domain/team_rules.ts";
import type { Position } from "@/lib/domain/types.ts";

let nextId = 1;
function squad(teamId: number, positions: Position[], salary = 1000): RulePlayer[] {
  return positions.map((position) => ({ id: nextId++, position, teamId, salary }));
}

Deno.test("[team rules] missingForTeam says what stops a valid team", async (t) => {
  const full = [...squad(1, ["GK", "DEF", "MID"]), ...squad(2, ["DEF", "FWD", "MID"])];
  const cases: [string, RulePlayer[], typeof DEFAULT_RULES, string | null][] = [
    ["a playable squad", full, DEFAULT_RULES, null],
    ["no players", [], DEFAULT_RULES, "No players have been added yet."],
    ["four players", full.slice(0, 4), DEFAULT_RULES, "Only 4 players: a team needs 5."],
    [
      "no goalkeeper",
      full.filter((p) => p.position !== "GK").concat(squad(3, ["MID"])),
      DEFAULT_RULES,
      "No goalkeeper: a team needs at least 1.",
    ],
    [
      "min defenders 3",
      full,
      { ...DEFAULT_RULES, minDefenders: 3 },
      "Only 2 defenders: a team needs at least 3.",
    ],
    [
      "one club",
      squad(4, ["GK", "DEF", "MID", "MID", "FWD", "DEF"]),
      DEFAULT_RULES,
      "Too few clubs: at most 3 players may come from one club.",
    ],
    [
      "forwards",
      [...squad(5, ["GK", "FWD", "FWD"]), ...squad(6, ["DEF", "FWD", "FWD"])],
      { ...DEFAULT_RULES, minDefenders: 1 },
      "Too many forwards: a team may have at most 2.",
    ],
    [
      "the defaults' $5,000 cap with $1,000 players",
      full,
      { ...DEFAULT_RULES, salaryCap: 4999 },
      "No 5 players fit the rules under the salary cap of $4,999.",
    ],
    ["exactly at the cap", full, { ...DEFAULT_RULES, salaryCap: 5000 }, null],
  ];
  for (const [name, players, rules, expected] of cases) {
    await t.step(name, () => assert.equal(missingForTeam(players, rules), expected));
  }
  await t.step("cheap players of the wrong shape do not hide an expensive valid team", () => {
    const cheap = squad(7, ["MID", "MID", "MID"], 100);
    const team = [...squad(8, ["GK", "DEF"], 9000), ...squad(9, ["MID", "FWD", "MID"], 9000)];
    assert.equal(missingForTeam([...cheap, ...team], DEFAULT_RULES), null);
    assert.notEqual(
      missingForTeam([...cheap, ...team], { ...DEFAULT_RULES, salaryCap: 18000 }),
      null,
    );
  });
  // How long seventy players take is a figure of `deno task bench domain`.
  await t.step("seventy players of ten clubs", () => {
    const many: RulePlayer[] = [];
    for (let club = 1; club <= 10; club++) {
      many.push(...squad(100 + club, ["GK", "DEF", "DEF", "MID", "MID", "FWD", "FWD"], 9000));
    }
    assert.notEqual(missingForTeam(many, { ...DEFAULT_RULES, salaryCap: 40000 }), null);
    assert.equal(missingForTeam(many, { ...DEFAULT_RULES, salaryCap: 45000 }), null);
  });
});

Deno.test("[team rules] a GBP contest's cap messages are in pounds, overage included", () => {
  const rules = rulesOf({ salaryCap: 40000, currency: "GBP" });
  const team = squad(20, ["GK", "DEF"], 15000).concat(squad(21, ["MID"], 9000));
  const over = checkAddPlayer(team, squad(22, ["FWD"], 2500)[0], rules);
  assert.equal(
    over?.message,
    "Your team salary cannot exceed £40,000. This would put you £1,500 over the cap.",
  );
});
