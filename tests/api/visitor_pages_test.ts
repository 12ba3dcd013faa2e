import assert from "node:assert/strict";
import { updateCompetition } from "@/lib/db/competitions.ts";
import { makeTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

async function page(app: TestApp, path: string): Promise<{ status: number; html: string }> {
  const res = await app.request(path);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  return { status: res.status, html: await res.text() };
}

/** The text of the HTML with tags removed, for "does the page say X" checks. */
function text(html: string): string {
  return html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]+>/g, " ").replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
}

Deno.test("[pages] the visitor pages are complete without JavaScript", async (t) => {
  const app = await makeTestApp();
  try {
    const later = await makeCompetition(app.kv, {
      name: "Later Cup",
      deadline: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    });
    const sooner = await makeCompetition(app.kv, {
      name: "Sooner Cup",
      deadline: new Date(Date.now() + 3 * 3_600_000 + 60_000).toISOString(),
      entryFee: 7.5,
      currency: "GBP",
    });
    const live = await makeCompetition(app.kv, { name: "Live Cup" });
    await updateCompetition(app.kv, live.id, { status: "LIVE" });

    await t.step("home: heading, sub-line, and each tab's cards by deadline", async () => {
      const { status, html } = await page(app, "/");
      assert.equal(status, 200);
      const body = text(html);
      assert.match(body, /Play Fantasy Football With Your Community/);
      assert.match(body, /Select a contest to build your fantasy team/);
      const order = ["Sooner Cup", "Later Cup"].map((name) => body.indexOf(name));
      assert.ok(order[0] > 0 && order[0] < order[1], "sooner deadline first");
      assert.match(body, /Sooner Cup .*£7\.50.*Closes in 3h/);
      assert.match(body, /Later Cup .*Closes in 4d/);
      assert.match(body, /Open \(2\).*Live \(1\).*Results \(0\)/, "the tabs count their contests");
      assert.match(html, /aria-selected="true"[^>]*>Open \(2\)/, "open contests come first");
      assert.doesNotMatch(body, /Live Cup/, "one tab's cards at a time");
      // Each tab is a link: without JavaScript, the Live tab is one click away.
      assert.match(html, /<a role="tab"[^>]*href="\/\?tab=live"[^>]*>Live \(1\)/);
      const liveTab = text((await page(app, "/?tab=live")).html);
      assert.match(liveTab, /Live Cup .*LIVE.*In progress.*View Live Leaderboard/);
      assert.doesNotMatch(liveTab, /Sooner Cup/);
      assert.match(text((await page(app, "/?tab=results")).html), /No finished contest yet\./);
      assert.match(text((await page(app, "/?tab=nonsense")).html), /Sooner Cup/, "unknown: Open");
      assert.match(body, /Closed \(0\)/);
    });

    await t.step(
      "home: past the deadline or full, an UPCOMING contest is Closed with why",
      async () => {
        const past = await makeCompetition(app.kv, {
          name: "Past Cup",
          deadline: new Date(Date.now() + 60 * 60_000).toISOString(),
        });
        await updateCompetition(app.kv, past.id, {
          deadline: new Date(Date.now() - 60_000).toISOString(),
        });
        const full = await makeCompetition(app.kv, { name: "Full Cup", maxEntries: 1 });
        await makeEntry(app.kv, full);
        const { html } = await page(app, "/");
        const body = text(html);
        assert.match(body, /Open \(2\).*Closed \(2\).*Live \(1\).*Results \(0\)/);
        assert.doesNotMatch(
          body,
          /Past Cup|Full Cup/,
          "the Open tab holds only enterable contests",
        );
        const closed = text((await page(app, "/?tab=closed")).html);
        assert.match(closed, /Past Cup .*The entry deadline has passed\./);
        assert.match(closed, /Full Cup .*This competition is full\./);
        assert.doesNotMatch(closed, /Sooner Cup|Live Cup|Make Picks/);
      },
    );

    await t.step("team selection: competition, players and the empty team", async () => {
      const { status, html } = await page(app, `/team-selection/${sooner.id}`);
      assert.equal(status, 200);
      const body = text(html);
      assert.match(body, /Sooner Cup/);
      assert.match(body, /Your Team \(0\/5\)/);
      assert.match(body, /Submit Team \(0\/5\)/);
      assert.match(body, /Max 3 per team.*Min 1 GK.*Min 1 DEF.*Max 2 FWD.*Salary cap £50,000/);
      for (const p of sooner.players) assert.ok(body.includes(p.name), `${p.name} is listed`);
      assert.match(body, /£50,000/, "a GBP contest shows its cap in pounds");
    });

    await t.step("unknown or malformed ids show the not-found states with 404", async () => {
      for (const path of ["/team-selection/9999", "/team-selection/abc"]) {
        const { status, html } = await page(app, path);
        assert.equal(status, 404);
        assert.match(text(html), /Competition not found/);
      }
      const payment = await page(app, "/payment/9999");
      assert.equal(payment.status, 404);
      assert.match(text(payment.html), /Invalid Competition or Team/);
      const confirmation = await page(app, "/confirmation/FFT-%E0%A4%A");
      assert.equal(confirmation.status, 404);
      assert.match(text(confirmation.html), /Entry Not Found/);
    });

    await t.step("confirmation: team ID, players, competition and leaderboard link", async () => {
      const entry = await makeEntry(app.kv, later);
      const { status, html } = await page(app, `/confirmation/${entry.teamId}`);
      assert.equal(status, 200);
      const body = text(html);
      assert.match(body, /You're All Set!/);
      assert.ok(body.includes(entry.teamId));
      assert.match(body, /Later Cup/);
      // Picks stay private until they lock: the owner sees them through the edit link.
      const picked = later.players.filter((p) => entry.playerIds.includes(p.id));
      for (const p of picked) assert.ok(!body.includes(p.name), `${p.name} is hidden`);
      assert.match(body, /5 picks: Hidden until kick-off/);
      assert.ok(html.includes(`href="/leaderboard/${later.id}"`));
      assert.match(body, /View Leaderboard/);
      // The notifications card is the paying browser's (it holds the edit secret): the server
      // sends only its island, empty.
      assert.match(html, /<!--frsh-EntryNotifications:\d+--><!--\/frsh-EntryNotifications/);
      assert.doesNotMatch(body, /E-mail me the result/);
    });

    await t.step("e-mail test page: one required e-mail field and its button", async () => {
      const { status, html } = await page(app, "/email-test");
      assert.equal(status, 200);
      assert.match(html, /<input[^>]*type="email"[^>]*required/);
      assert.match(text(html), /Send Test Email/);
    });
  } finally {
    await app.close();
  }
});
