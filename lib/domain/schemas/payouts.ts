/** Input schemas of prize payouts: the winner's claim and the admin's record of a payment. */
import * as z from "zod/mini";
import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import { requiredText } from "@/lib/domain/schemas/fields.ts";
import { hasHiddenCharacters } from "@/lib/domain/schemas/public.ts";

/** A person's name as a winner types it: required, and without look-alike characters. */
const personName = (required: string) =>
  requiredText(required, 100).check(
    z.refine(
      (name) => !hasHiddenCharacters(name),
      "Name cannot contain invisible, formatting, separator or filler characters",
    ),
  );

const emailText = z.string({ error: "Please provide a valid PayPal e-mail" }).check(
  z.trim(),
  z.maxLength(254, "The e-mail address is too long"),
  z.email("Please provide a valid PayPal e-mail"),
);

/** An IBAN as typed (spaces and case ignored), checked by country length and mod-97. */
const iban = z.pipe(
  z.pipe(
    z.string({ error: "IBAN is required" }),
    z.transform((v) => electronicFormatIBAN(v) ?? ""),
  ),
  z.string().check(z.refine((v) => isValidIBAN(v), "This IBAN is not valid")),
);

export const claimBodySchema = z.discriminatedUnion("method", [
  z.object({ method: z.literal("paypal"), paypalEmail: emailText }),
  z.object({
    method: z.literal("iban"),
    iban,
    accountHolder: personName("Account holder is required"),
  }),
  z.object({
    method: z.literal("address"),
    address: z.object({
      name: personName("Name is required"),
      line1: requiredText("Address is required", 200),
      line2: z.optional(z.string().check(z.maxLength(200))),
      city: requiredText("City is required", 100),
      postcode: requiredText("Postcode is required", 20),
      country: requiredText("Country is required", 60),
    }),
  }),
], { error: "Choose how to receive your prize" });
export type PayoutDetails = z.infer<typeof claimBodySchema>;

/** POST /api/admin/payouts/{cid}/{entryId}/paid body. */
export const payoutPaidSchema = z.object({
  reference: requiredText("The payment's reference is required", 100),
});

/** POST /api/admin/competitions/{id}/entries/{teamId}/refund body: why (3–500 characters). */
export const entryRefundSchema = z.object({
  reason: requiredText("Please say why the entry is refunded", 500).check(
    z.minLength(3, "The reason must be at least 3 characters"),
  ),
});
