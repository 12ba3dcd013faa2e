/**
 * Friends' leagues: a name in one competition and up to MAX_LEAGUE_MEMBERS of its entries. A
 * league's id is 128 random bits and is its invite link's token. Each member is a record under
 * the league, indexed by entry (`leagues_by_entry`, with a per-entry count for the
 * leagues-per-entry limit); names are held per competition by skeleton, as display names are.
 * Every change of membership is one checked atomic with the league record (its member count).
 * No money moves in a league.
 */
import { randomToken, sha256Hex } from "@/lib/crypto/sealed.ts";
import { nameSkeleton } from "@/lib/domain/display_name.ts";
import { ConflictError, fieldError, NotFoundError } from "@/lib/domain/errors.ts";
import {
  JOIN_CODE_MINUTES,
  JOIN_CODE_TRIES,
  type LeagueView,
  MAX_LEAGUE_MEMBERS,
  MAX_LEAGUES_PER_ENTRY,
} from "@/lib/domain/leagues.ts";
import type { Entry } from "@/lib/domain/types.ts";
import { isKeyText, keys } from "@/lib/store/keys.ts";
import { type OutboxInput, outboxWrite } from "./outbox.ts";
import { retryAtomic } from "@/lib/store/util.ts";

export interface League {
  id: string;
  competitionId: number;
  name: string;
  memberCount: number;
  /** The entry whose owner created the league. */
  createdBy: number;
  createdAt: string;
}

export interface LeagueMember {
  entryId: number;
  teamId: string;
  joinedAt: string;
  /** SHA-256 of the secret a join by e-mailed code gave the browser, to leave again. */
  memberTokenHash?: string;
}

interface JoinCode {
  codeHash: string;
  tries: number;
  expiresAt: number;
}

export const LEAGUE_NAME_TAKEN =
  "This league name is already taken in this competition. Please choose another.";
export const LEAGUE_FULL = `This league is full (at most ${MAX_LEAGUE_MEMBERS} members).`;
export const TOO_MANY_LEAGUES =
  `This entry is already in ${MAX_LEAGUES_PER_ENTRY} leagues, the most one entry may join. Leave one first.`;
export const ALREADY_MEMBER = "This entry is already in this league.";
export const WRONG_CODE = "That code is not right. Check the e-mail and try again.";
export const CODE_EXPIRED = "This code has expired or was used up. Ask for a new one.";

/** The API's view of a league. */
export function leagueView(league: League): LeagueView {
  const { id, name, competitionId, memberCount, createdAt } = league;
  return { id, name, competitionId, memberCount, maxMembers: MAX_LEAGUE_MEMBERS, createdAt };
}

/** A league by id; null when unknown (or not an id this app makes). */
export async function getLeague(kv: Deno.Kv, id: string): Promise<League | null> {
  return isLeagueId(id) ? (await kv.get<League>(keys.league(id))).value : null;
}

/** Whether `id` can be a league id (randomToken: 22 URL-safe characters). */
function isLeagueId(id: string): boolean {
  return isKeyText(id) && /^[\w-]{16,64}$/.test(id);
}

/** The league or a 404. */
async function requireLeague(kv: Deno.Kv, id: string): Promise<Deno.KvEntry<League>> {
  const entry = isLeagueId(id) ? await kv.get<League>(keys.league(id)) : null;
  if (!entry || entry.value === null) throw new NotFoundError("League not found");
  return entry as Deno.KvEntry<League>;
}

/** The members of a league, in the order they joined the store (by entry id). */
export async function listLeagueMembers(kv: Deno.Kv, id: string): Promise<LeagueMember[]> {
  const out: LeagueMember[] = [];
  for await (const e of kv.list<LeagueMember>({ prefix: keys.leagueMembers(id) })) {
    out.push(e.value);
  }
  return out;
}

/** Every league, newest first (the admin's list; a few thousand at most). */
export async function listLeagues(kv: Deno.Kv): Promise<League[]> {
  const out: League[] = [];
  for await (const e of kv.list<League>({ prefix: keys.leagues() })) out.push(e.value);
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

/** The checks and writes that add `entry` to `league` (its count and the entry's index). */
async function memberWrites(
  kv: Deno.Kv,
  league: { key: Deno.KvKey; value: League; versionstamp: string | null },
  entry: Entry,
  memberTokenHash: string | null,
  now: Date,
): Promise<{ checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] }> {
  if (entry.competitionId !== league.value.competitionId) {
    throw fieldError("teamId", "This entry is in another competition than this league.");
  }
  if (entry.refundedAt) throw fieldError("teamId", "This entry was refunded.");
  const [member, count] = await kv.getMany<[LeagueMember, number]>([
    keys.leagueMember(league.value.id, entry.id),
    keys.leagueCountOfEntry(entry.id),
  ]);
  if (member.value) throw new ConflictError(ALREADY_MEMBER);
  if (league.value.memberCount >= MAX_LEAGUE_MEMBERS) throw fieldError("teamId", LEAGUE_FULL);
  if ((count.value ?? 0) >= MAX_LEAGUES_PER_ENTRY) throw fieldError("teamId", TOO_MANY_LEAGUES);
  const record: LeagueMember = {
    entryId: entry.id,
    teamId: entry.teamId,
    joinedAt: now.toISOString(),
    ...(memberTokenHash ? { memberTokenHash } : {}),
  };
  const next: League = { ...league.value, memberCount: league.value.memberCount + 1 };
  return {
    checks: [league, member, count],
    mutations: [
      { type: "set", key: league.key, value: next },
      { type: "set", key: member.key, value: record },
      { type: "set", key: keys.leagueOfEntry(entry.id, league.value.id), value: league.value.id },
      { type: "set", key: count.key, value: (count.value ?? 0) + 1 },
    ],
  };
}

function commitWrites(
  kv: Deno.Kv,
  writes: { checks: Deno.AtomicCheck[]; mutations: Deno.KvMutation[] },
): Promise<boolean> {
  return kv.atomic().check(...writes.checks).mutate(...writes.mutations).commit()
    .then((res) => res.ok);
}

/**
 * Creates a league named `name` in the competition of `entry` (its owner's), with that entry as
 * its first member. 400 when the name is taken in the competition (by look-alike skeleton) or the
 * entry is in too many leagues.
 */
export function createLeague(kv: Deno.Kv, entry: Entry, name: string): Promise<League> {
  const skeleton = nameSkeleton(name);
  return retryAtomic("create the league", async () => {
    const now = new Date();
    const nameKey = keys.leagueNameInCompetition(entry.competitionId, skeleton);
    const holder = await kv.get<string>(nameKey);
    if (holder.value !== null) throw fieldError("name", LEAGUE_NAME_TAKEN);
    const league: League = {
      id: randomToken(),
      competitionId: entry.competitionId,
      name,
      memberCount: 0,
      createdBy: entry.id,
      createdAt: now.toISOString(),
    };
    const fresh = { key: keys.league(league.id), value: league, versionstamp: null };
    const writes = await memberWrites(kv, fresh, entry, null, now);
    writes.checks.push(holder);
    writes.mutations.push({ type: "set", key: nameKey, value: league.id });
    return await commitWrites(kv, writes) ? { ...league, memberCount: 1 } : undefined;
  });
}

/**
 * Adds `entry` to league `id` (the caller proved it owns the entry). 404 for an unknown league,
 * 409 when already in, 400 when the league is full, the entry is in too many leagues, is in
 * another competition or was refunded. With `memberToken` (a join by code) the secret to leave
 * again is kept hashed.
 */
export async function joinLeague(
  kv: Deno.Kv,
  id: string,
  entry: Entry,
  memberToken: string | null = null,
): Promise<League> {
  const tokenHash = memberToken ? await sha256Hex(memberToken) : null;
  return retryAtomic("join the league", async () => {
    const league = await requireLeague(kv, id);
    const writes = await memberWrites(kv, league, entry, tokenHash, new Date());
    const ok = await commitWrites(kv, writes);
    return ok ? { ...league.value, memberCount: league.value.memberCount + 1 } : undefined;
  });
}

/**
 * Takes `entryId` out of league `id`. `proof` says how the caller proved it may: it owns the
 * entry (`owner`) or holds the member secret of a join by code. 404 when not a member; 400 for a
 * wrong member secret.
 */
export async function leaveLeague(
  kv: Deno.Kv,
  id: string,
  entryId: number,
  proof: { owner: true } | { memberToken: string },
): Promise<void> {
  const tokenHash = "memberToken" in proof ? await sha256Hex(proof.memberToken) : null;
  await retryAtomic("leave the league", async () => {
    const league = await requireLeague(kv, id);
    const [member, count] = await kv.getMany<[LeagueMember, number]>([
      keys.leagueMember(id, entryId),
      keys.leagueCountOfEntry(entryId),
    ]);
    if (!member.value) throw new NotFoundError("This entry is not in this league.");
    if (tokenHash !== null && member.value.memberTokenHash !== tokenHash) {
      throw fieldError("memberToken", "This browser cannot take this entry out of the league.");
    }
    const res = await kv.atomic().check(league, member, count)
      .set(league.key, { ...league.value, memberCount: league.value.memberCount - 1 })
      .delete(member.key)
      .delete(keys.leagueOfEntry(entryId, id))
      .set(count.key, Math.max(0, (count.value ?? 1) - 1))
      .commit();
    return res.ok ? true : undefined;
  });
}

/**
 * Removes league `id` with its members, their index entries and its name (an admin's removal).
 * 404 when unknown.
 */
export async function deleteLeague(kv: Deno.Kv, id: string): Promise<League> {
  return await retryAtomic("remove the league", async () => {
    const league = await requireLeague(kv, id);
    const members = [];
    for await (const m of kv.list<LeagueMember>({ prefix: keys.leagueMembers(id) })) {
      members.push(m);
    }
    const counts = await Promise.all(
      members.map((m) => kv.get<number>(keys.leagueCountOfEntry(m.value.entryId))),
    );
    const nameKey = keys.leagueNameInCompetition(
      league.value.competitionId,
      nameSkeleton(league.value.name),
    );
    // Every change of membership rewrites the league record, so its check covers the members.
    const op = kv.atomic().check(league, ...counts)
      .delete(league.key)
      .delete(nameKey);
    members.forEach((m, i) => {
      op.delete(m.key)
        .delete(keys.leagueOfEntry(m.value.entryId, id))
        .set(counts[i].key, Math.max(0, (counts[i].value ?? 1) - 1));
    });
    for await (const code of kv.list({ prefix: keys.leagueJoinCodes(id) })) op.delete(code.key);
    return (await op.commit()).ok ? league.value : undefined;
  });
}

/** A 6-digit code from a CSPRNG (no modulo bias worth the name: 2^32 ≫ 10^6). */
function sixDigits(): string {
  const [n] = crypto.getRandomValues(new Uint32Array(1));
  return String(n % 1_000_000).padStart(6, "0");
}

function codeHash(id: string, entryId: number, code: string): Promise<string> {
  return sha256Hex(`${id}:${entryId}:${code}`);
}

/**
 * Writes a new join code for `entry` in league `id` and the e-mail that carries it (`mail`
 * builds it from the code) in one atomic, replacing any earlier code. Returns the outbox id
 * (to hand to SMTP at once when `deliver`). 404 for an unknown league, 409 when already in.
 */
export async function createJoinCode(
  kv: Deno.Kv,
  id: string,
  entry: Entry,
  mail: (code: string) => OutboxInput,
  { deliver }: { deliver: boolean },
): Promise<number> {
  const code = sixDigits();
  const hash = await codeHash(id, entry.id, code);
  return await retryAtomic("e-mail the code", async () => {
    const league = await requireLeague(kv, id);
    if (entry.competitionId !== league.value.competitionId) {
      throw fieldError("teamId", "This entry is in another competition than this league.");
    }
    const member = await kv.get(keys.leagueMember(id, entry.id));
    if (member.value) throw new ConflictError(ALREADY_MEMBER);
    const ms = JOIN_CODE_MINUTES * 60_000;
    const record: JoinCode = { codeHash: hash, tries: 0, expiresAt: Date.now() + ms };
    const message = outboxWrite(mail(code), { deliver });
    const res = await kv.atomic().check(league, member, ...message.checks)
      .set(keys.leagueJoinCode(id, entry.id), record, { expireIn: ms })
      .mutate(...message.mutations)
      .commit();
    return res.ok ? message.id : undefined;
  });
}

/**
 * Adds `entry` to league `id` when `code` is the one last e-mailed for it; a wrong code uses up
 * one of JOIN_CODE_TRIES tries (400), an expired or used-up one is refused (400). The code is
 * spent in the same atomic as the join. Returns the league and the member secret to leave again.
 */
export async function joinLeagueByCode(
  kv: Deno.Kv,
  id: string,
  entry: Entry,
  code: string,
): Promise<{ league: League; memberToken: string }> {
  const hash = await codeHash(id, entry.id, code);
  const memberToken = randomToken();
  const tokenHash = await sha256Hex(memberToken);
  return await retryAtomic("join the league", async () => {
    const league = await requireLeague(kv, id);
    if ((await kv.get(keys.leagueMember(id, entry.id))).value) {
      throw new ConflictError(ALREADY_MEMBER);
    }
    const stored = await kv.get<JoinCode>(keys.leagueJoinCode(id, entry.id));
    const record = stored.value;
    if (!record || record.expiresAt <= Date.now() || record.tries >= JOIN_CODE_TRIES) {
      throw fieldError("code", CODE_EXPIRED);
    }
    if (record.codeHash !== hash) {
      const tries = record.tries + 1;
      const left = Math.max(0, record.expiresAt - Date.now());
      const res = await kv.atomic().check(stored)
        .set(stored.key, { ...record, tries }, { expireIn: Math.max(1, left) })
        .commit();
      if (!res.ok) return undefined;
      throw fieldError("code", tries >= JOIN_CODE_TRIES ? CODE_EXPIRED : WRONG_CODE);
    }
    const writes = await memberWrites(kv, league, entry, tokenHash, new Date());
    writes.checks.push(stored);
    writes.mutations.push({ type: "delete", key: stored.key });
    if (!await commitWrites(kv, writes)) return undefined;
    return { league: { ...league.value, memberCount: league.value.memberCount + 1 }, memberToken };
  });
}
