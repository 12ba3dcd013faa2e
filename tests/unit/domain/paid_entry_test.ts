import assert from "node:assert/strict";
import {
  COMPETITION_GONE,
  decideEntry,
  decideOnRecord,
  decidePayment,
  type EntryFacts,
  FEE_CHANGED,
  type IntentFacts,
  OTHER_COMPETITION_PAYMENT,
  PAYMENT_NOT_COMPLETED,
  PAYMENT_NOT_FOUND,
  PAYMENT_REFUNDED,
  type PaymentFacts,
  PERSON_LIMIT_REACHED,
  personOf,
  picksSignature,
  SAME_TEAM_AGAIN,
} from "@/lib/domain/paid_entry.ts";
import type { Competition, Entry, Player } from "@/lib/domain/types.ts";
import { DISPLAY_NAME_TAKEN, nameSkeleton } from "@/lib/domain/display_name.ts";

const NOW = new Date("2030-01-01T12:00:00Z");

const competition: Competition = {
  id: 7,
  name: "Cup",
  description: null,
  matchId: null,
  league: "PREMIER_LEAGUE",
  entryFee: 5,
  prizePool: 100,
  prizeType: "CASH",
  customPrizeDescription: null,
  currency: "USD",
  deadline: "2030-01-02T00:00:00Z",
  status: "UPCOMING",
  maxEntries: 10,
  currentEntries: 0,
  imageUrl: null,
  maxPlayersPerTeam: 3,
  maxForwards: 2,
  minDefenders: 1,
  salaryCap: 50_000,
  createdAt: "2029-12-01T00:00:00Z",
};

const paid: IntentFacts = {
  status: "succeeded",
  amount: 500,
  currency: "usd",
  competitionId: "7",
  refunded: false,
};

const player = (id: number, position: Player["position"], teamId: number): Player => ({
  id,
  name: `P${id}`,
  position,
  teamId,
  imageUrl: null,
  salary: 1000,
  goals: 0,
  assists: 0,
  cleanSheets: 0,
});
const team = [
  player(1, "GK", 1),
  player(2, "DEF", 1),
  player(3, "MID", 1),
  player(4, "DEF", 2),
  player(5, "FWD", 2),
];

function facts(overrides: Partial<PaymentFacts> = {}): PaymentFacts {
  return {
    competitionId: 7,
    entry: null,
    refund: null,
    checkoutRefunded: false,
    intent: paid,
    ...overrides,
  };
}

function entryFacts(overrides: Partial<EntryFacts> = {}): EntryFacts {
  return {
    charge: { amount: 500, currency: "usd" },
    competition,
    picks: { players: team, linked: team.map(() => true) },
    person: { entries: 0, sameTeam: false },
    nameTaken: false,
    now: NOW,
    ...overrides,
  };
}

const entry = { id: 1, competitionId: 7, teamId: "FFT-AAAAAAAA" } as Entry;

Deno.test("[paid entry] the payment's decision: its records first, then the provider", async (t) => {
  await t.step("the entry it made is returned without asking the provider", () => {
    const { intent: _, ...onRecord } = facts({ entry });
    assert.deepEqual(decideOnRecord(onRecord), { kind: "existing", entry });
    assert.deepEqual(decidePayment(facts({ entry, intent: null })), { kind: "existing", entry });
  });
  await t.step("its entry in another competition is refused, not returned", () => {
    const d = decidePayment(facts({ entry: { ...entry, competitionId: 8 } }));
    assert.equal(d.kind, "reject");
    assert.equal(d.kind === "reject" && d.refusal.message, OTHER_COMPETITION_PAYMENT);
  });
  await t.step("a refunded payment is refused; a pending refund is to be finished", () => {
    const d = decidePayment(facts({ refund: { status: "PENDING" } }));
    assert.deepEqual(d, {
      kind: "reject",
      refusal: { reason: "refunded", message: PAYMENT_REFUNDED },
      finishRefund: true,
    });
    const done = decidePayment(facts({ checkoutRefunded: true }));
    assert.equal(done.kind === "reject" && done.finishRefund, false);
  });
  await t.step("records that settle nothing leave it to the provider", () => {
    const { intent: _, ...onRecord } = facts();
    assert.equal(decideOnRecord(onRecord), null);
  });
  await t.step("an unknown or unpaid payment is refused (nothing to refund)", () => {
    const unknown = decidePayment(facts({ intent: null }));
    assert.equal(unknown.kind === "reject" && unknown.refusal.message, PAYMENT_NOT_FOUND);
    const unpaid = decidePayment(facts({ intent: { ...paid, status: "processing" } }));
    assert.equal(unpaid.kind === "reject" && unpaid.refusal.reason, "not_paid");
    assert.equal(unpaid.kind === "reject" && unpaid.refusal.message, PAYMENT_NOT_COMPLETED);
  });
  await t.step("a payment opened for another competition is refused", () => {
    const d = decidePayment(facts({ intent: { ...paid, competitionId: "8" } }));
    assert.equal(d.kind === "reject" && d.refusal.reason, "other_competition");
  });
  await t.step("a refund made at the provider is recorded, with what was charged", () => {
    assert.deepEqual(decidePayment(facts({ intent: { ...paid, refunded: true } })), {
      kind: "record_outside_refund",
      charge: { amount: 500, currency: "usd" },
    });
  });
  await t.step("a paid payment carries what was charged, in lower case", () => {
    assert.deepEqual(decidePayment(facts({ intent: { ...paid, currency: "USD" } })), {
      kind: "paid",
      charge: { amount: 500, currency: "usd" },
    });
  });
});

Deno.test("[paid entry] the entry's decision, at commit", async (t) => {
  await t.step("refunds carry their cause and the reason the payer is told", () => {
    const cases: [Partial<EntryFacts>, string, string][] = [
      [{ competition: null }, "gone", COMPETITION_GONE],
      [{ competition: { ...competition, entryFee: 999_999.99 } }, "fee_changed", FEE_CHANGED],
      [{ competition: { ...competition, currency: "GBP" } }, "fee_changed", FEE_CHANGED],
      [
        { competition: { ...competition, currentEntries: 10 } },
        "closed",
        "This competition is full.",
      ],
      [{ now: new Date("2030-01-03T00:00:00Z") }, "closed", "The entry deadline has passed."],
      [{ person: { entries: 1, sameTeam: false } }, "person_limit", PERSON_LIMIT_REACHED],
      [{ person: { entries: 0, sameTeam: true } }, "person_limit", SAME_TEAM_AGAIN],
      [{ nameTaken: true }, "name_taken", DISPLAY_NAME_TAKEN],
    ];
    for (const [override, cause, reason] of cases) {
      const d = decideEntry(entryFacts(override));
      assert.equal(d.kind, "refund", reason);
      if (d.kind !== "refund") continue;
      assert.equal(d.cause, cause);
      assert.equal(d.reason, reason);
    }
  });
  await t.step("picks that break a rule are refunded with every problem", () => {
    const forwards = [team[0], team[1], player(6, "FWD", 2), player(7, "FWD", 2), team[4]];
    const d = decideEntry(
      entryFacts({ picks: { players: forwards, linked: [1, 2, 3, 4, 5].map(() => true) } }),
    );
    assert.equal(d.kind === "refund" && d.cause, "picks");
    assert.ok(d.kind === "refund" && d.problems!.length >= 1);
    const outsider = decideEntry(
      entryFacts({ picks: { players: team, linked: [true, true, true, true, false] } }),
    );
    assert.equal(outsider.kind === "refund" && outsider.cause, "picks");
  });
  await t.step("a raised per-person limit lets the same person in with another team", () => {
    const three = { ...competition, maxEntriesPerPerson: 3 };
    const d = decideEntry(
      entryFacts({ competition: three, person: { entries: 2, sameTeam: false } }),
    );
    assert.deepEqual(d, { kind: "create", competition: three });
  });
});

Deno.test("[paid entry] a person is their mailbox, not its spelling; a team its sorted picks", () => {
  assert.equal(personOf("  Jane@Example.COM "), "jane@example.com");
  assert.equal(personOf("solo+2@example.com"), "solo@example.com");
  assert.equal(personOf("Solo+Cup+2@Example.com"), "solo@example.com");
  assert.equal(personOf("j.a.n.e@gmail.com"), "jane@gmail.com");
  assert.equal(personOf("J.Ane+cup@GoogleMail.com"), "jane@gmail.com");
  // Dots count outside Gmail; a name that is only a tag is kept.
  assert.equal(personOf("j.ane@example.com"), "j.ane@example.com");
  assert.equal(personOf("+tag@example.com"), "+tag@example.com");
  assert.equal(picksSignature([40, 3, 12, 8, 41]), "3,8,12,40,41");
  assert.equal(picksSignature([3, 8, 12, 40, 41]), picksSignature([41, 40, 12, 8, 3]));
});

Deno.test("[display name] names that look alike have one skeleton", () => {
  const same = [
    "Commit Probe",
    "COMMIT PROBE",
    "commit  probe ",
    "Соmmit Probe", // Cyrillic О
    "Commit Ρrobe", // Greek Ρ
    "Ｃｏｍｍｉｔ Ｐｒｏｂｅ", // full width
  ];
  for (const name of same) assert.equal(nameSkeleton(name), nameSkeleton("Commit Probe"), name);
  assert.notEqual(nameSkeleton("Commit Probe 2"), nameSkeleton("Commit Probe"));
});
