/** Input schemas of the admin's round screens: a round is a name and its matches. */
import * as z from "zod/mini";
import { requiredId, requiredText } from "@/lib/domain/schemas/fields.ts";

const matchesMessage = "Choose at least one match";

/** POST /api/admin/rounds and PUT /api/admin/rounds/{id} body. */
export const roundInputSchema = z.object({
  name: requiredText("Name is required", 120),
  matchIds: z.array(requiredId("Match ids must be positive integers"), {
    error: matchesMessage,
  }).check(
    z.minLength(1, matchesMessage),
    z.maxLength(50, "At most 50 matches in a round"),
  ),
});
export type RoundInput = z.infer<typeof roundInputSchema>;
