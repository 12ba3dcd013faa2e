import assert from "node:assert/strict";
import { decodeValue, dumpKv, encodeValue, restoreKv } from "@/lib/store/dump.ts";
import { seedDemoDataIfEmpty } from "@/lib/db/seed.ts";

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

async function allEntries(kv: Deno.Kv): Promise<{ key: Deno.KvKey; value: unknown }[]> {
  const out = [];
  for await (const { key, value } of kv.list({ prefix: [] })) out.push({ key, value });
  return out;
}

Deno.test("[dump] round trip of the demo store is exact", async () => {
  const source = await Deno.openKv(":memory:");
  await seedDemoDataIfEmpty(source);
  const lines = await collect(dumpKv(source));
  assert.ok(lines.length > 300);
  assert.ok(lines.every((line) => !line.includes("\n")));

  const target = await Deno.openKv(":memory:");
  assert.equal(await restoreKv(target, lines), lines.length);

  assert.deepEqual(await allEntries(target), await allEntries(source));
  assert.deepEqual(await collect(dumpKv(target)), lines);
  source.close();
  target.close();
});

Deno.test("[dump] special values and keys survive", async () => {
  const special = {
    big: 12345678901234567890n,
    date: new Date("2030-01-01T00:00:00.000Z"),
    bytes: new Uint8Array([0, 1, 254, 255]),
    map: new Map<unknown, unknown>([["a", 1], [2, new Set([3])]]),
    nan: NaN,
    inf: -Infinity,
    negZero: -0,
    missing: undefined,
    regexp: /fan\d+/gi,
    nested: [{ $t: "looks tagged", v: 1 }, null, "text"],
  };
  const source = await Deno.openKv(":memory:");
  await source.set(["special", 1n, true, new Uint8Array([9, 8]), -1.5], special);
  await source.set(["counter"], new Deno.KvU64(42n));
  const lines = await collect(dumpKv(source));

  const target = await Deno.openKv(":memory:");
  await restoreKv(target, lines);
  const key = ["special", 1n, true, new Uint8Array([9, 8]), -1.5];
  const restored = await target.get<typeof special>(key);
  assert.deepEqual(restored.value, special);
  assert.ok(Object.is(restored.value?.negZero, -0));
  assert.ok(Object.hasOwn(restored.value!, "missing"));
  assert.deepEqual((await target.get(["counter"])).value, new Deno.KvU64(42n));
  assert.deepEqual(decodeValue(encodeValue({ $t: "x" })), { $t: "x" });
  source.close();
  target.close();
});

Deno.test("[dump] restore refuses a non-empty store unless forced", async () => {
  const kv = await Deno.openKv(":memory:");
  await kv.set(["existing"], 1);
  const lines = [JSON.stringify({ key: ["restored"], value: "yes" }), ""];
  await assert.rejects(restoreKv(kv, lines), /non-empty/);
  assert.equal((await kv.get(["restored"])).value, null);
  assert.equal(await restoreKv(kv, lines, { force: true }), 1);
  assert.equal((await kv.get(["restored"])).value, "yes");
  await assert.rejects(restoreKv(kv, ["{not json"], { force: true }), SyntaxError);
  kv.close();
});

Deno.test("[dump] scripts dump a KV file and restore it into another", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const sourcePath = `${dir}/source.kv`;
    const source = await Deno.openKv(sourcePath);
    await source.set(["teams", 1], { id: 1, name: "Script FC" });
    await source.set(["ids", "teams"], 1);
    source.close();

    const deno = Deno.execPath();
    const run = (script: string, args: string[], kvPath: string) =>
      new Deno.Command(deno, {
        args: [
          "run",
          "-A",
          "--unstable-kv",
          new URL(`../../../scripts/${script}`, import.meta.url).pathname,
          ...args,
        ],
        env: { DENO_KV_PATH: kvPath },
        stdout: "piped",
        stderr: "piped",
      }).output();

    const dump = await run("db_dump.ts", [`${dir}/dump.jsonl`], sourcePath);
    assert.equal(dump.code, 0, new TextDecoder().decode(dump.stderr));
    const text = await Deno.readTextFile(`${dir}/dump.jsonl`);
    assert.equal(text.trim().split("\n").length, 2);

    const restore = await run("db_restore.ts", [`${dir}/dump.jsonl`], `${dir}/target.kv`);
    assert.equal(restore.code, 0, new TextDecoder().decode(restore.stderr));
    const again = await run("db_restore.ts", [`${dir}/dump.jsonl`], `${dir}/target.kv`);
    assert.equal(again.code, 1);

    const target = await Deno.openKv(`${dir}/target.kv`);
    assert.deepEqual((await target.get(["teams", 1])).value, { id: 1, name: "Script FC" });
    target.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
