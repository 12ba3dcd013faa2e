import assert from "node:assert/strict";
import twind from "$fresh/plugins/twind.ts";
import twindConfig from "@/twind.config.ts";
import { withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition } from "@/tests/helpers/fixtures.ts";

Deno.test("[pages] the team builder's rows carry short component classes, styled inline", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv);
    const res = await app.request(`/team-selection/${c.id}`);
    assert.equal(res.status, 200);
    const html = await res.text();
    const rows = [
      ...html.matchAll(
        /<li hidden=[^>]*?data-player-id[\s\S]*?<\/li>|<li data-player-id[\s\S]*?<\/li>/g,
      ),
    ]
      .map((m) => m[0]);
    assert.equal(rows.length, c.players.length);
    for (const row of rows) {
      const classBytes = [...row.matchAll(/class="([^"]*)"/g)].reduce((n, m) => n + m[1].length, 0);
      assert.ok(classBytes < 400, `a row's class attributes take ${classBytes} bytes`);
    }
    // The app's twind plugin turns each component class into its utilities.
    const css = twind(twindConfig).render!({ render: () => ({ htmlText: html }), islands: [] })
      .styles![0].cssText;
    const names = [
      "player-row",
      "open-row",
      "player-name",
      "player-salary",
      "pick-mark",
      "open-mark",
    ];
    for (const name of [...names, "avatar"]) {
      assert.match(css, new RegExp(`\\.${name}\\{[^}]+\\}`), name);
    }
    assert.match(css, /\.player-row\{[^}]*display:flex/);
  });
});
