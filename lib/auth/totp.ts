/**
 * The TOTP second factor of password logins (RFC 6238: 6 digits, 30-second steps, one step of
 * clock drift either way) through `@oslojs/otp`, with single-use recovery codes. A code is
 * accepted once: its time step must be later than the last one used.
 */
import { encodeBase32UpperCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP } from "@oslojs/otp";
import QRCode from "qrcode";
import {
  activateTotp,
  consumeTotpStep,
  getPendingTotp,
  getTotpEnrolment,
  savePendingTotp,
  takeRecoveryCode,
} from "@/lib/auth/records/totp.ts";
import { fieldError, UnauthorizedError } from "@/lib/domain/errors.ts";
import type { AdminIdentity } from "./admins.ts";
import { timingSafeEqual } from "./passwords.ts";
import { beginAttempt, clearFailures } from "./throttle.ts";

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted before and after the current one (clock drift between phone and server). */
const DRIFT_STEPS = 1;
const SECRET_BYTES = 20;
/** How long a secret shown on the enrolment page waits for its first code. */
export const PENDING_ENROLMENT_MS = 10 * 60 * 1000;
export const RECOVERY_CODE_COUNT = 10;
export const TOTP_ISSUER = "Fantasy Contests";
export const INVALID_CODE = "Invalid authentication code";
export const CODE_REQUIRED = "Enter the 6-digit code from your authenticator app";

/** What the enrolment page shows once: the QR code, and the secret for typing it by hand. */
export interface TotpSetup {
  /** `data:image/svg+xml` URL of the QR code of `uri`. */
  qrCode: string;
  /** The secret in base32, as authenticator apps accept it. */
  secret: string;
  /** The `otpauth://totp/…` URI. */
  uri: string;
}

/** The time step of `nowMs`. */
export function totpStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / TOTP_PERIOD_S);
}

/** The code of `secret` for time step `step` (tests use it as the authenticator app). */
export function totpCode(secret: Uint8Array, step: number): string {
  return generateHOTP(secret, BigInt(step), TOTP_DIGITS);
}

/** The time step whose code `code` is (within the allowed drift of `nowMs`), or null. */
export function matchTotpStep(secret: Uint8Array, code: string, nowMs = Date.now()): number | null {
  if (!isTotpCode(code)) return null;
  const given = new TextEncoder().encode(code);
  const now = totpStep(nowMs);
  let found: number | null = null;
  for (let step = now - DRIFT_STEPS; step <= now + DRIFT_STEPS; step++) {
    const expected = new TextEncoder().encode(totpCode(secret, step));
    if (timingSafeEqual(given, expected) && found === null) found = step;
  }
  return found;
}

/** True for six digits (a TOTP code); anything else is read as a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** The SHA-256 of a recovery code, ignoring case, spaces and dashes (what KV keeps). */
export async function hashRecoveryCode(code: string): Promise<string> {
  const normal = code.toLowerCase().replace(/[\s-]/g, "");
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(normal));
  return encodeHexLowerCase(new Uint8Array(digest));
}

/** Fresh recovery codes like `k7q2m-9xd4p` (50 random bits each). */
export function generateRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    const text = encodeBase32UpperCaseNoPadding(crypto.getRandomValues(new Uint8Array(7)))
      .slice(0, 10).toLowerCase();
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  });
}

/**
 * Starts (or restarts) an enrolment: a new secret kept pending for 10 minutes, and the QR code
 * and text to show once.
 */
export async function startTotpEnrolment(kv: Deno.Kv, admin: AdminIdentity): Promise<TotpSetup> {
  const secret = crypto.getRandomValues(new Uint8Array(SECRET_BYTES));
  await savePendingTotp(kv, admin.id, secret, PENDING_ENROLMENT_MS);
  const uri = createTOTPKeyURI(TOTP_ISSUER, admin.username, secret, TOTP_PERIOD_S, TOTP_DIGITS);
  const svg = await QRCode.toString(uri, { type: "svg", margin: 2, errorCorrectionLevel: "M" });
  return {
    qrCode: `data:image/svg+xml;base64,${btoa(svg)}`,
    secret: encodeBase32UpperCaseNoPadding(secret),
    uri,
  };
}

/**
 * Confirms the pending enrolment with a first code; returns the recovery codes (shown once, only
 * their hashes are kept). 400 on the field `code` when the code is wrong or the setup expired.
 */
export async function confirmTotpEnrolment(
  kv: Deno.Kv,
  admin: AdminIdentity,
  code: string,
  nowMs = Date.now(),
): Promise<string[]> {
  const secret = await getPendingTotp(kv, admin.id);
  if (!secret) throw fieldError("code", "The setup expired. Please start again.");
  const step = matchTotpStep(secret, code.trim(), nowMs);
  if (step === null) throw fieldError("code", "That code is not right. Enter the current code.");
  const codes = generateRecoveryCodes();
  const hashes = await Promise.all(codes.map(hashRecoveryCode));
  if (!await activateTotp(kv, admin.id, secret, step, hashes)) {
    throw fieldError("code", "The setup changed meanwhile. Please start again.");
  }
  return codes;
}

/** True when a password login of this admin needs a second factor. */
export async function isSecondFactorRequired(
  kv: Deno.Kv,
  adminId: number,
  requiredForAll: boolean,
): Promise<boolean> {
  return requiredForAll || (await getTotpEnrolment(kv, adminId)) !== null;
}

/** True when the admin has a confirmed authenticator. */
export async function hasTotp(kv: Deno.Kv, adminId: number): Promise<boolean> {
  return (await getTotpEnrolment(kv, adminId)) !== null;
}

/**
 * Checks the second factor of an admin whose password was right: a current TOTP code not used
 * before, or an unused recovery code (then used up). Wrong codes are throttled per admin like
 * passwords (5 in 15 minutes, then 429), apart from the password's count so a known password
 * cannot reset it. 401 'Invalid authentication code' otherwise.
 */
export async function verifySecondFactor(
  kv: Deno.Kv,
  adminId: number,
  code: string,
  nowMs = Date.now(),
): Promise<void> {
  const keys = [`totp:${adminId}`];
  await beginAttempt(kv, keys);
  const given = code.trim();
  if (!await acceptCode(kv, adminId, given, nowMs)) throw new UnauthorizedError(INVALID_CODE);
  await clearFailures(kv, keys);
}

async function acceptCode(
  kv: Deno.Kv,
  adminId: number,
  code: string,
  nowMs: number,
): Promise<boolean> {
  if (!isTotpCode(code)) {
    return code.length <= 40 && await takeRecoveryCode(kv, adminId, await hashRecoveryCode(code));
  }
  const enrolment = await getTotpEnrolment(kv, adminId);
  if (!enrolment) return false;
  const step = matchTotpStep(enrolment.secret, code, nowMs);
  return step !== null && await consumeTotpStep(kv, adminId, step);
}

/**
 * The second step of a password login whose password was right: the admin to start a session
 * for (marked `mustEnrolTotp` when ADMIN_REQUIRE_2FA finds no authenticator), or null when the
 * admin has an authenticator and no code was given. Throws like `verifySecondFactor`.
 */
export async function passwordLoginSecondStep(
  kv: Deno.Kv,
  admin: AdminIdentity,
  code: string | undefined,
  requiredForAll: boolean,
): Promise<AdminIdentity | null> {
  if (await hasTotp(kv, admin.id)) {
    if (!code) return null;
    await verifySecondFactor(kv, admin.id, code);
    return admin;
  }
  return requiredForAll ? { ...admin, mustEnrolTotp: true } : admin;
}
