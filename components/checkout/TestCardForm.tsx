import { useState } from "react";
import { ApiError } from "@/lib/client/api.ts";
import { confirmTestPayment } from "@/lib/client/checkout.ts";
import { toast } from "@/lib/client/toast.ts";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";

export interface PaymentFormProps {
  paymentIntentId: string;
  /** 'Pay and Submit Entry: {symbol}{fee}'. */
  payLabel: string;
  /** Called once the provider says the payment succeeded. */
  onPaid: (paymentId: string) => void;
  /** Why paying is no longer possible (deadline passed, contest full); null while it is. */
  closed?: string | null;
}

/** The reason under a pay button that cannot be used any more. */
export function ClosedReason({ closed }: { closed?: string | null }) {
  if (!closed) return null;
  return (
    <p role="status" className="text-sm font-medium text-destructive" data-pay-closed="">
      {closed}
    </p>
  );
}

/** Shows a payment failure: inline message plus the 'Payment Failed' toast. */
export function paymentFailed(setError: (message: string) => void, message?: string | null) {
  setError(message || "An unexpected error occurred.");
  toast({
    title: "Payment Failed",
    description: "Your payment could not be processed. Please try again.",
    variant: "destructive",
  });
}

/** An exception while paying. */
export function paymentError() {
  toast({
    title: "Payment Error",
    description: "An unexpected error occurred. Please try again.",
    variant: "destructive",
  });
}

/** Groups card digits by four as they are typed. */
function formatCardNumber(value: string): string {
  return value.replace(/\D/g, "").slice(0, 19).replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** The labelled test card form of test mode (no real payment is made). */
export function TestCardForm({ paymentIntentId, payLabel, onPaid, closed }: PaymentFormProps) {
  const [cardNumber, setCardNumber] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pay = async () => {
    if (closed) return;
    setBusy(true);
    setError(null);
    try {
      await confirmTestPayment(paymentIntentId, cardNumber);
      onPaid(paymentIntentId);
    } catch (err) {
      if (err instanceof ApiError && err.status < 500) paymentFailed(setError, err.serverMessage);
      else paymentError();
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      data-test-card-form=""
      onSubmit={(e) => {
        e.preventDefault();
        pay();
      }}
    >
      <div className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
        <p className="font-semibold">Test mode — no real payment</p>
        <ul className="mt-1 grid gap-0.5">
          <li>
            <span className="font-mono">4242 4242 4242 4242</span> succeeds
          </li>
          <li>
            <span className="font-mono">4000 0000 0000 0002</span> is declined
          </li>
        </ul>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="test-card-number">Card number</Label>
        <Input
          id="test-card-number"
          name="cardNumber"
          inputMode="numeric"
          autoComplete="off"
          placeholder="4242 4242 4242 4242"
          value={cardNumber}
          aria-invalid={error ? "true" : undefined}
          aria-describedby={error ? "test-card-error" : undefined}
          onChange={(e) => setCardNumber(formatCardNumber(e.currentTarget.value))}
        />
        {error && (
          <p id="test-card-error" role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
      <ClosedReason closed={closed} />
      <Button
        type="submit"
        size="lg"
        className="w-full"
        disabled={busy || cardNumber === "" || !!closed}
      >
        {busy && <Spinner />}
        {payLabel}
      </Button>
    </form>
  );
}
