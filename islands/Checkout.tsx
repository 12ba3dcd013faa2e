import { useEffect, useRef, useState } from "react";
import { formatPrice } from "@/lib/domain/format.ts";
import type { Competition } from "@/lib/domain/types.ts";
import { PicksSummary } from "@/components/checkout/PicksSummary.tsx";
import { type InfoErrors, InfoForm, type InfoValues } from "@/components/checkout/InfoForm.tsx";
import { InvalidCheckout } from "@/components/checkout/InvalidCheckout.tsx";
import { type CheckoutStep, StepIndicator } from "@/components/checkout/StepIndicator.tsx";
import { PaymentStep } from "@/components/checkout/PaymentStep.tsx";
import { PrizeInfo } from "@/components/PrizeInfo.tsx";
import { StatusCard } from "@/components/StatusCard.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import { track } from "@/lib/client/analytics.ts";
import { ApiError } from "@/lib/client/api.ts";
import {
  type CheckoutDetails,
  clearCheckoutContact,
  createEntry,
  createPaymentIntent,
  fieldErrors,
  loadCheckoutContact,
  type PaymentIntentAnswer,
  saveCheckoutContact,
} from "@/lib/client/checkout.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { clearSelection } from "@/lib/client/selection.ts";
import { CHECKOUT_PREPAINT } from "@/lib/client/prepaint.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { usePicks } from "@/lib/client/use_picks.ts";
import { addUserEntry } from "@/lib/client/user_entries.ts";

/** The form's schema (and zod) loads once the visitor starts typing, not with the page. */
let schemas: Promise<typeof import("@/lib/domain/schemas/public.ts")> | null = null;
const loadSchemas = () => schemas ??= import("@/lib/domain/schemas/public.ts");

export type CheckoutCompetition = Pick<
  Competition,
  "id" | "name" | "entryFee" | "currency" | "prizePool" | "prizeType" | "customPrizeDescription"
>;

export interface CheckoutProps {
  competition: CheckoutCompetition;
  prizes: { position: number; prize: number }[];
  /** Why the competition takes no entry (checked when the page was served); null while open. */
  closed?: string | null;
}

const FIELDS = ["teamName", "email", "confirmEmail"] as const;
/** SPEC §9: the fee the form falls back to when the competition has none. */
const FALLBACK_FEE = 5;
const UNEXPECTED = "An unexpected error occurred. Please try again.";

/** Checkout and payment (SPEC §2, ARCHITECTURE §5): info → payment → processing → confirmation. */
export default function Checkout({ competition, prizes, closed }: CheckoutProps) {
  const picks = usePicks(competition.id);
  useEffect(() => track("view_payment_page", { competitionId: competition.id }), []);

  if (closed) {
    return (
      <StatusCard
        title="This competition is closed for entries."
        description={closed}
        data-closed-checkout=""
      >
        <Button href={`/leaderboard/${competition.id}`}>View Leaderboard</Button>
      </StatusCard>
    );
  }
  const invalid = picks === "invalid";
  // While the picks load, the prepaint script shows the invalid state at first paint when this
  // browser holds no full team (not after the modules have run); the invalid state then keeps
  // that very node, so nothing new is painted when the island confirms it.
  return (
    <>
      <div hidden={!invalid}>
        <InvalidCheckout />
      </div>
      {!invalid && (
        <div data-checkout-body={String(competition.id)} hidden={false}>
          <CheckoutLayout competition={competition} prizes={prizes} picks={picks} />
        </div>
      )}
      {picks === null && (
        <script
          // Static text of ours, allowed by its hash in the CSP.
          // deno-lint-ignore react-no-danger
          dangerouslySetInnerHTML={{ __html: CHECKOUT_PREPAINT }}
        />
      )}
    </>
  );
}

/** The checkout's page: heading, picks and prizes beside the form (a skeleton while loading). */
function CheckoutLayout(
  { competition, prizes, picks }: Omit<CheckoutProps, "closed"> & { picks: PickPlayer[] | null },
) {
  return (
    <div className="grid grid-cols-1 gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Complete Your Entry</h1>
        <p className="mt-1 text-muted-foreground">{competition.name}</p>
      </div>
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="grid grid-cols-1 gap-6 rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5">
          {picks === null
            ? <PicksSkeleton />
            : <PicksSummary picks={picks} currency={competition.currency} />}
          <PrizeInfo competition={competition} prizes={prizes} />
        </div>
        <div className="rounded-xl border border-border bg-card p-4 shadow-sm sm:p-5">
          {picks === null
            ? <Skeleton className="h-72 w-full" />
            : <CheckoutFlow competition={competition} picks={picks} />}
        </div>
      </div>
    </div>
  );
}

function PicksSkeleton() {
  return (
    <div className="grid grid-cols-5 gap-2" aria-busy="true" aria-label="Loading your picks">
      {[0, 1, 2, 3, 4].map((i) => <Skeleton key={i} className="mx-auto h-20 w-12" />)}
    </div>
  );
}

function CheckoutFlow(
  { competition, picks }: { competition: CheckoutCompetition; picks: PickPlayer[] },
) {
  const fee = competition.entryFee ?? FALLBACK_FEE;
  const price = formatPrice(fee, competition.currency);
  const [step, setStep] = useState<CheckoutStep>("info");
  const [values, setValues] = useState<InfoValues>({ teamName: "", email: "", confirmEmail: "" });
  const [errors, setErrors] = useState<InfoErrors>({});
  const [busy, setBusy] = useState(false);
  const [intent, setIntent] = useState<PaymentIntentAnswer | null>(null);
  const details = useRef<CheckoutDetails | null>(null);

  useEffect(() => {
    const saved = loadCheckoutContact();
    setValues({ teamName: saved.teamName, email: saved.email, confirmEmail: saved.email });
  }, []);

  const onChange = (field: keyof InfoValues, value: string) => {
    loadSchemas();
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const proceed = async () => {
    const { paymentFormSchema } = await loadSchemas();
    const parsed = paymentFormSchema.safeParse(values);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error.issues, FIELDS));
    setErrors({});
    const { email, teamName } = parsed.data;
    saveCheckoutContact(email, teamName);
    const playerIds = picks.map((p) => p.id);
    details.current = { competitionId: competition.id, email, teamName, playerIds };
    setBusy(true);
    try {
      const answer = await createPaymentIntent(details.current);
      if (!answer?.clientSecret || !answer?.paymentIntentId) {
        toast({
          title: "Payment Setup Failed",
          description: "Unable to initialize payment. Please try again.",
          variant: "destructive",
        });
        return;
      }
      setIntent(answer);
      setStep("payment");
      if (!answer.applePayAvailable) {
        toast({ title: "Apple Pay Not Available", description: "Card payments remain available." });
      }
    } catch (err) {
      intentFailed(err, setErrors);
    } finally {
      setBusy(false);
    }
  };

  const onPaid = async (paymentId: string) => {
    toast({
      title: "Payment Successful",
      description: "Your payment has been processed successfully!",
    });
    track("payment_success", { competitionId: competition.id, payment_id: paymentId, amount: fee });
    setStep("processing");
    try {
      const teamId = await createEntry({ ...details.current!, stripePaymentId: paymentId });
      addUserEntry({ competitionId: competition.id, teamId });
      clearCheckoutContact();
      clearSelection();
      track("purchase", { competitionId: competition.id, team_id: teamId, amount: fee });
      location.assign(`/confirmation/${encodeURIComponent(teamId)}`);
    } catch {
      toastError(
        "Your payment was successful, but we couldn't complete your entry. Please contact support.",
      );
      setIntent(null);
      setStep("info");
    }
  };

  return (
    <div className="grid gap-5">
      <StepIndicator current={step} />
      {step === "info" && (
        <InfoForm
          values={values}
          errors={errors}
          busy={busy}
          submitLabel={`Proceed to Payment: ${price}`}
          onChange={onChange}
          onSubmit={proceed}
        />
      )}
      {step === "payment" && intent && (
        <PaymentStep intent={intent} payLabel={`Pay and Submit Entry: ${price}`} onPaid={onPaid}>
          <Button
            variant="ghost"
            className="w-full"
            onClick={() =>
              setStep("info")}
          >
            Back to Information
          </Button>
        </PaymentStep>
      )}
      {step === "processing" && (
        <div className="flex flex-col items-center gap-3 py-10 text-center" role="status">
          <Spinner />
          <p className="font-medium">Processing your payment and creating your entry...</p>
        </div>
      )}
    </div>
  );
}

/** The create-intent call failed: field issues go under their fields, anything else is a toast. */
function intentFailed(err: unknown, setErrors: (errors: InfoErrors) => void) {
  const issues = err instanceof ApiError ? fieldErrors(err.issues, FIELDS) : {};
  if (Object.keys(issues).length > 0) return setErrors(issues);
  const known = err instanceof ApiError && err.status === 409 ? err.serverMessage : null;
  toastError(known ?? UNEXPECTED);
}
