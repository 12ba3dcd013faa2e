/** The authenticator app of the TOTP tests: codes of a secret around now. */
import { totpCode, totpStep } from "@/lib/auth/totp.ts";

/** The code of `secret` `offset` steps after the current one. */
export function codeAt(secret: Uint8Array, offset = 0): string {
  return totpCode(secret, totpStep(Date.now()) + offset);
}

/** A six-digit code that is none of the codes accepted now or in the next step. */
export function wrongCode(secret: Uint8Array): string {
  const valid = new Set([-1, 0, 1, 2].map((d) => codeAt(secret, d)));
  for (let n = 0;; n++) {
    const code = String(n).padStart(6, "0");
    if (!valid.has(code)) return code;
  }
}
