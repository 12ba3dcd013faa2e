/**
 * Push endpoints are URLs a visitor chooses and the server then connects to: every address form
 * an attacker would use against the server's own network is refused when saved (400 naming the
 * endpoint) and again when sent (a subscription saved before the rule never connects), and a
 * redirect from an admitted push service is never followed.
 */
import assert from "node:assert/strict";
import { setNotifyPrefs } from "@/lib/db/notifications.ts";
import { createGameEvent } from "@/lib/db/events.ts";
import { drainPushQueue } from "@/lib/notify/run.ts";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry, startMatch, validPicks } from "@/tests/helpers/fixtures.ts";
import {
  ATTACK_ENDPOINTS,
  SAMPLE_PUSH_KEYS,
  startTestPushService,
  subscribeEntry,
} from "@/tests/helpers/push_service.ts";

function putPush(app: TestApp, token: string, endpoint: string) {
  return app.request(`/api/notifications/${token}`, {
    method: "PUT",
    json: { push: { endpoint, keys: SAMPLE_PUSH_KEYS }, pushScored: true },
  });
}

Deno.test("[push endpoints] every inward address form is refused with a 400 naming the endpoint, and nothing is saved", async (t) => {
  const app = await makeTestApp();
  try {
    const c = await makeCompetition(app.kv);
    const e = await makeEntry(app.kv, c);
    for (const endpoint of ATTACK_ENDPOINTS) {
      await t.step(endpoint, async () => {
        const res = await putPush(app, e.editToken!, endpoint);
        assert.equal(res.status, 400);
        assert.match(res.headers.get("content-type") ?? "", /application\/json/);
        const body = await res.json();
        assert.match(body.message, /^Push endpoint /);
        assert.deepEqual(body.issues?.[0]?.path, ["push", "endpoint"]);
      });
    }
    const view = await (await app.request(`/api/notifications/${e.editToken}`)).json();
    assert.equal(view.pushEndpoint, null);
    assert.equal(view.pushScored, null);
  } finally {
    await app.close();
  }
});

Deno.test("[push endpoints] a subscription saved before the rule never connects, and is dropped without a word from the target", async () => {
  const push = startTestPushService();
  const app = await makeTestApp(); // no PUSH_ALLOW_LOCAL: the local service is an inward target
  try {
    const c = await makeCompetition(app.kv);
    const e = await makeEntry(app.kv, c);
    const browser = await push.subscribe();
    // Written straight to the store, as a subscription saved before the rule would be.
    await setNotifyPrefs(
      app.kv,
      e,
      { push: browser.subscription, pushScored: true },
      "my-entries",
      new Date(),
    );
    await startMatch(app.kv, c);
    await createGameEvent(app.kv, c.id, {
      playerId: validPicks(c)[0],
      eventType: "GOAL",
      minute: 3,
    });
    await drainPushQueue(app.services);
    assert.deepEqual(push.answers, [], "the local service saw no request");
    const view = await (await app.request(`/api/notifications/${e.editToken}`)).json();
    assert.equal(view.pushEndpoint, null, "the refused subscription is dropped");
  } finally {
    await app.close();
    await push.close();
  }
});

Deno.test("[push endpoints] a 307 from the push service is not followed, and keeps the subscription", async () => {
  let inward = 0;
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    inward++;
    return new Response(null, { status: 410 });
  });
  let redirected = 0;
  const redirector = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    redirected++;
    const to = `http://127.0.0.1:${target.addr.port}/push/x`;
    return new Response(null, { status: 307, headers: { location: to } });
  });
  const app = await makeTestApp({ config: { pushAllowLocal: true } });
  try {
    const c = await makeCompetition(app.kv);
    const e = await makeEntry(app.kv, c);
    const endpoint = `http://127.0.0.1:${redirector.addr.port}/push/x`;
    assert.equal((await putPush(app, e.editToken!, endpoint)).status, 200);
    await startMatch(app.kv, c);
    await createGameEvent(app.kv, c.id, {
      playerId: validPicks(c)[0],
      eventType: "GOAL",
      minute: 3,
    });
    await drainPushQueue(app.services);
    assert.equal(redirected, 1, "the push service was asked once");
    assert.equal(inward, 0, "the redirect's target saw no request");
    const view = await (await app.request(`/api/notifications/${e.editToken}`)).json();
    assert.equal(view.pushEndpoint, endpoint, "a redirect neither drops nor tells anything");
  } finally {
    await app.close();
    await target.shutdown();
    await redirector.shutdown();
  }
});

Deno.test("[push endpoints] the local push service is admitted only with PUSH_ALLOW_LOCAL", async () => {
  const push = startTestPushService();
  const strict = await makeTestApp();
  const local = await makeTestApp({ config: { pushAllowLocal: true } });
  try {
    for (const app of [strict, local]) {
      const c = await makeCompetition(app.kv);
      const e = await makeEntry(app.kv, c);
      const browser = await push.subscribe();
      const res = await putPush(app, e.editToken!, browser.subscription.endpoint);
      await res.body?.cancel();
      assert.equal(res.status, app === local ? 200 : 400);
    }
    const c = await makeCompetition(local.kv);
    const e = await makeEntry(local.kv, c);
    await subscribeEntry(local, push, e.editToken!);
  } finally {
    await strict.close();
    await local.close();
    await push.close();
  }
});
