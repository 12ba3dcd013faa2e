import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Field, fieldAria } from "@/components/admin/Field.tsx";
import { type TotpSetupView, useTwoFactorSetup } from "@/lib/client/admin/use_two_factor.ts";
import { useMounted } from "@/lib/client/use_mounted.ts";

export interface TwoFactorSetupProps {
  enabled: boolean;
  recoveryCodesLeft: number;
  /** ADMIN_REQUIRE_2FA: it cannot be turned off. */
  required: boolean;
}

/** Set up, replace or turn off the authenticator app that password logins ask a code from. */
export default function TwoFactorSetup(props: TwoFactorSetupProps) {
  const { phase, error, busy, start, confirm, disable } = useTwoFactorSetup();
  const mounted = useMounted();
  const idle = mounted && !busy;
  if (phase.step === "scan") {
    return <ScanStep setup={phase.setup} error={error} idle={idle} onConfirm={confirm} />;
  }
  if (phase.step === "codes") return <RecoveryCodes codes={phase.recoveryCodes} />;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        {props.enabled
          ? `Two-factor authentication is on. ${props.recoveryCodesLeft} recovery codes left.`
          : "Two-factor authentication is off."}
      </p>
      {props.enabled
        ? (
          <CodeForm
            label="Current code (or a recovery code) to set up a new authenticator"
            action="Set up a new authenticator"
            error={error}
            idle={idle}
            onSubmit={start}
          />
        )
        : (
          <div>
            <Button onClick={() => start()} disabled={!idle}>Set up authenticator</Button>
          </div>
        )}
      {props.enabled && !props.required && (
        <CodeForm
          label="Code to turn it off"
          action="Turn off"
          error={error}
          idle={idle}
          onSubmit={disable}
        />
      )}
    </div>
  );
}

function ScanStep(
  { setup, error, idle, onConfirm }: {
    setup: TotpSetupView;
    error?: string;
    idle: boolean;
    onConfirm: (code: string) => void;
  },
) {
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        Scan this QR code with your authenticator app (Google Authenticator, 1Password, Authy…),
        then enter the 6-digit code it shows.
      </p>
      <img
        src={setup.qrCode}
        alt="QR code for your authenticator app"
        width="200"
        height="200"
        className="h-48 w-48 rounded-md border border-border bg-white"
      />
      <p className="text-sm text-muted-foreground">
        Or enter this key by hand:{" "}
        <code className="break-all font-mono text-foreground" data-testid="totp-secret">
          {setup.secret}
        </code>
      </p>
      <CodeForm
        label="Code from the app"
        action="Confirm"
        error={error}
        idle={idle}
        onSubmit={onConfirm}
      />
    </div>
  );
}

function CodeForm(
  { label, action, error, idle, onSubmit }: {
    label: string;
    action: string;
    error?: string;
    idle: boolean;
    onSubmit: (code: string) => void;
  },
) {
  const [code, setCode] = useState("");
  return (
    <form
      className="flex max-w-xs flex-col gap-3"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(code);
      }}
    >
      <Field id="totp-code" label={label} error={error}>
        <Input
          {...fieldAria("totp-code", error)}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
        />
      </Field>
      <div>
        <Button type="submit" disabled={!idle}>{action}</Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Save your recovery codes</h2>
      <p className="text-sm text-muted-foreground">
        Each code logs you in once if you lose your phone. Keep them somewhere safe: they are not
        shown again.
      </p>
      <ol className="grid max-w-xs grid-cols-2 gap-2 font-mono text-sm" aria-label="Recovery codes">
        {codes.map((code) => <li key={code}>{code}</li>)}
      </ol>
      <div>
        <Button href="/admin/dashboard">Continue to the dashboard</Button>
      </div>
    </div>
  );
}
