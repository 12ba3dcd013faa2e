import assert from "node:assert/strict";
import {
  checkAddPlayer,
  checkTeamComplete,
  DEFAULT_RULES,
  missingForTeam,
  type RulePlayer,
  rulesOf,
  suggestedSalaryCap,
  TEAM_SIZE,
  type TeamRules,
  teamSalary,
  validateTeam,
} from "@/lib/domain/team_rules.ts";
import type { Position } from "@/lib/domain/types.ts";

let nextId = 1;
function p(position: Position, teamId: number, salary = 5000, id = nextId++): RulePlayer {
  return { id, position, teamId, salary };
}
const rules: TeamRules = {
  maxPlayersPerTeam: 3,
  maxForwards: 2,
  minDefenders: 1,
  salaryCap: 50000,
};

/** A valid team: GK, DEF, MID, MID, FWD from three clubs, 25,000 in total. */
function validFive(): RulePlayer[] {
  return [p("GK", 1), p("DEF", 1), p("MID", 2), p("MID", 2), p("FWD", 3)];
}

const MSG = {
  complete: "You've already selected 5 players. Remove a player before adding another.",
  sameTeam3: "You can only select a maximum of 3 players from the same team.",
  forwards2: "You can only select a maximum of 2 forwards.",
  exact: "Please select exactly 5 players.",
  gk: "You must select at least 1 goalkeeper.",
  def: "You must select at least 1 defender.",
  dup: "Each player can only be selected once.",
};

Deno.test("[team_rules] TEAM_SIZE and defaults", () => {
  assert.equal(TEAM_SIZE, 5);
  assert.deepEqual({ ...DEFAULT_RULES }, rules);
});

Deno.test("[team_rules] rulesOf reads a competition with defaults", async (t) => {
  await t.step("set values are kept", () => {
    assert.deepEqual(
      rulesOf({ maxPlayersPerTeam: 2, maxForwards: 1, minDefenders: 2, salaryCap: 45000 }),
      { maxPlayersPerTeam: 2, maxForwards: 1, minDefenders: 2, salaryCap: 45000 },
    );
  });
  await t.step("missing fields take 3/2/1/50000", () => {
    assert.deepEqual(rulesOf({}), rules);
  });
  await t.step("null or unreadable counts take the defaults", () => {
    assert.deepEqual(
      rulesOf({ maxPlayersPerTeam: null, maxForwards: "x", minDefenders: NaN, salaryCap: 50000 }),
      rules,
    );
    assert.equal(rulesOf({ maxPlayersPerTeam: 0 }).maxPlayersPerTeam, 3);
    assert.equal(rulesOf({ minDefenders: -1 }).minDefenders, 1);
  });
  await t.step("numeric strings are read", () => {
    assert.deepEqual(
      rulesOf({ maxPlayersPerTeam: "2", maxForwards: "3", minDefenders: "0", salaryCap: "5000" }),
      { maxPlayersPerTeam: 2, maxForwards: 3, minDefenders: 0, salaryCap: 5000 },
    );
  });
  await t.step("maxForwards 0 and minDefenders 0 are kept", () => {
    const r = rulesOf({ maxForwards: 0, minDefenders: 0 });
    assert.equal(r.maxForwards, 0);
    assert.equal(r.minDefenders, 0);
  });
  await t.step("salaryCap null, 0 or negative means no cap", () => {
    assert.equal(rulesOf({ salaryCap: null }).salaryCap, null);
    assert.equal(rulesOf({ salaryCap: 0 }).salaryCap, null);
    assert.equal(rulesOf({ salaryCap: -5 }).salaryCap, null);
  });
});

Deno.test("[team_rules] teamSalary sums to the cent", () => {
  assert.equal(teamSalary([]), 0);
  assert.equal(teamSalary([{ salary: 0.1 }, { salary: 0.2 }]), 0.3);
  assert.equal(teamSalary(validFive()), 25000);
});

Deno.test("[team_rules] checkAddPlayer follows the rule order", async (t) => {
  await t.step("an allowed player → null", () => {
    assert.equal(checkAddPlayer([], p("GK", 1), rules), null);
    assert.equal(checkAddPlayer(validFive().slice(0, 4), p("DEF", 4), rules), null);
  });
  await t.step("5 already selected → Team Complete", () => {
    assert.deepEqual(checkAddPlayer(validFive(), p("DEF", 9), rules), {
      title: "Team Complete",
      message: MSG.complete,
    });
  });
  await t.step("3 from one team already → Team Constraint", () => {
    const three = [p("GK", 7), p("DEF", 7), p("MID", 7)];
    assert.deepEqual(checkAddPlayer(three, p("FWD", 7), rules), {
      title: "Team Constraint",
      message: MSG.sameTeam3,
    });
    assert.equal(checkAddPlayer(three, p("FWD", 8), rules), null);
  });
  await t.step("the per-team number follows maxPlayersPerTeam", () => {
    const two = [p("GK", 7), p("DEF", 7)];
    assert.deepEqual(checkAddPlayer(two, p("MID", 7), { ...rules, maxPlayersPerTeam: 2 }), {
      title: "Team Constraint",
      message: "You can only select a maximum of 2 players from the same team.",
    });
  });
  await t.step("forwards at maxForwards → Position Constraint", () => {
    const twoFwd = [p("FWD", 1), p("FWD", 2)];
    assert.deepEqual(checkAddPlayer(twoFwd, p("FWD", 3), rules), {
      title: "Position Constraint",
      message: MSG.forwards2,
    });
    assert.equal(checkAddPlayer(twoFwd, p("MID", 3), rules), null);
  });
  await t.step("the forwards number follows maxForwards", () => {
    assert.deepEqual(checkAddPlayer([p("FWD", 1)], p("FWD", 2), { ...rules, maxForwards: 1 }), {
      title: "Position Constraint",
      message: "You can only select a maximum of 1 forwards.",
    });
    assert.deepEqual(checkAddPlayer([], p("FWD", 2), { ...rules, maxForwards: 0 }), {
      title: "Position Constraint",
      message: "You can only select a maximum of 0 forwards.",
    });
  });
  await t.step("exceeding the cap → Salary Cap Exceeded with $cap and the overage", () => {
    const selected = [p("GK", 1, 12000), p("DEF", 2, 12000), p("MID", 3, 12000)];
    assert.deepEqual(checkAddPlayer(selected, p("FWD", 4, 15200), rules), {
      title: "Salary Cap Exceeded",
      message: "Your team salary cannot exceed $50,000. This would put you $1,200 over the cap.",
    });
  });
  await t.step("reaching the cap exactly is allowed", () => {
    const selected = [p("GK", 1, 12000), p("DEF", 2, 12000), p("MID", 3, 12000)];
    assert.equal(checkAddPlayer(selected, p("FWD", 4, 14000), rules), null);
  });
  await t.step("cents over the cap count (no float noise either way)", () => {
    const selected = [p("GK", 1, 0.1)];
    assert.equal(checkAddPlayer(selected, p("DEF", 2, 0.2), { ...rules, salaryCap: 0.3 }), null);
    assert.equal(
      checkAddPlayer(selected, p("DEF", 2, 0.21), { ...rules, salaryCap: 0.3 })?.title,
      "Salary Cap Exceeded",
    );
  });
  await t.step("a small cap is formatted with separators", () => {
    const v = checkAddPlayer([p("GK", 1, 4000)], p("DEF", 2, 2500), { ...rules, salaryCap: 5000 });
    assert.equal(
      v?.message,
      "Your team salary cannot exceed $5,000. This would put you $1,500 over the cap.",
    );
  });
  await t.step("no cap → never Salary Cap Exceeded", () => {
    assert.equal(
      checkAddPlayer([p("GK", 1, 1e9)], p("DEF", 2, 1e9), { ...rules, salaryCap: null }),
      null,
    );
  });
  await t.step("order: Team Complete before every other rule", () => {
    const full = [p("FWD", 1, 20000), p("FWD", 1, 20000), p("GK", 1), p("DEF", 2), p("MID", 2)];
    assert.equal(checkAddPlayer(full, p("FWD", 1, 99999), rules)?.title, "Team Complete");
  });
  await t.step("order: Team Constraint before Position Constraint and cap", () => {
    const sel = [p("FWD", 1, 20000), p("FWD", 1, 20000), p("GK", 1)];
    assert.equal(checkAddPlayer(sel, p("FWD", 1, 99999), rules)?.title, "Team Constraint");
  });
  await t.step("order: Position Constraint before the cap", () => {
    const sel = [p("FWD", 1, 20000), p("FWD", 2, 20000)];
    assert.equal(checkAddPlayer(sel, p("FWD", 3, 99999), rules)?.title, "Position Constraint");
  });
});

Deno.test("[team_rules] checkTeamComplete on continue", async (t) => {
  await t.step("a valid team → null", () => {
    assert.equal(checkTeamComplete(validFive(), rules), null);
  });
  await t.step("fewer or more than 5 → exactly 5", () => {
    for (const team of [[], validFive().slice(0, 4), [...validFive(), p("DEF", 4)]]) {
      assert.deepEqual(checkTeamComplete(team, rules), {
        title: "Team Incomplete",
        message: MSG.exact,
      });
    }
  });
  await t.step("no goalkeeper", () => {
    const team = [p("DEF", 1), p("DEF", 1), p("MID", 2), p("MID", 2), p("FWD", 3)];
    assert.deepEqual(checkTeamComplete(team, rules), { title: "Team Incomplete", message: MSG.gk });
  });
  await t.step("no defender", () => {
    const team = [p("GK", 1), p("MID", 1), p("MID", 2), p("MID", 2), p("FWD", 3)];
    assert.deepEqual(checkTeamComplete(team, rules), {
      title: "Team Incomplete",
      message: MSG.def,
    });
  });
  await t.step("minDefenders above 1 uses the plural message", () => {
    assert.deepEqual(checkTeamComplete(validFive(), { ...rules, minDefenders: 2 }), {
      title: "Team Incomplete",
      message: "You must select at least 2 defenders.",
    });
  });
  await t.step("minDefenders 0 allows no defender", () => {
    const team = [p("GK", 1), p("MID", 1), p("MID", 2), p("MID", 2), p("FWD", 3)];
    assert.equal(checkTeamComplete(team, { ...rules, minDefenders: 0 }), null);
  });
  await t.step("goalkeeper is checked before defenders", () => {
    const team = [p("MID", 1), p("MID", 1), p("MID", 2), p("MID", 2), p("FWD", 3)];
    assert.equal(checkTeamComplete(team, rules)?.message, MSG.gk);
  });
  await t.step("too many from one team", () => {
    const team = [p("GK", 1), p("DEF", 1), p("MID", 1), p("MID", 1), p("FWD", 3)];
    assert.deepEqual(checkTeamComplete(team, rules), {
      title: "Team Constraint",
      message: MSG.sameTeam3,
    });
  });
  await t.step("too many forwards", () => {
    const team = [p("GK", 1), p("DEF", 1), p("FWD", 2), p("FWD", 3), p("FWD", 4)];
    assert.deepEqual(checkTeamComplete(team, rules), {
      title: "Position Constraint",
      message: MSG.forwards2,
    });
  });
  await t.step("salary above the cap", () => {
    const team = [
      p("GK", 1, 10000),
      p("DEF", 1, 10000),
      p("MID", 2, 10000),
      p("MID", 2, 10000),
      p("FWD", 3, 11234),
    ];
    assert.deepEqual(checkTeamComplete(team, rules), {
      title: "Salary Cap Exceeded",
      message:
        "Your team salary ($51,234) exceeds the salary cap ($50,000). Please adjust your team.",
    });
  });
  await t.step("salary exactly at the cap passes; no cap never fails", () => {
    const team = [
      p("GK", 1, 10000),
      p("DEF", 1, 10000),
      p("MID", 2, 10000),
      p("MID", 2, 10000),
      p("FWD", 3, 10000),
    ];
    assert.equal(checkTeamComplete(team, rules), null);
    assert.equal(checkTeamComplete(team, { ...rules, salaryCap: 1 })?.title, "Salary Cap Exceeded");
    assert.equal(checkTeamComplete(team, { ...rules, salaryCap: null }), null);
  });
});

Deno.test("[team_rules] validateTeam lists every broken rule", async (t) => {
  await t.step("a valid team → []", () => {
    assert.deepEqual(validateTeam(validFive(), rules), []);
  });
  await t.step("size", () => {
    assert.deepEqual(validateTeam(validFive().slice(0, 4), rules), [MSG.exact]);
    assert.deepEqual(validateTeam([...validFive(), p("DEF", 5)], rules), [MSG.exact]);
  });
  await t.step("duplicate ids", () => {
    const team = validFive();
    team[3] = { ...team[2] };
    assert.deepEqual(validateTeam(team, rules), [MSG.dup]);
  });
  await t.step("per-team maximum", () => {
    const team = [p("GK", 1), p("DEF", 1), p("MID", 1), p("MID", 1), p("FWD", 3)];
    assert.deepEqual(validateTeam(team, rules), [MSG.sameTeam3]);
  });
  await t.step("goalkeeper, defender, forwards", () => {
    assert.deepEqual(
      validateTeam([p("MID", 1), p("FWD", 2), p("FWD", 3), p("FWD", 4), p("MID", 5)], rules),
      [MSG.gk, MSG.def, MSG.forwards2],
    );
  });
  await t.step("salary cap", () => {
    const team = validFive().map((pl) => ({ ...pl, salary: 10001 }));
    assert.deepEqual(validateTeam(team, rules), [
      "Your team salary ($50,005) exceeds the salary cap ($50,000). Please adjust your team.",
    ]);
    assert.deepEqual(validateTeam(team, { ...rules, salaryCap: null }), []);
  });
  await t.step("all at once, in order", () => {
    const dupe = p("FWD", 1, 30000);
    const team = [dupe, dupe, p("FWD", 1, 30000), p("FWD", 1, 30000)];
    assert.deepEqual(validateTeam(team, rules), [
      MSG.exact,
      MSG.dup,
      MSG.sameTeam3,
      MSG.gk,
      MSG.def,
      MSG.forwards2,
      "Your team salary ($120,000) exceeds the salary cap ($50,000). Please adjust your team.",
    ]);
  });
  await t.step("an empty team", () => {
    assert.deepEqual(validateTeam([], rules), [MSG.exact, MSG.gk, MSG.def]);
  });
  await t.step("custom rules change the numbers", () => {
    const strict: TeamRules = {
      maxPlayersPerTeam: 1,
      maxForwards: 1,
      minDefenders: 2,
      salaryCap: 20000,
    };
    assert.deepEqual(validateTeam(validFive(), strict), [
      "You can only select a maximum of 1 players from the same team.",
      "You must select at least 2 defenders.",
      "Your team salary ($25,000) exceeds the salary cap ($20,000). Please adjust your team.",
    ]);
  });
});

Deno.test("[team rules] a suggested cap leaves a team to build and not every team affordable", () => {
  const player = (id: number, position: string, teamId: number, salary: number) => ({
    id,
    position,
    teamId,
    salary,
  });
  const players = [
    player(1, "GK", 1, 5000),
    player(2, "DEF", 1, 6000),
    player(3, "MID", 1, 9000),
    player(4, "FWD", 1, 12000),
    player(5, "GK", 2, 5500),
    player(6, "DEF", 2, 6500),
    player(7, "MID", 2, 10000),
    player(8, "FWD", 2, 11000),
  ] as RulePlayer[];
  const rules = { maxPlayersPerTeam: 3, maxForwards: 2, minDefenders: 1 };
  const cap = suggestedSalaryCap(players, rules)!;
  // Cheapest five 32,000, priciest five 48,500: 70% of the way, up to the next 1,000.
  assert.equal(cap, 44000);
  assert.equal(missingForTeam(players, { ...rules, salaryCap: cap }), null, "a team fits");
  assert.equal(suggestedSalaryCap(players.slice(0, 4), rules), null, "fewer than 5 players");
  // Only forwards are cheap: the suggestion climbs until a legal team fits.
  const dearKeepers = players.map((p) => p.position === "GK" ? { ...p, salary: 30000 } : p);
  const high = suggestedSalaryCap(dearKeepers, rules)!;
  assert.equal(missingForTeam(dearKeepers, { ...rules, salaryCap: high }), null);
});
