import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminLogin from "@/islands/AdminLogin.tsx";
import type { State } from "@/lib/services.ts";

export const handler: Handlers<string | null, State> = {
  GET(_req, ctx) {
    return ctx.render(ctx.state.services.config.oidc?.providerName ?? null);
  },
};

export default function LoginPage({ data }: PageProps<string | null>) {
  return (
    <>
      <Head>
        <title>Admin Login · Fantasy Contests</title>
      </Head>
      <AdminLogin providerName={data} />
    </>
  );
}
