import assert from "node:assert/strict";
import {
  deleteUnpaidCheckout,
  getPendingCheckout,
  listPendingCheckoutIds,
  markCheckoutFinalised,
  markCheckoutRefunded,
  savePendingCheckout,
} from "@/lib/db/checkouts.ts";
import { addOutboxMessage, listOutbox } from "@/lib/db/outbox.ts";
import { checkoutInput } from "@/tests/helpers/fixtures.ts";

Deno.test("[checkouts] pending, finalised and refunded", async () => {
  const kv = await Deno.openKv(":memory:");
  const saved = await savePendingCheckout(kv, checkoutInput("pi_123"));
  assert.equal(saved.status, "PENDING");
  assert.deepEqual(await getPendingCheckout(kv, "pi_123"), saved);

  const finalised = await markCheckoutFinalised(kv, "pi_123", "FFT-ABCDEFGH");
  assert.equal(finalised?.status, "FINALISED");
  assert.equal(finalised?.teamId, "FFT-ABCDEFGH");

  const refunded = await markCheckoutRefunded(kv, "pi_123", "competition full");
  assert.equal(refunded?.status, "REFUNDED");
  assert.equal(refunded?.refundReason, "competition full");
  assert.equal((await getPendingCheckout(kv, "pi_123"))?.status, "REFUNDED");

  assert.equal(await markCheckoutFinalised(kv, "pi_missing", "FFT-X"), null);
  assert.equal(await getPendingCheckout(kv, "pi_missing"), null);
  kv.close();
});

Deno.test("[checkouts] only a PENDING checkout is removed when its payment expires", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await savePendingCheckout(kv, checkoutInput("pi_unpaid"));
    await savePendingCheckout(kv, checkoutInput("pi_paid"));
    await markCheckoutFinalised(kv, "pi_paid", "FFT-ABCDEFGH");
    assert.deepEqual(await listPendingCheckoutIds(kv), ["pi_unpaid"]);

    assert.equal(await deleteUnpaidCheckout(kv, "pi_paid"), false, "a settled one is kept");
    assert.equal((await getPendingCheckout(kv, "pi_paid"))?.status, "FINALISED");
    assert.equal(await deleteUnpaidCheckout(kv, "pi_unpaid"), true);
    assert.equal(await getPendingCheckout(kv, "pi_unpaid"), null);
    assert.deepEqual(await listPendingCheckoutIds(kv), []);
    assert.equal(await deleteUnpaidCheckout(kv, "pi_unpaid"), false, "gone already");
  } finally {
    kv.close();
  }
});

Deno.test("[outbox] messages listed newest first", async () => {
  const kv = await Deno.openKv(":memory:");
  await addOutboxMessage(kv, { to: "a@example.com", subject: "First", text: "1" });
  const second = await addOutboxMessage(kv, {
    to: "b@example.com",
    subject: "Second",
    text: "2",
    html: "<p>2</p>",
  });
  assert.equal(second.html, "<p>2</p>");
  assert.deepEqual((await listOutbox(kv)).map((m) => m.subject), ["Second", "First"]);
  assert.deepEqual(await listOutbox(kv, { limit: 1 }), [second]);
  kv.close();
});
