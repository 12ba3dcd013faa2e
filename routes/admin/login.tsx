import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminLogin from "../../islands/AdminLogin.tsx";
import { services } from "../../lib/services.ts";

export const handler: Handlers<string | null> = {
  GET(_req, ctx) {
    return ctx.render(services().config.oidc?.providerName ?? null);
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
