import { useEffect, useRef, useState } from "react";
import { formatPrice } from "@/lib/domain/format.ts";
import { type InfoErrors, InfoForm, type InfoValues, type NotifyOptIns } from "./InfoForm.tsx";
import { type CheckoutStep, StepIndicator } from "./StepIndicator.tsx";
import { PaymentStep } from "./PaymentStep.tsx";
import { Button } from "@/components/ui/Button.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import { track } from "@/lib/client/analytics.ts";
import { ApiError } from "@/lib/client/api.ts";
import {
  type CheckoutCompetition,
  type CheckoutDetails,
  clearCheckoutContact,
  createEntry,
  createPaymentIntent,
  type EntryCount,
  fetchEntryCount,
  fieldErrors,
  loadCheckoutContact,
  type PaymentIntentAnswer,
  saveCheckoutContact,
  saveCheckoutOptIns,
} from "@/lib/client/checkout.ts";
import type { PickPlayer } from "@/lib/client/players.ts";
import { clearSelection, loadCaptains } from "@/lib/client/selection.ts";
import { toast, toastError } from "@/lib/client/toast.ts";
import { addUserEntry } from "@/lib/client/user_entries.ts";

/** The form's schema (and zod) loads once the visitor starts typing, not with the page. */
let schemas: Promise<typeof import("@/lib/domain/schemas/public.ts")> | null = null;
const loadSchemas = () => schemas ??= import("@/lib/domain/schemas/public.ts");

const FIELDS = ["teamName", "email", "confirmEmail"] as const;
/** The fee the form falls back to when the competition has none. */
const FALLBACK_FEE = 5;
const UNEXPECTED = "An unexpected error occurred. Please try again.";

export interface CheckoutFlowProps {
  competition: CheckoutCompetition;
  picks: PickPlayer[];
  /** Why the competition stopped taking entries while the visitor is here; null while open. */
  closed: string | null;
  /** Tells the page which of the payer's entries this is, once the server counted them. */
  onEntryNumber: (entry: EntryCount) => void;
}

/** An address worth asking the server about (the form checks it fully on submit). */
const LOOKS_LIKE_EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/**
 * Asks the server which entry this would be once an e-mail is typed (a moment after the last
 * key); the answer goes to `onEntryNumber`. A failed look-up changes nothing.
 */
function useServerEntryCount(
  competitionId: number,
  email: string,
  onEntryNumber: (entry: EntryCount) => void,
) {
  useEffect(() => {
    const address = email.trim();
    if (!LOOKS_LIKE_EMAIL.test(address)) return;
    let current = true;
    const timer = setTimeout(() => {
      fetchEntryCount(competitionId, address)
        .then((count) => current && onEntryNumber(count))
        .catch(() => {});
    }, 400);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [competitionId, email]);
}

/** info → payment → processing, with the pay buttons disabled once the contest closes. */
export function CheckoutFlow({ competition, picks, closed, onEntryNumber }: CheckoutFlowProps) {
  const fee = competition.entryFee ?? FALLBACK_FEE;
  const price = formatPrice(fee, competition.currency);
  const [step, setStep] = useState<CheckoutStep>("info");
  const [values, setValues] = useState<InfoValues>({ teamName: "", email: "", confirmEmail: "" });
  const [errors, setErrors] = useState<InfoErrors>({});
  const [busy, setBusy] = useState(false);
  const [notify, setNotify] = useState<NotifyOptIns>({ deadlineEmail: false, resultEmail: false });
  const [intent, setIntent] = useState<PaymentIntentAnswer | null>(null);
  const details = useRef<CheckoutDetails | null>(null);

  useEffect(() => {
    const saved = loadCheckoutContact();
    setValues({ teamName: saved.teamName, email: saved.email, confirmEmail: saved.email });
  }, []);

  useServerEntryCount(competition.id, values.email, onEntryNumber);

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
    const captains = loadCaptains(competition.id);
    details.current = { competitionId: competition.id, email, teamName, playerIds, ...captains };
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
      setStep("payment"); // Apple Pay's absence is said beside the payment options (PaymentStep)
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
      const { teamId, editToken } = await createEntry({
        ...details.current!,
        stripePaymentId: paymentId,
      });
      addUserEntry({ competitionId: competition.id, teamId, ...(editToken ? { editToken } : {}) });
      if (editToken && (notify.deadlineEmail || notify.resultEmail)) {
        // The entry is made: its opt-ins are saved on the way (My entries can change them).
        await saveCheckoutOptIns(editToken, notify).catch(() => {});
      }
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
          closed={closed}
          submitLabel={`Proceed to Payment: ${price}`}
          onChange={onChange}
          onSubmit={proceed}
          notify={notify}
          onNotify={setNotify}
        />
      )}
      {step === "payment" && intent && (
        <PaymentStep
          intent={intent}
          payLabel={`Pay and Submit Entry: ${price}`}
          onPaid={onPaid}
          closed={closed}
        >
          <Button
            variant="ghost"
            className="w-full"
            onClick={() => setStep("info")}
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
  // A 409 (closed, limits) or a 400 on no form field (the captains) says why in a toast.
  const known = err instanceof ApiError && (err.status === 409 || err.status === 400)
    ? err.serverMessage
    : null;
  toastError(known ?? UNEXPECTED);
}
