import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { PageHeader } from "@/components/admin/PageHeader.tsx";
import { LogoutButton } from "@/components/admin/LogoutButton.tsx";
import { Button } from "@/components/ui/Button.tsx";
import TwoFactorSetup, { type TwoFactorSetupProps } from "@/islands/TwoFactorSetup.tsx";
import { hasTotp } from "@/lib/auth/totp.ts";
import { countRecoveryCodes } from "@/lib/auth/records/totp.ts";
import type { AdminState } from "@/lib/services.ts";

type Data = TwoFactorSetupProps & { mustEnrol: boolean };

export const handler: Handlers<Data, AdminState> = {
  async GET(_req, ctx) {
    const { kv, config } = ctx.state.services;
    const { id, mustEnrolTotp } = ctx.state.admin;
    const enabled = await hasTotp(kv, id);
    return ctx.render({
      enabled,
      recoveryCodesLeft: enabled ? await countRecoveryCodes(kv, id) : 0,
      required: config.adminRequire2fa ?? false,
      mustEnrol: mustEnrolTotp ?? false,
    });
  },
};

/** Two-factor authentication of the admin's password logins. */
export default function TwoFactorPage({ data }: PageProps<Data>) {
  const { mustEnrol, ...setup } = data;
  return (
    <div className="flex flex-col gap-6">
      <Head>
        <title>Two-Factor Authentication · Admin</title>
      </Head>
      <PageHeader
        title="Two-Factor Authentication"
        description="Password logins also ask for a 6-digit code from an authenticator app."
        actions={mustEnrol
          ? <LogoutButton />
          : <Button variant="outline" href="/admin/dashboard">Back to dashboard</Button>}
      />
      {mustEnrol && (
        <p role="status" className="rounded-md border border-border bg-card p-4 text-sm">
          This site requires two-factor authentication. Set up an authenticator app to continue.
        </p>
      )}
      <div className="rounded-xl border border-border bg-card p-6 shadow-sm">
        <TwoFactorSetup {...setup} />
      </div>
    </div>
  );
}
