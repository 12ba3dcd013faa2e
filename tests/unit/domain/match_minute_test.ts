import assert from "node:assert/strict";
import { matchMinute } from "@/lib/domain/live.ts";

const KICKOFF = "2030-01-01T15:00:00.000Z";
const after = (minutes: number, seconds = 0) =>
  new Date(Date.parse(KICKOFF) + minutes * 60_000 + seconds * 1000);

Deno.test("[match minute] the clock counts the halves, stoppage and half-time", () => {
  assert.equal(matchMinute(KICKOFF, after(-1), null), null, "before kick-off");
  assert.equal(matchMinute(KICKOFF, after(0, 10), null), "1'");
  assert.equal(matchMinute(KICKOFF, after(22, 10), null), "23'");
  assert.equal(matchMinute(KICKOFF, after(45, 30), null), "45+'");
  assert.equal(matchMinute(KICKOFF, after(50), null), "HT");
  assert.equal(matchMinute(KICKOFF, after(62), null), "46'");
  assert.equal(matchMinute(KICKOFF, after(83), null), "67'");
  assert.equal(matchMinute(KICKOFF, after(120), null), "90+'");
});

Deno.test("[match minute] a later event minute moves the clock on", () => {
  assert.equal(matchMinute(KICKOFF, after(10), 30), "30'", "the clock ran late");
  assert.equal(matchMinute(KICKOFF, after(30), 10), "31'", "an old event does not hold it back");
  assert.equal(matchMinute(KICKOFF, after(50), 48), "48'", "a second-half event ends half-time");
  assert.equal(matchMinute(KICKOFF, after(50), 45), "HT");
  assert.equal(matchMinute(KICKOFF, after(70), 93), "90+'");
});
