/**
 * `npx deno task feed:replay FILE [--speed N] [--url URL] [--provider NAME] [--match ID] [--from MIN]`
 * posts a recorded match through the live event feed of a running server, signed as the provider
 * (its secret from FEED_SECRET, shown on the admin Feed page). `npx` runs the deno that `npm install`
 * brings (it is not on PATH); with a deno of your own, `deno task feed:replay` does the same.
 * See "Rehearse a match day" in docs/operators.md.
 */
import { parseArgs } from "node:util";
import { parseRecording, replayMatch } from "@/lib/feed/replay.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    speed: { type: "string", default: "1" },
    url: { type: "string", default: Deno.env.get("FEED_URL") ?? "http://localhost:8000" },
    provider: { type: "string", default: Deno.env.get("FEED_PROVIDER") ?? "demo" },
    match: { type: "string" },
    from: { type: "string", default: "0" },
  },
});
const file = positionals[0];
const secret = Deno.env.get("FEED_SECRET") ?? "";
const speed = Number(values.speed);
if (!file || !secret || !(speed > 0)) {
  console.error(
    "Usage: FEED_SECRET=… npx deno task feed:replay FILE [--speed N] [--url URL] [--provider NAME] " +
      "[--match ID] [--from MINUTE]",
  );
  Deno.exit(2);
}
const recording = parseRecording(await Deno.readTextFile(file));
console.log(`Replaying "${recording.title}" (${recording.events.length} messages) at ${speed}×`);
const answers = await replayMatch(recording, {
  url: values.url,
  provider: values.provider,
  secret,
  speed,
  matchId: values.match ? Number(values.match) : undefined,
  fromMinute: Number(values.from),
  onSent(message, answer) {
    const who = message.playerId ? ` player ${message.playerId}` : "";
    const version = message.version > 1 ? ` v${message.version}` : "";
    const withdrawn = message.withdrawn ? " withdrawn" : "";
    console.log(
      `${String(message.minute ?? "").padStart(3)}' ${message.type}${who}${version}${withdrawn}` +
        ` → ${answer.httpStatus} ${answer.status}${answer.reason ? `: ${answer.reason}` : ""}`,
    );
  },
});
const failed = answers.filter((a) => a.httpStatus >= 400 && a.httpStatus !== 422);
console.log(
  `Done: ${answers.length} sent, ${answers.filter((a) => a.status === "REFUSED").length} refused` +
    `, ${failed.length} failed`,
);
if (failed.length > 0) Deno.exit(1);
