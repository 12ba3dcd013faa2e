import { Head } from "$fresh/runtime.ts";
import type { Handlers, PageProps } from "$fresh/server.ts";
import { StatusCard } from "@/components/StatusCard.tsx";
import { Button } from "@/components/ui/Button.tsx";
import ClaimForm from "@/islands/ClaimForm.tsx";
import { getCompetition } from "@/lib/db/competitions.ts";
import { type Payout, payoutState } from "@/lib/db/payout_records.ts";
import { NotFoundError } from "@/lib/domain/errors.ts";
import { prizeWords } from "@/lib/email/winner.ts";
import { payoutOfToken } from "@/lib/payments/payouts.ts";
import { PRIVATE_HEADERS } from "@/lib/http/private.ts";
import type { State } from "@/lib/services.ts";

type Data = {
  token: string;
  payout: Pick<Payout, "place" | "teamName" | "teamId" | "status" | "paidAt" | "claimedAt">;
  prize: string;
  cash: boolean;
  competitionName: string;
  unclaimed: boolean;
} | null;

export const handler: Handlers<Data, State> = {
  async GET(_req, ctx) {
    const { kv } = ctx.state.services;
    try {
      const payout = await payoutOfToken(kv, ctx.params.token);
      const competition = await getCompetition(kv, payout.competitionId);
      const { place, teamName, teamId, status, paidAt, claimedAt } = payout;
      return ctx.render({
        token: ctx.params.token,
        payout: { place, teamName, teamId, status, paidAt, claimedAt },
        prize: prizeWords(payout),
        cash: payout.prizeType !== "NON_CASH",
        competitionName: competition?.name ?? "the competition",
        unclaimed: payoutState(payout) === "unclaimed",
      }, { headers: PRIVATE_HEADERS });
    } catch (err) {
      if (err instanceof NotFoundError) {
        return ctx.render(null, { status: 404, headers: PRIVATE_HEADERS });
      }
      throw err;
    }
  },
};

const day = (iso: string | null) => iso ? iso.slice(0, 10) : "";

/** A winner's private page: their place and prize, and the form to claim it (no account). */
export default function ClaimPage({ data }: PageProps<Data>) {
  if (!data) {
    return (
      <main className="mx-auto max-w-xl px-4 py-10">
        <Head>
          <title>Claim Link Not Valid · Fantasy Contests</title>
          <meta name="referrer" content="no-referrer" />
        </Head>
        <StatusCard
          title="Claim Link Not Valid"
          description="This link does not open a prize. Use the latest link from your e-mail."
        >
          <Button href="/">Return to contests</Button>
        </StatusCard>
      </main>
    );
  }
  const { payout } = data;
  return (
    <main className="mx-auto max-w-xl px-4 py-10">
      <Head>
        <title>Claim Your Prize · Fantasy Contests</title>
        <meta name="referrer" content="no-referrer" />
      </Head>
      <div className="grid gap-6 rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">
        <div className="grid gap-2 text-center">
          <h1 className="text-3xl font-extrabold tracking-tight">Claim Your Prize</h1>
          <p>
            <strong>{payout.teamName}</strong> ({payout.teamId}) finished{" "}
            <strong>{payout.place}</strong> in {data.competitionName}.
          </p>
          <p className="text-2xl font-bold" data-prize="">{data.prize}</p>
        </div>
        {payout.status === "PAID" && (
          <p role="status" className="rounded-lg bg-success/10 p-4 text-center" data-paid="">
            Paid on {day(payout.paidAt)}. Enjoy your prize!
          </p>
        )}
        {payout.status === "CLAIMED" && (
          <>
            <p role="status" className="rounded-lg bg-muted p-4 text-center" data-claimed="">
              Claim received on{" "}
              {day(payout.claimedAt)}; we will pay your prize shortly. Until then you can correct
              your details below (we confirm them by e-mail).
            </p>
            <ClaimForm token={data.token} cash={data.cash} correcting />
          </>
        )}
        {payout.status === "OWED" && (
          <>
            {data.unclaimed && (
              <p className="text-sm text-muted-foreground">
                The claim window has passed, but you can still send your details.
              </p>
            )}
            <ClaimForm token={data.token} cash={data.cash} />
          </>
        )}
      </div>
    </main>
  );
}
