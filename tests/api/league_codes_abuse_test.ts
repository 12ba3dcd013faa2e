/**
 * Asking join codes is an e-mail sent on a stranger's say (team IDs are public): one requester
 * gets a handful an hour however many teams it names, the subject is a fixed sentence (the
 * league's name, the requester's text, only quoted in the body), and the answer says nothing of
 * the owner's address.
 */
import assert from "node:assert/strict";
import { listOutbox } from "@/lib/db/outbox.ts";
import { JOIN_CODE_REQUESTS_PER_HOUR } from "@/lib/domain/leagues.ts";
import { readJsonBody, type TestApp, withTestApp } from "@/tests/helpers/app.ts";
import { makeCompetition, makeEntry } from "@/tests/helpers/fixtures.ts";

const ATTACKER = "198.51.100.7";
const LURE = "Prize at evil-site.example";

function askCode(app: TestApp, league: string, teamId: string, from: string) {
  return app.request(`/api/leagues/${league}/codes`, { method: "POST", json: { teamId }, from });
}

Deno.test("[league codes] one requester cannot mail every entrant: a few an hour, fixed subject, no address told", async () => {
  await withTestApp(async (app) => {
    const c = await makeCompetition(app.kv, { name: "Open Cup" });
    const own = await makeEntry(app.kv, c, { email: "attacker@example.net" });
    const made = await app.request("/api/leagues", {
      method: "POST",
      json: { teamId: own.teamId, editToken: own.editToken, name: LURE },
      from: ATTACKER,
    });
    assert.equal(made.status, 201);
    const league = (await readJsonBody(made)).league.id as string;
    const victims = [];
    for (let i = 0; i < 28; i++) {
      victims.push(await makeEntry(app.kv, c, { email: `victim${i}@example.com` }));
    }
    const statuses: number[] = [];
    for (const v of victims) {
      const res = await askCode(app, league, v.teamId, ATTACKER);
      statuses.push(res.status);
      const body = await readJsonBody(res);
      if (res.status !== 202) continue;
      assert.doesNotMatch(body.message, /@|example\.com|\*\*\*|v\*/, "nothing of the address");
    }
    assert.deepEqual(statuses.filter((s) => s === 202).length, JOIN_CODE_REQUESTS_PER_HOUR);
    assert.ok(statuses.slice(JOIN_CODE_REQUESTS_PER_HOUR).every((s) => s === 429), `${statuses}`);
    const mails = (await listOutbox(app.kv)).filter((m) => m.to.startsWith("victim"));
    assert.equal(mails.length, JOIN_CODE_REQUESTS_PER_HOUR);
    for (const mail of mails) {
      assert.equal(mail.subject, "Your code to join a league");
      assert.match(mail.text, new RegExp(`the league "${LURE}"`));
    }
    // Another requester is not held back by the first one's hits.
    const other = await askCode(app, league, victims[27].teamId, "203.0.113.50");
    assert.equal(other.status, 202);
    await other.body?.cancel();
  });
});
