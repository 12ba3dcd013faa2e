import assert from "node:assert/strict";
import { getLiveHub, startLiveHub } from "../../lib/live/hub.ts";
import { makeTestApp } from "../helpers/app.ts";

Deno.test("[ws] a closed hub stays current, so an upgrade during shutdown is refused", async () => {
  const app = await makeTestApp();
  try {
    const hub = startLiveHub(app.kv);
    await hub.close();
    assert.equal(getLiveHub(), hub);
    assert.equal(hub.hasRoom(), false);
    const res = await app.handler(
      new Request("http://localhost/ws", {
        headers: {
          upgrade: "websocket",
          connection: "Upgrade",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          "sec-websocket-version": "13",
        },
      }),
    );
    assert.equal(res.status, 503);
    await res.body?.cancel();
  } finally {
    await app.close();
  }
});
