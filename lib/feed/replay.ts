/**
 * Replays a recorded match through the live event feed of a running server, as its data provider
 * would: each message signed and posted to `/api/feed/events` at its recorded time divided by
 * `speed`. Used by `npx deno task feed:replay` and the replay bench.
 */
import * as z from "zod/mini";
import { type FeedMessage, feedMessageSchema } from "@/lib/domain/schemas/feed.ts";
import { parseWith } from "@/lib/domain/schemas/fields.ts";
import { feedHeaders } from "./signature.ts";

/** One message of a recording: a feed message and when it was sent (seconds from the start). */
export type RecordedMessage = FeedMessage & { at: number };

export interface Recording {
  title: string;
  matchId: number;
  events: RecordedMessage[];
}

const recordingSchema = z.object({
  title: z._default(z.string(), "Recorded match"),
  matchId: z.number().check(z.int(), z.positive()),
  events: z.array(z.looseObject({ at: z.number().check(z.gte(0)) })),
});

/** Parses and checks a recording (a 400-style InvalidInputError naming the bad message). */
export function parseRecording(text: string): Recording {
  const raw = parseWith(recordingSchema, JSON.parse(text));
  const events = raw.events.map((e, i) => {
    try {
      return { ...parseWith(feedMessageSchema, { matchId: raw.matchId, ...e }), at: e.at };
    } catch (err) {
      throw new Error(`event ${i + 1} (${String(e.id)}): ${(err as Error).message}`);
    }
  });
  events.sort((a, b) => a.at - b.at);
  return { title: raw.title, matchId: raw.matchId, events };
}

export interface ReplayOptions {
  /** The server's origin, e.g. http://localhost:8000. */
  url: string;
  provider: string;
  secret: string;
  /** 60 plays a minute of the recording per second. */
  speed: number;
  /** Sends the recording to this match instead of its own. */
  matchId?: number;
  /** Skips messages whose match minute is below this (to join a match under way). */
  fromMinute?: number;
  /** Sends players' events as other players' (a recording replayed on other data). */
  players?: ReadonlyMap<number, number>;
  /** Called after each message with the server's answer (and how long the post took). */
  onSent?(message: FeedMessage, answer: ReplayAnswer): void | Promise<void>;
}

export interface ReplayAnswer {
  httpStatus: number;
  status: string;
  reason: string | null;
  /** The game event made in each competition, by competition id. */
  events: Record<string, number>;
  ms: number;
  /** When the post started (performance.timeOrigin-based wall clock, ms). */
  sentAt: number;
}

const wallNow = () => performance.timeOrigin + performance.now();

/** Plays the recording; resolves with the answers in order. */
export async function replayMatch(
  recording: Recording,
  options: ReplayOptions,
): Promise<ReplayAnswer[]> {
  const messages = recording.events.filter((e) => (e.minute ?? 0) >= (options.fromMinute ?? 0));
  const start = performance.now();
  const first = messages[0]?.at ?? 0;
  const answers: ReplayAnswer[] = [];
  for (const recorded of messages) {
    const due = start + ((recorded.at - first) * 1000) / options.speed;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const { at: _at, ...rest } = recorded;
    const message: FeedMessage = {
      ...rest,
      matchId: options.matchId ?? recording.matchId,
      playerId: rest.playerId === undefined
        ? undefined
        : options.players?.get(rest.playerId) ?? rest.playerId,
    };
    const body = JSON.stringify(message);
    const sentAt = wallNow();
    const t0 = performance.now();
    const res = await fetch(new URL("/api/feed/events", options.url), {
      method: "POST",
      headers: await feedHeaders(options.provider, options.secret, body),
      body,
    });
    const answer = await res.json().catch(() => ({}));
    const done: ReplayAnswer = {
      httpStatus: res.status,
      status: answer.status ?? "ERROR",
      reason: answer.reason ?? answer.message ?? null,
      events: answer.events ?? {},
      ms: performance.now() - t0,
      sentAt,
    };
    answers.push(done);
    await options.onSent?.(message, done);
  }
  return answers;
}
