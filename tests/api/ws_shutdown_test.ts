import assert from "node:assert/strict";
import { makeTestApp } from "@/tests/helpers/app.ts";

Deno.test("[ws] a closed hub stays the services' hub, so an upgrade during shutdown is refused", async () => {
  const app = await makeTestApp();
  try {
    const { hub } = app.services;
    await hub.close();
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
