/**
 * The activity log reads as words and keeps what matters: an import's preview is not a write, an
 * applied file is summarised (name, lines, SHA-256) rather than copied, and every admin write has
 * a label in words ("Apply import", not "POST imports/apply").
 */
import assert from "node:assert/strict";
import { listAudit } from "@/lib/db/audit.ts";
import { actionOf } from "@/lib/http/admin_audit.ts";
import { readJsonBody } from "@/tests/helpers/app.ts";
import { withAdminApp } from "@/tests/helpers/fixtures.ts";

/** Every admin API route file with the write methods it exports, as a sample path. */
async function adminWrites(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  const walk = async (dir: string) => {
    for await (const e of Deno.readDir(dir)) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) await walk(path);
      else if (e.name.endsWith(".ts")) {
        const source = await Deno.readTextFile(path);
        const sample = path.replace(/^routes/, "").replace(/\.ts$/, "").replace(/\/index$/, "")
          .replace(/\[teamId\]/g, "FFT-AAAA1111").replace(/\[name\]/g, "acme")
          .replace(/\/leagues\/\[id\]/, "/leagues/Lg7kQ2").replace(/\[\w+\]/g, "7");
        for (const [, method] of source.matchAll(/^\s+(?:async\s+)?(POST|PUT|PATCH|DELETE)\(/gm)) {
          out.push([method, sample]);
        }
      }
    }
  };
  await walk("routes/api/admin");
  return out;
}

Deno.test("[activity] every admin write has a label in words", async () => {
  const writes = await adminWrites();
  assert.ok(writes.length > 25, `found ${writes.length}`);
  const unnamed = writes.filter(([method, path]) => actionOf(method, path).startsWith(method))
    .filter(([, path]) => !/\/(login|logout|imports\/preview)$/.test(path));
  assert.deepEqual(unnamed, []);
});

Deno.test("[activity] an import's preview is not logged; its apply is summarised, not copied", async () => {
  await withAdminApp(async (app, admin) => {
    const rows = Array.from(
      { length: 40 },
      (_, i) => `club-${i},Secret Town ${i},S${String(i).padStart(2, "0")},PREMIER_LEAGUE,`,
    );
    const content = ["externalId,name,shortName,league,logoUrl", ...rows].join("\n") + "\n";
    const body = { kind: "clubs", format: "csv", fileName: "clubs.csv", content };
    const preview = await app.request("/api/admin/imports/preview", {
      method: "POST",
      headers: admin,
      json: body,
    });
    assert.equal(preview.status, 200, await preview.clone().text());
    await preview.body?.cancel();
    assert.deepEqual(await listAudit(app.kv), [], "a dry run is not a write");

    const apply = await app.request("/api/admin/imports/apply", {
      method: "POST",
      headers: admin,
      json: body,
    });
    assert.equal(apply.status, 200);
    await apply.text(); // the progress stream, to its end
    const records = await listAudit(app.kv);
    assert.equal(records.length, 1, JSON.stringify(records));
    const [record] = records;
    assert.equal(record.action, "Apply import");
    const logged = JSON.stringify(record);
    assert.doesNotMatch(logged, /Secret Town/, "no row of the file is copied");
    assert.match(logged, /clubs\.csv/);
    const hex = [
      ...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(content))),
    ].map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.match(logged, new RegExp(hex), "the file's SHA-256 identifies it");
    assert.match(logged, /"lines":41/);
    const list = await app.request("/api/admin/activity", { headers: admin });
    assert.equal(list.status, 200);
    assert.doesNotMatch(JSON.stringify(await readJsonBody(list)), /POST imports/);
  });
});
