import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { getEntryByTeamId, listEntriesByCompetition } from "@/lib/db/entries.ts";
import { listOutbox } from "@/lib/db/outbox.ts";
import { getPendingCheckout } from "@/lib/db/checkouts.ts";
import type { TestPaymentProvider } from "@/lib/payments/test_provider.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import {
  entryBody,
  makeCompetition,
  makeEntry,
  payTestIntent,
  type TestCompetition,
} from "@/tests/helpers/fixtures.ts";

function postEntry(app: TestApp, json: unknown) {
  return app.request("/api/entries", { method: "POST", json });
}

async function withCompetition(
  fn: (app: TestApp, c: TestCompetition) => Promise<void>,
  overrides: Parameters<typeof makeCompetition>[1] = {},
) {
  const app = await makeTestApp();
  try {
    await fn(app, await makeCompetition(app.kv, overrides));
  } finally {
    await app.close();
  }
}

Deno.test("[entries] a paid entry is created with a team id, once per payment", async (t) => {
  await withCompetition(async (app, c) => {
    const paymentId = await payTestIntent(app, c.id);
    let teamId = "";
    await t.step("201 with teamId and no full e-mail or payment id", async () => {
      const res = await postEntry(app, entryBody(c, paymentId));
      assert.equal(res.status, 201);
      const body = await readJsonBody(res);
      assert.match(body.teamId, /^FFT-[A-Z0-9]{8}$/);
      assert.equal(body.competitionId, c.id);
      assert.equal(body.teamName, "Jane's Team");
      assert.equal(body.email, "j***@example.com");
      assert.equal(body.points, 0);
      assert.ok(!("stripePaymentId" in body));
      assert.ok(!JSON.stringify(body).includes(paymentId));
      teamId = body.teamId;
    });
    await t.step("the same payment again answers 200 with the same entry", async () => {
      const res = await postEntry(app, { ...entryBody(c, paymentId), teamName: "Other Name" });
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      assert.equal(body.teamId, teamId);
      assert.equal(body.teamName, "Jane's Team");
      assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
    });
    await t.step("the competition counts the entry", async () => {
      const pub = await readJsonBody(await app.request(`/api/competitions/${c.id}`));
      assert.equal(pub.currentEntries, 1);
    });
    await t.step("a confirmation e-mail with team ID, players and leaderboard link", async () => {
      const [mail] = await listOutbox(app.kv);
      assert.equal(mail.to, "jane@example.com");
      assert.ok(mail.subject.includes(teamId));
      assert.ok(mail.text.includes(`Team ID: ${teamId}`));
      assert.ok(mail.text.includes(`http://localhost/leaderboard/${c.id}`));
      const picked = c.players.filter((p) => entryBody(c, paymentId).playerIds.includes(p.id));
      for (const player of picked) assert.ok(mail.text.includes(player.name), player.name);
      assert.ok(mail.html?.includes(`href="http://localhost/leaderboard/${c.id}"`));
      assert.equal((await listOutbox(app.kv)).length, 1, "no second mail for the repeat");
    });
  });
});

Deno.test("[entries] a payment is required and must be real, paid and for this competition", async (t) => {
  await withCompetition(async (app, c) => {
    await t.step("missing stripePaymentId → 400 'Payment is required'", async () => {
      const { stripePaymentId: _, ...body } = entryBody(c, "x");
      const res = await postEntry(app, body);
      assert.equal(res.status, 400);
      const answer = await readJsonBody(res);
      assert.equal(answer.message, "Payment is required");
      assert.deepEqual(answer.issues[0].path, ["stripePaymentId"]);
    });
    await t.step("an unknown payment → 402", async () => {
      const res = await postEntry(app, entryBody(c, "pi_test_unknown"));
      assert.equal(res.status, 402);
      assert.equal(
        (await readJsonBody(res)).message,
        "Payment not found. Please complete the payment.",
      );
    });
    await t.step("an unpaid intent → 402", async () => {
      const intent = await readJsonBody(
        await app.request("/api/create-payment-intent", {
          method: "POST",
          json: { competitionId: c.id },
        }),
      );
      const res = await postEntry(app, entryBody(c, intent.paymentIntentId));
      assert.equal(res.status, 402);
      assert.equal(
        (await readJsonBody(res)).message,
        "Payment has not been completed. Please complete the payment.",
      );
    });
    await t.step("a payment for another competition → 400", async () => {
      const other = await makeCompetition(app.kv);
      const paid = await payTestIntent(app, other.id);
      const res = await postEntry(app, entryBody(c, paid));
      assert.equal(res.status, 400);
      assert.equal(
        (await readJsonBody(res)).message,
        "This payment was made for a different competition.",
      );
    });
    await t.step("a payment of another amount (the fee changed) → 409, refunded", async () => {
      const paid = await payTestIntent(app, c.id);
      await updateCompetition(app.kv, c.id, { entryFee: 20 });
      const res = await postEntry(app, entryBody(c, paid));
      assert.equal(res.status, 409);
      assert.equal(
        (await readJsonBody(res)).message,
        "The entry fee has changed since this payment was made. Your payment has been refunded.",
      );
      assert.equal(await (app.services.payments as TestPaymentProvider).isRefunded(paid), true);
      await updateCompetition(app.kv, c.id, { entryFee: 10 });
    });
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
  });
});

Deno.test("[entries] body validation messages of the server entry schema", async (t) => {
  await withCompetition(async (app, c) => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: "not-an-email" }, "Please provide a valid email", "email"],
      [{ teamName: "J" }, "Display name must be at least 2 characters", "teamName"],
      [{ teamName: "x".repeat(31) }, "Display name cannot exceed 30 characters", "teamName"],
      [{ playerIds: [1] }, "You must select at least 2 players", "playerIds"],
      [{ playerIds: "1,2" }, "You must select at least 2 players", "playerIds"],
      [{ competitionId: "abc" }, "Competition is required", "competitionId"],
    ];
    for (const [patch, message, field] of cases) {
      await t.step(message, async () => {
        const res = await postEntry(app, { ...entryBody(c, "pi_test_x"), ...patch });
        assert.equal(res.status, 400);
        const body = await readJsonBody(res);
        assert.equal(body.message, message);
        assert.equal(body.issues[0].path[0], field);
      });
    }
  });
});

Deno.test("[entries] the team is validated on the server; paid picks it refuses are refunded", async (t) => {
  await withCompetition(async (app, c) => {
    const provider = app.services.payments as TestPaymentProvider;
    const refused = async (res: Response, message: string, paid: string) => {
      assert.equal(res.status, 409);
      assert.deepEqual(await readJsonBody(res), {
        message: `${message} Your payment has been refunded.`,
      });
      assert.equal(await provider.isRefunded(paid), true);
    };
    const ids = (position: string) =>
      c.players.filter((p) => p.position === position).map((p) => p.id);
    const cases: [string, number[], string][] = [
      ["four players", entryBody(c, "").playerIds.slice(0, 4), "Please select exactly 5 players."],
      [
        "no defender",
        [ids("GK")[0], ...ids("MID"), ids("FWD")[0], ids("GK")[1]],
        "You must select at least 1 defender.",
      ],
      [
        "no goalkeeper",
        [...ids("DEF").slice(0, 3), ...ids("MID")],
        "You must select at least 1 goalkeeper.",
      ],
    ];
    for (const [label, playerIds, message] of cases) {
      await t.step(label, async () => {
        const paid = await payTestIntent(app, c.id);
        await refused(await postEntry(app, { ...entryBody(c, paid), playerIds }), message, paid);
      });
    }
    await t.step("a player outside the competition", async () => {
      const other = await makeCompetition(app.kv);
      const paid = await payTestIntent(app, c.id);
      const res = await postEntry(app, {
        ...entryBody(c, paid),
        playerIds: entryBody(other, "").playerIds,
      });
      await refused(res, "Some selected players are not part of this competition.", paid);
    });
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 0);
  });
});

Deno.test("[entries] a paid entry into a competition that closed meanwhile is refunded (409)", async (t) => {
  await withCompetition(async (app, c) => {
    const provider = app.services.payments as TestPaymentProvider;
    const cases: [string, Parameters<typeof updateCompetition>[2], string][] = [
      ["closed", { status: "LIVE" }, "This competition is closed for entries."],
      [
        "deadline passed",
        { status: "UPCOMING", deadline: new Date(Date.now() - 1000).toISOString() },
        "The entry deadline has passed.",
      ],
    ];
    for (const [label, patch, message] of cases) {
      await t.step(label, async () => {
        await updateCompetition(app.kv, c.id, {
          status: "UPCOMING",
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
        });
        const paid = await payTestIntent(app, c.id);
        await updateCompetition(app.kv, c.id, patch);
        const res = await postEntry(app, entryBody(c, paid));
        assert.equal(res.status, 409);
        assert.deepEqual(await readJsonBody(res), {
          message: `${message} Your payment has been refunded.`,
        });
        assert.equal(await provider.isRefunded(paid), true);
        assert.equal((await getPendingCheckout(app.kv, paid))?.status, "REFUNDED");

        await updateCompetition(app.kv, c.id, {
          status: "UPCOMING",
          deadline: new Date(Date.now() + 86_400_000).toISOString(),
        });
        const reused = await postEntry(app, entryBody(c, paid));
        assert.equal(reused.status, 409, "a refunded payment never buys an entry");
        await reused.body?.cancel();
      });
    }
    await t.step("full", async () => {
      await updateCompetition(app.kv, c.id, { maxEntries: 1 });
      const first = await payTestIntent(app, c.id);
      const second = await payTestIntent(app, c.id);
      const ok = await postEntry(app, entryBody(c, first));
      assert.equal(ok.status, 201);
      await ok.body?.cancel();
      const res = await postEntry(app, entryBody(c, second));
      assert.equal(res.status, 409);
      assert.deepEqual(await readJsonBody(res), {
        message: "This competition is full. Your payment has been refunded.",
      });
      assert.equal(await provider.isRefunded(second), true);
      assert.equal(await provider.isRefunded(first), false);
    });
    assert.equal((await listEntriesByCompetition(app.kv, c.id)).length, 1);
  });
});

Deno.test("[entries] public reads of an entry", async (t) => {
  await withCompetition(async (app, c) => {
    const entry = await makeEntry(app.kv, c, { email: "secret.person@example.com" });
    await t.step("GET /api/entries/{teamId}", async () => {
      const res = await app.request(`/api/entries/${entry.teamId}`);
      assert.equal(res.status, 200);
      const body = await readJsonBody(res);
      for (
        const field of [
          "id",
          "teamId",
          "competitionId",
          "teamName",
          "points",
          "rank",
          "prize",
          "createdAt",
        ]
      ) {
        assert.ok(field in body, field);
      }
      assert.equal(body.teamId, entry.teamId);
      assert.equal(body.competitionId, c.id);
      const text = JSON.stringify(body);
      assert.ok(!text.includes("secret.person"));
      assert.ok(!text.includes(entry.stripePaymentId));
    });
    await t.step("GET /api/entries/{teamId}/players", async () => {
      const before = await app.request(`/api/entries/${entry.teamId}/players`);
      assert.deepEqual(await readJsonBody(before), [], "picks stay private until they lock");
      await updateCompetition(app.kv, c.id, { status: "LIVE" });
      const res = await app.request(`/api/entries/${entry.teamId}/players`);
      assert.equal(res.status, 200);
      const players = await readJsonBody(res);
      assert.deepEqual(players.map((p: { id: number }) => p.id), entry.playerIds);
      assert.deepEqual(Object.keys(players[0].team).sort(), ["logoUrl", "name", "shortName"]);
      assert.ok(players[0].name && players[0].position);
    });
    await t.step("unknown team ids are 404", async () => {
      for (const path of ["/api/entries/FFT-NOPE", "/api/entries/FFT-NOPE/players"]) {
        const res = await app.request(path);
        assert.equal(res.status, 404, path);
        assert.deepEqual(await readJsonBody(res), { message: "Entry not found" });
      }
    });
    assert.ok(await getEntryByTeamId(app.kv, entry.teamId));
  });
});
