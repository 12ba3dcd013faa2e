import assert from "node:assert/strict";
import { ApiError, apiFetch, readErrorMessage } from "@/lib/client/api.ts";
import { fieldErrors } from "@/lib/client/checkout.ts";
import { closedForEntries, sortByDeadline } from "@/lib/client/contests.ts";
import { toPickPlayer } from "@/lib/client/players.ts";
import { pageId } from "@/lib/http/route_params.ts";
import { clearSelection, loadSelection, saveSelection } from "@/lib/client/selection.ts";
import { addUserEntry, getUserEntries } from "@/lib/client/user_entries.ts";

Deno.test("[ui] the selection belongs to its competition and survives reloads", () => {
  try {
    saveSelection(3, [11, 12, 13]);
    assert.deepEqual(loadSelection(3), [11, 12, 13]);
    assert.deepEqual(loadSelection(4), [], "another competition sees no picks");
    sessionStorage.setItem("selectedTeam", "{broken");
    assert.deepEqual(loadSelection(3), []);
    sessionStorage.setItem(
      "selectedTeam",
      JSON.stringify({ competitionId: 3, playerIds: [1, -2] }),
    );
    assert.deepEqual(loadSelection(3), [], "bad ids are ignored");
    saveSelection(3, [5]);
    clearSelection();
    assert.deepEqual(loadSelection(3), []);
  } finally {
    sessionStorage.removeItem("selectedTeam");
  }
});

Deno.test("[ui] userEntries keeps one record per team ID", () => {
  const before = localStorage.getItem("userEntries");
  try {
    localStorage.removeItem("userEntries");
    assert.deepEqual(getUserEntries(), []);
    addUserEntry({ competitionId: 1, teamId: "FFT-AAAA" });
    addUserEntry({ competitionId: 2, teamId: "FFT-BBBB" });
    addUserEntry({ competitionId: 1, teamId: "FFT-AAAA" });
    assert.deepEqual(getUserEntries(), [
      { competitionId: 2, teamId: "FFT-BBBB" },
      { competitionId: 1, teamId: "FFT-AAAA" },
    ]);
    localStorage.setItem("userEntries", "not json");
    assert.deepEqual(getUserEntries(), []);
  } finally {
    if (before === null) localStorage.removeItem("userEntries");
    else localStorage.setItem("userEntries", before);
  }
});

Deno.test('[ui] apiFetch: JSON only with a payload, "status: body" errors', async (t) => {
  const seen: { method: string; type: string | null; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const body = await req.text();
    seen.push({ method: req.method, type: req.headers.get("content-type"), body });
    const path = new URL(req.url).pathname;
    if (path === "/ok") return Response.json({ hello: "world" });
    if (path === "/empty") return new Response(null, { status: 204 });
    if (path === "/bad") {
      return Response.json({ message: "Nope", issues: [{ path: ["email"], message: "Bad" }] }, {
        status: 400,
      });
    }
    return new Response("", { status: 503, statusText: "Service Unavailable" });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await t.step("a GET has no body and no content type", async () => {
      assert.deepEqual(await apiFetch(`${base}/ok`), { hello: "world" });
      assert.deepEqual(seen.at(-1), { method: "GET", type: null, body: "" });
    });
    await t.step("a payload is sent as JSON", async () => {
      assert.equal(await apiFetch(`${base}/empty`, { method: "POST", json: { a: 1 } }), null);
      assert.deepEqual(seen.at(-1), { method: "POST", type: "application/json", body: '{"a":1}' });
    });
    await t.step("non-2xx: `${status}: ${body}` with the message and issues", async () => {
      const err = await apiFetch(`${base}/bad`).catch((e) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(
        err.message,
        '400: {"message":"Nope","issues":[{"path":["email"],"message":"Bad"}]}',
      );
      assert.equal(err.serverMessage, "Nope");
      assert.deepEqual(fieldErrors(err.issues, ["email", "teamName"]), { email: "Bad" });
    });
    await t.step("an empty error body falls back to the status text", async () => {
      const err = await apiFetch(`${base}/down`).catch((e) => e);
      assert.ok(err instanceof ApiError);
      assert.equal(err.message, "503: Service Unavailable");
      assert.equal(err.serverMessage, null);
    });
    await t.step("readErrorMessage prefers the message field", async () => {
      assert.equal(await readErrorMessage(await fetch(`${base}/bad`)), "Nope");
      assert.equal(await readErrorMessage(await fetch(`${base}/down`)), null);
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("[ui] contest order, player shape and page parameters", () => {
  const list = [
    { id: 3, deadline: "2026-05-02T00:00:00Z" },
    { id: 1, deadline: null },
    { id: 2, deadline: "2026-05-01T00:00:00Z" },
    { id: 4, deadline: "2026-05-01T00:00:00Z" },
  ];
  assert.deepEqual(sortByDeadline(list).map((c) => c.id), [2, 4, 3, 1]);

  const team = { name: "Riverside Rovers", shortName: "RIV", logoUrl: "/crests/riv.svg" };
  const base = { id: 7, name: "Sam Stone", position: "DEF" as const, teamId: 2, imageUrl: null };
  const season = { goals: 3, assists: 2, cleanSheets: 1 };
  assert.deepEqual(toPickPlayer({ ...base, ...season, salary: "6500.50", team }), {
    id: 7,
    name: "Sam Stone",
    position: "DEF",
    teamId: 2,
    salary: 6500.5,
    teamName: "Riverside Rovers",
    teamShortName: "RIV",
    crest: "/crests/riv.svg",
    season: { goals: 3, assists: 2, cleanSheets: 1 },
  });
  const bare = toPickPlayer({ ...base, salary: null, team: null });
  assert.equal(bare.salary, 1000, "an unset salary shows as 1000");
  assert.equal(bare.crest, null);
  assert.deepEqual(bare.season, { goals: 0, assists: 0, cleanSheets: 0 }, "no stats yet: zeros");

  assert.equal(pageId("12"), 12);
  for (const bad of ["0", "012", "1.5", "abc", "", undefined]) assert.equal(pageId(bad), null);
});

Deno.test("[ui] closedForEntries: the card's reason, the server's rule underneath", () => {
  const now = Date.parse("2031-06-15T12:00:00Z");
  const open = {
    status: "UPCOMING",
    deadline: "2031-06-16T12:00:00Z",
    maxEntries: 10,
    currentEntries: 3,
  };
  assert.equal(closedForEntries(open, now), null);
  assert.equal(
    closedForEntries({ ...open, status: "CANCELLED", cancelReason: "Match postponed" }, now),
    "This competition was cancelled: Match postponed. Every entry has been refunded.",
  );
  assert.equal(
    closedForEntries({ ...open, status: "LIVE" }, now),
    "This competition is live: entries are closed.",
  );
  assert.equal(
    closedForEntries({ ...open, status: "COMPLETED" }, now),
    "This competition has finished.",
  );
  assert.equal(
    closedForEntries({ ...open, deadline: "2031-06-15T12:00:00Z" }, now),
    "The entry deadline has passed.",
  );
  assert.equal(closedForEntries({ ...open, currentEntries: 10 }, now), "This competition is full.");
  assert.equal(closedForEntries({ ...open, deadline: null }, now), null, "no deadline: open");
  assert.equal(closedForEntries({ ...open, maxEntries: 0, currentEntries: 5 }, now), null);
  assert.equal(
    closedForEntries({ ...open, status: "DRAFT" }, now),
    "This competition is closed for entries.",
  );
});
