import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import AdminDashboard from "@/islands/AdminDashboard.tsx";
import type { State } from "@/lib/services.ts";

interface Data {
  /** Payments are simulated: no card is charged. */
  testMode: boolean;
}

export const handler: Handlers<Data, State> = {
  GET(_req, ctx) {
    return ctx.render({ testMode: ctx.state.services.payments.mode === "test" });
  },
};

export default function DashboardPage({ data }: PageProps<Data>) {
  return (
    <>
      <Head>
        <title>Dashboard · Admin</title>
      </Head>
      {data.testMode && (
        <p
          role="note"
          className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          data-test-mode=""
        >
          <strong>Test mode:</strong>{" "}
          payments are simulated and no card is charged (test card 4242 4242 4242 4242). Set
          STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take real payments.
        </p>
      )}
      <AdminDashboard />
    </>
  );
}
