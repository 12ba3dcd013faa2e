/** The state of the two-factor set-up screen: scan a QR code, confirm a code, keep the codes. */
import { useState } from "react";
import { adminFetch, errorText } from "./admin_api.ts";
import { toast } from "@/lib/client/toast.ts";

/** What the server shows once when a set-up starts. */
export interface TotpSetupView {
  qrCode: string;
  secret: string;
}

export type TwoFactorPhase =
  | { step: "status" }
  | { step: "scan"; setup: TotpSetupView }
  | { step: "codes"; recoveryCodes: string[] };

/** The screen's phase and the calls that move it on; `error` belongs to the code field. */
export function useTwoFactorSetup() {
  const [phase, setPhase] = useState<TwoFactorPhase>({ step: "status" });
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const run = async (call: () => Promise<void>, failure: string) => {
    setBusy(true);
    setError(undefined);
    try {
      await call();
    } catch (err) {
      setError(errorText(err, failure));
    } finally {
      setBusy(false);
    }
  };

  /** Starts a set-up; replacing an authenticator takes a current code (or a recovery code). */
  const start = (code?: string) =>
    run(async () => {
      const setup = await adminFetch<TotpSetupView>("/api/admin/2fa/setup", {
        method: "POST",
        body: code === undefined ? undefined : { code },
      });
      setPhase({ step: "scan", setup });
    }, "Could not start the set-up");

  const confirm = (code: string) =>
    run(async () => {
      const { recoveryCodes } = await adminFetch<{ recoveryCodes: string[] }>(
        "/api/admin/2fa/confirm",
        { method: "POST", body: { code } },
      );
      setPhase({ step: "codes", recoveryCodes });
      toast({ title: "Two-factor authentication on", description: "Save your recovery codes." });
    }, "That code is not right");

  const disable = (code: string) =>
    run(async () => {
      await adminFetch("/api/admin/2fa/disable", { method: "POST", body: { code } });
      toast({ title: "Two-factor authentication off" });
      location.reload();
    }, "Could not turn it off");

  return { phase, error, busy, start, confirm, disable };
}
