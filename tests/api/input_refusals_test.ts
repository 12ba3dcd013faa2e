import assert from "node:assert/strict";
import { competitionInputSchema } from "@/lib/domain/schemas/competitions.ts";
import { HIDDEN_CHARACTER_MESSAGE, paymentFormSchema } from "@/lib/domain/schemas/public.ts";
import { claimBodySchema } from "@/lib/domain/schemas/payouts.ts";
import { readJsonBody, withTestApp } from "@/tests/helpers/app.ts";
import { entryBody, makeCompetition, payTestIntent } from "@/tests/helpers/fixtures.ts";

const IMPOSTORS = [
  "Team\u202Eredaer", // right-to-left override
  "Ali\u200Bce", // zero-width space
  "Bob\u0007", // bell (control)
  "Car\u2066ol\u2069", // directional isolates
  "Da\uFEFFn", // byte order mark (inside: trimming takes it off the ends)
  "Eve\u00AD", // soft hyphen
  "Fay\u061Cx", // Arabic letter mark (format)
  "Gus\u3164", // Hangul filler
  "\u115FHal", // Hangul choseong filler
  "Ida\uFFA0x", // halfwidth Hangul filler
  "Jo\u{E0041}n", // tag letter A
  "Kim\u{E0000}x", // default-ignorable, unassigned tag block
  "Lou\u2028Mo", // line separator
  "Max\u00A0Ng", // no-break space (a separator other than the plain space)
  "Ned\u3000x", // ideographic space
  "Oz\uFE0Fx", // variation selector (default-ignorable)
];

Deno.test("[input] display names with control, format, default-ignorable, separator or filler characters are refused", async (t) => {
  await t.step("by the shared form schema", () => {
    for (const teamName of IMPOSTORS) {
      const parsed = paymentFormSchema.safeParse({
        email: "a@example.com",
        confirmEmail: "a@example.com",
        teamName,
      });
      assert.equal(parsed.success, false, JSON.stringify(teamName));
      assert.deepEqual(parsed.error!.issues[0].path, ["teamName"]);
      assert.equal(parsed.error!.issues[0].message, HIDDEN_CHARACTER_MESSAGE);
    }
    const ok = paymentFormSchema.safeParse({
      email: "a@example.com",
      confirmEmail: "a@example.com",
      teamName: "Peña Madridista ⚽",
    });
    assert.equal(ok.success, true, "accents and emoji stay allowed");
    const spaced = paymentFormSchema.safeParse({
      email: "a@example.com",
      confirmEmail: "a@example.com",
      teamName: "The Plain Spaces",
    });
    assert.equal(spaced.success, true, "plain spaces stay allowed");
  });
  await t.step("by the entry API, before anything is stored", async () => {
    await withTestApp(async (app) => {
      const c = await makeCompetition(app.kv);
      const paid = await payTestIntent(app, c.id);
      for (
        const teamName of [
          "Top\u202Epot",
          "Look\u061Calike",
          "Al\u3164ce",
          "Tag\u{E0041}",
          "A\u2028B",
        ]
      ) {
        const res = await app.request("/api/entries", {
          method: "POST",
          json: { ...entryBody(c, paid), teamName },
        });
        assert.equal(res.status, 400, JSON.stringify(teamName));
        const body = await readJsonBody(res);
        assert.deepEqual(body.issues[0].path, ["teamName"]);
        assert.equal(body.issues[0].message, HIDDEN_CHARACTER_MESSAGE);
      }
      const list = await app.request(`/api/competitions/${c.id}/leaderboard`);
      assert.deepEqual(await readJsonBody(list), [], "nothing was stored");
    });
  });
});

Deno.test("[input] /api/test-email caps the address at 254 characters", async () => {
  await withTestApp(async (app) => {
    const long = `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.com`;
    assert.ok(long.length > 254);
    const res = await app.request("/api/test-email", { method: "POST", json: { email: long } });
    assert.equal(res.status, 400);
    assert.deepEqual((await readJsonBody(res)).issues[0].path, ["email"]);
  });
});

Deno.test("[input] image URLs with a backslash are refused (/\\host is another site)", () => {
  const base = {
    name: "Cup",
    league: "PREMIER_LEAGUE",
    entryFee: "5",
    prizePool: "50",
    deadline: "2030-01-01T00:00:00Z",
  };
  for (
    const imageUrl of [
      "/\\evil.example/x.png",
      "/\\\\evil.example",
      "https:\\\\evil.example",
      "http://ok.example\\@evil.example",
    ]
  ) {
    const parsed = competitionInputSchema.safeParse({ ...base, imageUrl });
    assert.equal(parsed.success, false, imageUrl);
    assert.deepEqual(parsed.error!.issues[0].path, ["imageUrl"]);
  }
  for (const imageUrl of ["/crests/a.png", "https://cdn.example/a.png"]) {
    assert.equal(competitionInputSchema.safeParse({ ...base, imageUrl }).success, true, imageUrl);
  }
});

Deno.test("[input] a winner's claim refuses names with look-alike characters", () => {
  for (const name of ["Ann\u3164", "Bo\u200Bb", "Cy\u2028Dee", "Di\u{E0041}"]) {
    const iban = claimBodySchema.safeParse({
      method: "iban",
      iban: "DE89 3704 0044 0532 0130 00",
      accountHolder: name,
    });
    assert.equal(iban.success, false, JSON.stringify(name));
    assert.deepEqual(iban.error!.issues[0].path, ["accountHolder"]);
    const address = claimBodySchema.safeParse({
      method: "address",
      address: { name, line1: "1 High St", city: "York", postcode: "YO1 1AA", country: "UK" },
    });
    assert.equal(address.success, false, JSON.stringify(name));
    assert.deepEqual(address.error!.issues[0].path, ["address", "name"]);
    assert.match(address.error!.issues[0].message, /invisible, formatting, separator or filler/);
  }
  const ok = claimBodySchema.safeParse({
    method: "iban",
    iban: "DE89 3704 0044 0532 0130 00",
    accountHolder: "José Núñez",
  });
  assert.equal(ok.success, true);
});
