/**
 * Input schemas of friends' leagues: create one for an entry, add an entry (this browser's own,
 * or one found by team ID and an e-mailed code), ask for that code, leave.
 */
import * as z from "zod/mini";
import { blankToUndefined, preprocess } from "@/lib/domain/schemas/fields.ts";
import { chosenName } from "@/lib/domain/schemas/public.ts";

/** A league's name: the rules of display names. */
export const leagueName = chosenName("League name");

const teamId = z.string({ error: "Team ID is required" }).check(
  z.trim(),
  z.minLength(1, "Team ID is required"),
  z.regex(/^[\w-]{1,40}$/, "Team ID must be letters, digits and dashes (at most 40)"),
);
/** The secret of an entry's edit link, which this browser keeps (32 hex digits). */
const editToken = z.string({ error: "Edit link secret is required" }).check(
  z.trim(),
  z.regex(/^[0-9a-f]{32}$/, "Edit link secret must be 32 hexadecimal digits"),
);
const code = z.string({ error: "Code is required" }).check(
  z.trim(),
  z.regex(/^\d{6}$/, "Code must be the 6 digits from the e-mail"),
);
/** The secret a join by code gave this browser, to leave again (URL-safe base64). */
const memberToken = z.string().check(
  z.trim(),
  z.regex(/^[\w-]{10,64}$/, "Member secret is not valid"),
);
const optional = <S extends z.ZodMiniType>(schema: S) =>
  preprocess(blankToUndefined, z.optional(schema));

/** POST /api/leagues: a league for the competition of this browser's entry. */
export const leagueCreateSchema = z.object({ teamId, editToken, name: leagueName });
export type LeagueCreateInput = z.infer<typeof leagueCreateSchema>;

/** POST /api/leagues/{id}/members: the entry's edit secret, or the e-mailed code. */
export const leagueJoinSchema = z.object({
  teamId,
  editToken: optional(editToken),
  code: optional(code),
}).check(
  z.refine((v) => (v.editToken === undefined) !== (v.code === undefined), {
    message: "Send either this browser's edit secret or the e-mailed code",
    path: ["code"],
  }),
);
export type LeagueJoinInput = z.infer<typeof leagueJoinSchema>;

/** POST /api/leagues/{id}/codes: e-mail a code to the address of this team's entry. */
export const leagueCodeSchema = z.object({ teamId });

/** POST /api/leagues/{id}/leave: the entry's edit secret, or the member secret of its join. */
export const leagueLeaveSchema = z.object({
  teamId,
  editToken: optional(editToken),
  memberToken: optional(memberToken),
}).check(
  z.refine((v) => v.editToken !== undefined || v.memberToken !== undefined, {
    message: "Send this browser's edit secret or member secret",
    path: ["editToken"],
  }),
);
export type LeagueLeaveInput = z.infer<typeof leagueLeaveSchema>;
