import assert from "node:assert/strict";
import type * as z from "zod/mini";
import {
  matchInputSchema,
  playerInputSchema,
  playerPatchSchema,
  teamInputSchema,
} from "@/lib/domain/schemas/catalog.ts";
import {
  competitionInputSchema,
  playerIdsBodySchema,
  prizeStructureInputSchema,
} from "@/lib/domain/schemas/competitions.ts";
import { zodIssues } from "@/lib/domain/schemas/fields.ts";
import {
  gameEventInputSchema,
  performanceInputSchema,
  performancesBodySchema,
} from "@/lib/domain/schemas/match_day.ts";
import {
  entryCreateSchema,
  loginSchema,
  luhnValid,
  paymentFormSchema,
  paymentIntentSchema,
  testEmailSchema,
  testPaymentConfirmSchema,
  wsClientMessageSchema,
} from "@/lib/domain/schemas/public.ts";

/** The issues of a failed parse as [path, message] pairs (fails the test if parsing succeeds). */
function issues(schema: z.ZodMiniType, input: unknown): [string, string][] {
  const r = schema.safeParse(input);
  assert.equal(r.success, false, `expected ${JSON.stringify(input)} to be rejected`);
  return zodIssues(r.error!).map((i) => [i.path.join("."), i.message]);
}

/** The message on one path (the first one). */
function messageAt(schema: z.ZodMiniType, input: unknown, path: string): string | undefined {
  return issues(schema, input).find(([p]) => p === path)?.[1];
}

function ok<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) {
    assert.fail(`rejected ${JSON.stringify(input)}: ${JSON.stringify(zodIssues(r.error))}`);
  }
  return r.data;
}

Deno.test("[schemas] paymentFormSchema (payment form)", async (t) => {
  const valid = { email: "fan@example.com", confirmEmail: "fan@example.com", teamName: "Jo" };
  await t.step("valid values pass, trimmed", () => {
    assert.deepEqual(
      ok(paymentFormSchema, { ...valid, teamName: "  Jo  ", email: " fan@example.com " }),
      valid,
    );
  });
  await t.step("missing fields get the agreed messages", () => {
    assert.deepEqual(issues(paymentFormSchema, {}), [
      ["email", "Please provide a valid email"],
      ["confirmEmail", "Please provide a valid email"],
      ["teamName", "Display name must be at least 2 characters"],
    ]);
  });
  await t.step("empty strings get the agreed messages", () => {
    assert.deepEqual(issues(paymentFormSchema, { email: "", confirmEmail: "", teamName: "" }), [
      ["email", "Please provide a valid email"],
      ["confirmEmail", "Please provide a valid email"],
      ["teamName", "Display name must be at least 2 characters"],
    ]);
  });
  await t.step("invalid e-mail", () => {
    assert.equal(
      messageAt(paymentFormSchema, { ...valid, email: "nope" }, "email"),
      "Please provide a valid email",
    );
    assert.equal(
      messageAt(paymentFormSchema, { ...valid, confirmEmail: "a@" }, "confirmEmail"),
      "Please provide a valid email",
    );
  });
  await t.step("emails do not match → on confirmEmail", () => {
    assert.deepEqual(issues(paymentFormSchema, { ...valid, confirmEmail: "other@example.com" }), [
      ["confirmEmail", "Emails do not match"],
    ]);
  });
  await t.step("e-mail comparison ignores case", () => {
    ok(paymentFormSchema, { ...valid, confirmEmail: "FAN@example.com" });
  });
  await t.step("display name bounds 2..30", () => {
    assert.equal(
      messageAt(paymentFormSchema, { ...valid, teamName: "J" }, "teamName"),
      "Display name must be at least 2 characters",
    );
    assert.equal(
      messageAt(paymentFormSchema, { ...valid, teamName: " J " }, "teamName"),
      "Display name must be at least 2 characters",
    );
    assert.equal(
      messageAt(paymentFormSchema, { ...valid, teamName: "x".repeat(31) }, "teamName"),
      "Display name cannot exceed 30 characters",
    );
    ok(paymentFormSchema, { ...valid, teamName: "x".repeat(30) });
  });
});

Deno.test("[schemas] entryCreateSchema (server entry schema)", async (t) => {
  const valid = {
    competitionId: 3,
    email: "fan@example.com",
    teamName: "Gaffers",
    playerIds: [1, 2, 3, 4, 5],
    stripePaymentId: "pi_123",
  };
  await t.step("valid body passes", () => {
    assert.deepEqual(ok(entryCreateSchema, valid), valid);
  });
  await t.step("competitionId and playerIds may be numeric strings", () => {
    const out = ok(entryCreateSchema, { ...valid, competitionId: "3", playerIds: ["1", 2] });
    assert.equal(out.competitionId, 3);
    assert.deepEqual(out.playerIds, [1, 2]);
  });
  await t.step("stripePaymentId is optional", () => {
    const { stripePaymentId: _, ...rest } = valid;
    assert.equal(ok(entryCreateSchema, rest).stripePaymentId, undefined);
  });
  await t.step("missing fields", () => {
    assert.deepEqual(issues(entryCreateSchema, {}), [
      ["competitionId", "Competition is required"],
      ["email", "Please provide a valid email"],
      ["teamName", "Display name must be at least 2 characters"],
      ["playerIds", "You must select at least 2 players"],
    ]);
  });
  await t.step("display name 2..30, the same rule as the payment form", () => {
    assert.equal(
      messageAt(entryCreateSchema, { ...valid, teamName: "J" }, "teamName"),
      "Display name must be at least 2 characters",
    );
    assert.equal(ok(entryCreateSchema, { ...valid, teamName: "AB" }).teamName, "AB");
    assert.equal(
      messageAt(entryCreateSchema, { ...valid, teamName: "x".repeat(31) }, "teamName"),
      "Display name cannot exceed 30 characters",
    );
  });
  await t.step("at least 2 players", () => {
    assert.equal(
      messageAt(entryCreateSchema, { ...valid, playerIds: [1] }, "playerIds"),
      "You must select at least 2 players",
    );
    assert.equal(
      messageAt(entryCreateSchema, { ...valid, playerIds: "1,2" }, "playerIds"),
      "You must select at least 2 players",
    );
  });
  await t.step("player ids must be positive integers", () => {
    assert.deepEqual(issues(entryCreateSchema, { ...valid, playerIds: [1, -2, 1.5, "x"] }), [
      ["playerIds.1", "Player ids must be positive integers"],
      ["playerIds.2", "Player ids must be positive integers"],
      ["playerIds.3", "Player ids must be positive integers"],
    ]);
  });
  await t.step("competitionId must be a positive integer", () => {
    for (const bad of [0, -1, 1.5, "abc", null, true]) {
      assert.equal(
        messageAt(entryCreateSchema, { ...valid, competitionId: bad }, "competitionId"),
        "Competition is required",
        String(bad),
      );
    }
  });
});

Deno.test("[schemas] paymentIntentSchema", async (t) => {
  await t.step("competitionId alone", () => {
    assert.deepEqual(ok(paymentIntentSchema, { competitionId: 1 }), { competitionId: 1 });
  });
  await t.step("optional checkout details are validated with the server rules", () => {
    const out = ok(paymentIntentSchema, {
      competitionId: "2",
      email: "a@b.co",
      teamName: " Abc ",
      playerIds: [1, 2, 3, 4, 5],
    });
    assert.deepEqual(out, {
      competitionId: 2,
      email: "a@b.co",
      teamName: "Abc",
      playerIds: [1, 2, 3, 4, 5],
    });
    assert.equal(
      messageAt(paymentIntentSchema, { competitionId: 1, teamName: "J" }, "teamName"),
      "Display name must be at least 2 characters",
    );
    assert.equal(
      messageAt(paymentIntentSchema, { competitionId: 1, email: "x" }, "email"),
      "Please provide a valid email",
    );
  });
  await t.step("blank optional details are dropped", () => {
    const out = ok(paymentIntentSchema, { competitionId: 1, email: "", teamName: "  " });
    assert.deepEqual([out.competitionId, out.email, out.teamName], [1, undefined, undefined]);
  });
  await t.step("competitionId is required and positive", () => {
    assert.deepEqual(issues(paymentIntentSchema, {}), [[
      "competitionId",
      "Competition is required",
    ]]);
    assert.deepEqual(issues(paymentIntentSchema, { competitionId: 0 }), [[
      "competitionId",
      "Competition is required",
    ]]);
  });
});

Deno.test("[schemas] test payments and Luhn", async (t) => {
  await t.step("testPaymentConfirmSchema", () => {
    assert.deepEqual(
      ok(testPaymentConfirmSchema, {
        paymentIntentId: "pi_test_1",
        cardNumber: "4242 4242 4242 4242",
      }),
      {
        paymentIntentId: "pi_test_1",
        cardNumber: "4242 4242 4242 4242",
      },
    );
    assert.deepEqual(issues(testPaymentConfirmSchema, {}), [
      ["paymentIntentId", "Payment intent is required"],
      ["cardNumber", "Card number is required"],
    ]);
    assert.deepEqual(issues(testPaymentConfirmSchema, { paymentIntentId: "", cardNumber: " " }), [
      ["paymentIntentId", "Payment intent is required"],
      ["cardNumber", "Card number is required"],
    ]);
  });
  await t.step("luhnValid accepts the test cards, spaces and dashes ignored", () => {
    assert.equal(luhnValid("4242 4242 4242 4242"), true);
    assert.equal(luhnValid("4242424242424242"), true);
    assert.equal(luhnValid("4000 0000 0000 0002"), true);
    assert.equal(luhnValid("4000-0000-0000-0002"), true);
    assert.equal(luhnValid("5555 5555 5555 4444"), true);
    assert.equal(luhnValid("3782 822463 10005"), true);
  });
  await t.step("luhnValid rejects bad checksums, letters and wrong lengths", () => {
    assert.equal(luhnValid("4242 4242 4242 4241"), false);
    assert.equal(luhnValid("1234 5678 9012 3456"), false);
    assert.equal(luhnValid("4242 4242 4242 424a"), false);
    assert.equal(luhnValid(""), false);
    assert.equal(luhnValid("0"), false);
    assert.equal(luhnValid("00000000000"), false);
    assert.equal(luhnValid("0".repeat(20)), false);
  });
});

Deno.test("[schemas] loginSchema and testEmailSchema", async (t) => {
  await t.step("login messages when missing or empty", () => {
    const expected = [["username", "Username is required"], ["password", "Password is required"]];
    assert.deepEqual(issues(loginSchema, {}), expected);
    assert.deepEqual(issues(loginSchema, { username: "  ", password: "" }), expected);
    assert.deepEqual(issues(loginSchema, { username: null, password: null }), expected);
  });
  await t.step("login passes, username trimmed, password kept as typed", () => {
    assert.deepEqual(ok(loginSchema, { username: " admin ", password: " secret " }), {
      username: "admin",
      password: " secret ",
    });
  });
  await t.step("test email: empty → the agreed message, invalid → valid email", () => {
    const empty = "Please enter an email address to send the test email to.";
    assert.deepEqual(issues(testEmailSchema, {}), [["email", empty]]);
    assert.deepEqual(issues(testEmailSchema, { email: "  " }), [["email", empty]]);
    assert.deepEqual(issues(testEmailSchema, { email: "nope" }), [[
      "email",
      "Please provide a valid email",
    ]]);
    assert.deepEqual(ok(testEmailSchema, { email: " me@example.com " }), {
      email: "me@example.com",
    });
  });
});

Deno.test("[schemas] competitionInputSchema", async (t) => {
  const valid = {
    name: "Derby Day",
    league: "PREMIER_LEAGUE",
    entryFee: "10",
    prizePool: "100",
    deadline: "2030-05-01T18:30:00.000Z",
  };
  await t.step("defaults are applied", () => {
    assert.deepEqual(ok(competitionInputSchema, valid), {
      name: "Derby Day",
      description: null,
      matchId: null,
      roundId: null,
      league: "PREMIER_LEAGUE",
      entryFee: 10,
      prizePool: 100,
      currency: "USD",
      prizeType: "CASH",
      customPrizeDescription: null,
      deadline: "2030-05-01T18:30:00.000Z",
      status: "UPCOMING",
      maxEntries: null,
      imageUrl: null,
      maxPlayersPerTeam: 3,
      maxForwards: 2,
      minDefenders: 1,
      salaryCap: 50000,
      minEntries: null,
      maxEntriesPerPerson: 1,
    });
  });
  await t.step("all fields set, strings coerced, money rounded to cents", () => {
    const out = ok(competitionInputSchema, {
      ...valid,
      description: "  Big one ",
      matchId: "7",
      entryFee: "10.005",
      prizePool: 250.499,
      currency: "GBP",
      prizeType: "NON_CASH",
      customPrizeDescription: "Signed shirt",
      deadline: new Date("2030-05-01T18:30:00Z"),
      status: "LIVE",
      maxEntries: "100",
      imageUrl: "https://example.com/x.png",
      maxPlayersPerTeam: "2",
      maxForwards: 1,
      minDefenders: "0",
      salaryCap: "5000",
    });
    assert.deepEqual(out, {
      name: "Derby Day",
      description: "Big one",
      matchId: 7,
      roundId: null,
      league: "PREMIER_LEAGUE",
      entryFee: 10.01,
      prizePool: 250.5,
      currency: "GBP",
      prizeType: "NON_CASH",
      customPrizeDescription: "Signed shirt",
      deadline: "2030-05-01T18:30:00.000Z",
      status: "LIVE",
      maxEntries: 100,
      imageUrl: "https://example.com/x.png",
      maxPlayersPerTeam: 2,
      maxForwards: 1,
      minDefenders: 0,
      salaryCap: 5000,
      minEntries: null,
      maxEntriesPerPerson: 1,
    });
  });
  await t.step("required fields missing → the agreed messages", () => {
    assert.deepEqual(issues(competitionInputSchema, {}), [
      ["name", "Name is required"],
      ["league", "League is required"],
      ["entryFee", "Entry fee must be positive"],
      ["prizePool", "Prize pool must be positive"],
      ["deadline", "Deadline is required"],
    ]);
  });
  await t.step("required fields blank → the agreed messages", () => {
    assert.deepEqual(
      issues(competitionInputSchema, {
        name: " ",
        league: "",
        entryFee: "",
        prizePool: "",
        deadline: "",
      }),
      [
        ["name", "Name is required"],
        ["league", "League is required"],
        ["entryFee", "Entry fee must be positive"],
        ["prizePool", "Prize pool must be positive"],
        ["deadline", "Deadline is required"],
      ],
    );
  });
  await t.step("money must be positive", () => {
    for (const bad of [0, -5, "0", "-1", "abc"]) {
      assert.equal(
        messageAt(competitionInputSchema, { ...valid, entryFee: bad }, "entryFee"),
        "Entry fee must be positive",
      );
      assert.equal(
        messageAt(competitionInputSchema, { ...valid, prizePool: bad }, "prizePool"),
        "Prize pool must be positive",
      );
      assert.equal(
        messageAt(competitionInputSchema, { ...valid, salaryCap: bad }, "salaryCap"),
        "Salary cap must be positive",
      );
    }
  });
  await t.step("an invalid deadline or null", () => {
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, deadline: "not a date" }, "deadline"),
      "Deadline is required",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, deadline: null }, "deadline"),
      "Deadline is required",
    );
  });
  await t.step("max entries: blank or null → unlimited; else a positive integer", () => {
    assert.equal(ok(competitionInputSchema, { ...valid, maxEntries: "" }).maxEntries, null);
    assert.equal(ok(competitionInputSchema, { ...valid, maxEntries: null }).maxEntries, null);
    for (const bad of [0, -1, 2.5, "x"]) {
      assert.equal(
        messageAt(competitionInputSchema, { ...valid, maxEntries: bad }, "maxEntries"),
        "Max entries must be a positive integer",
      );
    }
  });
  await t.step("team rule fields: integers in range, blank → default", () => {
    const out = ok(competitionInputSchema, {
      ...valid,
      maxPlayersPerTeam: "",
      maxForwards: null,
      minDefenders: "",
    });
    assert.deepEqual([out.maxPlayersPerTeam, out.maxForwards, out.minDefenders], [3, 2, 1]);
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, maxPlayersPerTeam: 0 }, "maxPlayersPerTeam"),
      "Max players per team must be an integer from 1 to 5",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, maxPlayersPerTeam: 6 }, "maxPlayersPerTeam"),
      "Max players per team must be an integer from 1 to 5",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, maxForwards: 0 }, "maxForwards"),
      "Max forwards must be an integer from 1 to 5",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, maxForwards: 1.5 }, "maxForwards"),
      "Max forwards must be an integer from 1 to 5",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, minDefenders: -1 }, "minDefenders"),
      "Min defenders must be an integer from 0 to 5",
    );
  });
  await t.step("enums are checked", () => {
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, league: "MLS" }, "league"),
      "League is required",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, currency: "EUR" }, "currency"),
      "Currency must be USD or GBP",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, prizeType: "GOLD" }, "prizeType"),
      "Prize type must be CASH or NON_CASH",
    );
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, status: "DONE" }, "status"),
      "Status must be UPCOMING, LIVE or COMPLETED",
    );
  });
  await t.step("image URL must be http(s) or a site path", () => {
    assert.equal(
      ok(competitionInputSchema, { ...valid, imageUrl: "/crests/ars.png" }).imageUrl,
      "/crests/ars.png",
    );
    assert.equal(ok(competitionInputSchema, { ...valid, imageUrl: "" }).imageUrl, null);
    for (const bad of ["javascript:alert(1)", "//evil.example/x.png", "ftp://x"]) {
      assert.equal(
        messageAt(competitionInputSchema, { ...valid, imageUrl: bad }, "imageUrl"),
        "Must be an http(s) URL or a path starting with /",
        bad,
      );
    }
  });
  await t.step("matchId blank → null, invalid → message", () => {
    assert.equal(ok(competitionInputSchema, { ...valid, matchId: "" }).matchId, null);
    assert.equal(
      messageAt(competitionInputSchema, { ...valid, matchId: -3 }, "matchId"),
      "Match must be a positive integer",
    );
  });
});

Deno.test("[schemas] prizeStructureInputSchema", async (t) => {
  await t.step("valid rows pass, prize coerced and rounded", () => {
    assert.deepEqual(
      ok(prizeStructureInputSchema, [
        { position: 1, prize: "50.005", competitionId: 3 },
        { position: "2", prize: 30 },
      ]),
      [{ position: 1, prize: 50.01, competitionId: 3 }, { position: 2, prize: 30 }],
    );
  });
  await t.step("at least one position", () => {
    assert.deepEqual(issues(prizeStructureInputSchema, []), [[
      "",
      "At least one prize position is required",
    ]]);
    assert.deepEqual(issues(prizeStructureInputSchema, undefined), [[
      "",
      "At least one prize position is required",
    ]]);
  });
  await t.step("position a positive integer, prize positive", () => {
    assert.deepEqual(
      issues(prizeStructureInputSchema, [
        { position: 0, prize: 0 },
        { position: 1.5, prize: -1 },
        {},
      ]),
      [
        ["0.position", "Position must be a positive integer"],
        ["0.prize", "Prize amount must be positive"],
        ["1.position", "Position must be a positive integer"],
        ["1.prize", "Prize amount must be positive"],
        ["2.position", "Position must be a positive integer"],
        ["2.prize", "Prize amount must be positive"],
      ],
    );
  });
  await t.step("positions unique", () => {
    assert.deepEqual(
      issues(prizeStructureInputSchema, [{ position: 1, prize: 50 }, { position: 1, prize: 50 }]),
      [
        ["", "Prize positions must be unique"],
      ],
    );
  });
});

Deno.test("[schemas] matchInputSchema", async (t) => {
  const valid = {
    homeTeamId: 1,
    awayTeamId: 2,
    league: "LA_LIGA",
    kickoffTime: "2030-06-01T15:00:00Z",
    stadium: "Camp Nou",
  };
  await t.step("valid match, scores default to null", () => {
    assert.deepEqual(ok(matchInputSchema, valid), {
      ...valid,
      kickoffTime: "2030-06-01T15:00:00.000Z",
      homeScore: null,
      awayScore: null,
    });
  });
  await t.step("required fields → the agreed messages (missing and blank)", () => {
    const expected = [
      ["homeTeamId", "Home team is required"],
      ["awayTeamId", "Away team is required"],
      ["league", "League is required"],
      ["kickoffTime", "Kickoff time is required"],
      ["stadium", "Stadium is required"],
    ];
    assert.deepEqual(issues(matchInputSchema, {}), expected);
    assert.deepEqual(
      issues(matchInputSchema, {
        homeTeamId: "",
        awayTeamId: "",
        league: "",
        kickoffTime: "",
        stadium: " ",
      }),
      expected,
    );
  });
  await t.step("home and away must differ", () => {
    assert.deepEqual(issues(matchInputSchema, { ...valid, awayTeamId: "1" }), [
      ["awayTeamId", "Home team and away team cannot be the same"],
    ]);
  });
  await t.step("scores: optional whole numbers ≥ 0", () => {
    const out = ok(matchInputSchema, {
      ...valid,
      homeScore: "2",
      awayScore: 0,
      result: "HOME_WIN",
      status: "COMPLETED",
    });
    assert.deepEqual([out.homeScore, out.awayScore, out.result, out.status], [
      2,
      0,
      "HOME_WIN",
      "COMPLETED",
    ]);
    assert.equal(
      ok(matchInputSchema, { ...valid, homeScore: "", awayScore: null }).homeScore,
      null,
    );
    for (const bad of [-1, 1.5, "x"]) {
      assert.equal(
        messageAt(matchInputSchema, { ...valid, homeScore: bad }, "homeScore"),
        "Scores must be whole numbers of at least 0",
      );
    }
  });
});

Deno.test("[schemas] teamInputSchema", () => {
  assert.deepEqual(
    ok(teamInputSchema, { name: " Arsenal ", shortName: "ARS", league: "PREMIER_LEAGUE" }),
    {
      name: "Arsenal",
      shortName: "ARS",
      league: "PREMIER_LEAGUE",
      logoUrl: null,
    },
  );
  assert.deepEqual(issues(teamInputSchema, {}), [
    ["name", "Team name is required"],
    ["shortName", "Short name is required"],
    ["league", "League is required"],
  ]);
});

Deno.test("[schemas] playerInputSchema and playerPatchSchema", async (t) => {
  await t.step("defaults: salary 1000, stats 0", () => {
    assert.deepEqual(ok(playerInputSchema, { name: "Bukayo Saka", position: "MID", teamId: "4" }), {
      name: "Bukayo Saka",
      position: "MID",
      teamId: 4,
      salary: 1000,
      imageUrl: null,
      goals: 0,
      assists: 0,
      cleanSheets: 0,
    });
  });
  await t.step("name and position required with one message", () => {
    assert.deepEqual(issues(playerInputSchema, { teamId: 1 }), [
      ["name", "Player name and position are required"],
      ["position", "Player name and position are required"],
    ]);
    assert.deepEqual(issues(playerInputSchema, { name: " ", position: "", teamId: 1 }), [
      ["name", "Player name and position are required"],
      ["position", "Player name and position are required"],
    ]);
    assert.equal(
      messageAt(playerInputSchema, { name: "X", position: "GOALIE", teamId: 1 }, "position"),
      "Player name and position are required",
    );
    assert.equal(
      messageAt(playerInputSchema, { name: "X", position: "GK" }, "teamId"),
      "Team is required",
    );
  });
  await t.step("salary at least 100", () => {
    assert.equal(
      messageAt(playerInputSchema, { name: "X", position: "GK", teamId: 1, salary: 99 }, "salary"),
      "Salary must be at least 100",
    );
    assert.equal(
      ok(playerInputSchema, { name: "X", position: "GK", teamId: 1, salary: "100" }).salary,
      100,
    );
  });
  await t.step("stats whole numbers ≥ 0", () => {
    assert.equal(
      messageAt(playerInputSchema, { name: "X", position: "GK", teamId: 1, goals: -1 }, "goals"),
      "Goals must be a whole number of at least 0",
    );
  });
  await t.step("patch: salary alone, no defaults applied", () => {
    assert.deepEqual(ok(playerPatchSchema, { salary: "1500" }), { salary: 1500 });
    assert.equal(
      messageAt(playerPatchSchema, { salary: 50 }, "salary"),
      "Salary must be at least 100",
    );
  });
  await t.step("patch: every field may be sent", () => {
    const out = ok(playerPatchSchema, {
      name: "Y",
      position: "FWD",
      teamId: 2,
      salary: 900,
      imageUrl: "",
      goals: 1,
      assists: 2,
      cleanSheets: 0,
    });
    assert.deepEqual(out, {
      name: "Y",
      position: "FWD",
      teamId: 2,
      salary: 900,
      imageUrl: null,
      goals: 1,
      assists: 2,
      cleanSheets: 0,
    });
  });
  await t.step("patch: nothing to update is rejected", () => {
    assert.deepEqual(issues(playerPatchSchema, {}), [["", "No fields to update"]]);
  });
});

Deno.test("[schemas] performanceInputSchema (performance inputs)", async (t) => {
  await t.step("missing counts default to 0 and extra fields are dropped", () => {
    assert.deepEqual(
      ok(performanceInputSchema, { playerId: 9, totalPoints: 99, competitionId: 1 }),
      {
        playerId: 9,
        minutesPlayed: 0,
        goals: 0,
        assists: 0,
        saves: 0,
        goalsConceded: 0,
        penaltySaves: 0,
        penaltyMisses: 0,
        ownGoals: 0,
        yellowCards: 0,
        redCard: false,
        cleanSheet: false,
        bonus: 0,
      },
    );
  });
  await t.step("player.position rides along", () => {
    assert.deepEqual(
      ok(performanceInputSchema, { playerId: 1, player: { position: "GK", name: "X" } }).player,
      { position: "GK" },
    );
  });
  await t.step("bonus: any positive value becomes 3", () => {
    for (const [input, out] of [[0, 0], [1, 3], [3, 3], [0.5, 3], ["2", 3], [10, 3]] as const) {
      assert.equal(ok(performanceInputSchema, { playerId: 1, bonus: input }).bonus, out);
    }
    assert.equal(
      messageAt(performanceInputSchema, { playerId: 1, bonus: -1 }, "bonus"),
      "Bonus must be 0 or more",
    );
  });
  await t.step("minutes 0..90, never clamped", () => {
    assert.equal(ok(performanceInputSchema, { playerId: 1, minutesPlayed: 90 }).minutesPlayed, 90);
    for (const bad of [91, -1, 45.5]) {
      assert.equal(
        messageAt(performanceInputSchema, { playerId: 1, minutesPlayed: bad }, "minutesPlayed"),
        "Minutes must be between 0 and 90",
      );
    }
  });
  await t.step("yellow cards 0..2, never clamped", () => {
    assert.equal(ok(performanceInputSchema, { playerId: 1, yellowCards: 2 }).yellowCards, 2);
    assert.equal(
      messageAt(performanceInputSchema, { playerId: 1, yellowCards: 3 }, "yellowCards"),
      "Yellow cards must be between 0 and 2",
    );
  });
  await t.step("counts are whole numbers of at least 0", () => {
    const labels = {
      goals: "Goals",
      assists: "Assists",
      saves: "Saves",
      goalsConceded: "Goals conceded",
      penaltySaves: "Penalty saves",
      penaltyMisses: "Penalty misses",
      ownGoals: "Own goals",
    };
    for (const [field, label] of Object.entries(labels)) {
      assert.equal(
        messageAt(performanceInputSchema, { playerId: 1, [field]: -1 }, field),
        `${label} must be a whole number of at least 0`,
      );
      assert.equal(
        messageAt(performanceInputSchema, { playerId: 1, [field]: 1.5 }, field),
        `${label} must be a whole number of at least 0`,
      );
      assert.equal(
        (ok(performanceInputSchema, { playerId: 1, [field]: "4" }) as Record<string, unknown>)[
          field
        ],
        4,
      );
    }
  });
  await t.step("flags accept booleans and 'true'/'false'", () => {
    const out = ok(performanceInputSchema, { playerId: 1, redCard: "true", cleanSheet: true });
    assert.deepEqual([out.redCard, out.cleanSheet], [true, true]);
    assert.equal(ok(performanceInputSchema, { playerId: 1, redCard: "false" }).redCard, false);
    assert.equal(
      messageAt(performanceInputSchema, { playerId: 1, redCard: "yes" }, "redCard"),
      "Must be true or false",
    );
  });
  await t.step("player is required", () => {
    assert.deepEqual(issues(performanceInputSchema, {}), [["playerId", "Player is required"]]);
  });
  await t.step("the body holds a list; a player appears once", () => {
    assert.deepEqual(ok(performancesBodySchema, { performances: [] }), { performances: [] });
    assert.equal(
      ok(performancesBodySchema, { performances: [{ playerId: 1 }, { playerId: 2 }] }).performances
        .length,
      2,
    );
    assert.deepEqual(
      issues(performancesBodySchema, { performances: [{ playerId: 1 }, { playerId: 1 }] }),
      [
        ["performances", "Each player may appear only once"],
      ],
    );
    assert.deepEqual(issues(performancesBodySchema, {}), [[
      "performances",
      "Performances must be a list",
    ]]);
    assert.deepEqual(
      issues(performancesBodySchema, { performances: [{ playerId: 1, minutesPlayed: 100 }] }),
      [
        ["performances.0.minutesPlayed", "Minutes must be between 0 and 90"],
      ],
    );
  });
});

Deno.test("[schemas] gameEventInputSchema", async (t) => {
  await t.step("valid event, strings coerced, blanks null", () => {
    assert.deepEqual(
      ok(gameEventInputSchema, { playerId: "4", eventType: "GOAL", minute: "45", description: "" }),
      {
        playerId: 4,
        eventType: "GOAL",
        description: null,
        minute: 45,
      },
    );
    assert.deepEqual(
      ok(gameEventInputSchema, { playerId: 4, eventType: "SAVE", description: " Great save " }),
      {
        playerId: 4,
        eventType: "SAVE",
        description: "Great save",
        minute: null,
      },
    );
  });
  await t.step("required fields → the agreed messages", () => {
    const expected = [["playerId", "Player is required"], ["eventType", "Event type is required"]];
    assert.deepEqual(issues(gameEventInputSchema, {}), expected);
    assert.deepEqual(issues(gameEventInputSchema, { playerId: "", eventType: "" }), expected);
  });
  await t.step("unknown event type", () => {
    assert.deepEqual(issues(gameEventInputSchema, { playerId: 1, eventType: "SUBSTITUTION" }), [[
      "eventType",
      "Invalid event type",
    ]]);
  });
  await t.step("minute 0..130 whole, or null", () => {
    assert.equal(ok(gameEventInputSchema, { playerId: 1, eventType: "GOAL", minute: 0 }).minute, 0);
    assert.equal(
      ok(gameEventInputSchema, { playerId: 1, eventType: "GOAL", minute: 130 }).minute,
      130,
    );
    assert.equal(
      ok(gameEventInputSchema, { playerId: 1, eventType: "GOAL", minute: null }).minute,
      null,
    );
    for (const bad of [-1, 131, 12.5, "x"]) {
      assert.equal(
        messageAt(gameEventInputSchema, { playerId: 1, eventType: "GOAL", minute: bad }, "minute"),
        "Minute must be a whole number from 0 to 130",
      );
    }
  });
});

Deno.test("[schemas] playerIdsBodySchema", () => {
  assert.deepEqual(ok(playerIdsBodySchema, { playerIds: [1, "2"] }), { playerIds: [1, 2] });
  assert.deepEqual(issues(playerIdsBodySchema, {}), [["playerIds", "No Players Selected"]]);
  assert.deepEqual(issues(playerIdsBodySchema, { playerIds: [] }), [[
    "playerIds",
    "No Players Selected",
  ]]);
  assert.deepEqual(issues(playerIdsBodySchema, { playerIds: [0] }), [[
    "playerIds.0",
    "Player ids must be positive integers",
  ]]);
});

Deno.test("[schemas] wsClientMessageSchema", () => {
  assert.deepEqual(ok(wsClientMessageSchema, { type: "join", competitionId: 3 }), {
    type: "join",
    competitionId: 3,
  });
  assert.deepEqual(ok(wsClientMessageSchema, { type: "leave", competitionId: "3" }), {
    type: "leave",
    competitionId: 3,
  });
  assert.deepEqual(ok(wsClientMessageSchema, { type: "ping" }), { type: "ping" });
  assert.deepEqual(issues(wsClientMessageSchema, { type: "join" }), [[
    "competitionId",
    "Competition is required",
  ]]);
  assert.deepEqual(issues(wsClientMessageSchema, { type: "join", competitionId: -1 }), [[
    "competitionId",
    "Competition is required",
  ]]);
  assert.equal(issues(wsClientMessageSchema, { type: "shout" })[0][0], "type");
  assert.equal(issues(wsClientMessageSchema, "join").length, 1);
});

Deno.test("[schemas] zodIssues gives the {path, message} shape of lib/http/errors.ts", () => {
  const r = prizeStructureInputSchema.safeParse([{ position: 1, prize: 0 }]);
  assert.equal(r.success, false);
  assert.deepEqual(zodIssues(r.error!), [{
    path: [0, "prize"],
    message: "Prize amount must be positive",
  }]);
});
