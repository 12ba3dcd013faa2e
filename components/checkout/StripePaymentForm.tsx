import { useEffect, useRef, useState } from "react";
import type { Stripe, StripeElements } from "@stripe/stripe-js";
import { Button } from "@/components/ui/Button.tsx";
import { Skeleton } from "@/components/ui/Skeleton.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import {
  ClosedReason,
  paymentError,
  paymentFailed,
  type PaymentFormProps,
} from "./TestCardForm.tsx";

export interface StripePaymentFormProps extends PaymentFormProps {
  clientSecret: string;
  publishableKey: string;
}

/**
 * Stripe's Payment Element (Apple Pay first, then card). Stripe.js is fetched from Stripe only
 * here, in Stripe mode; the payment is confirmed in the browser with no redirect unless required.
 */
export function StripePaymentForm(props: StripePaymentFormProps) {
  const { clientSecret, publishableKey, paymentIntentId, payLabel, onPaid, closed } = props;
  const mountRef = useRef<HTMLDivElement>(null);
  const [stripe, setStripe] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let unmount = () => {};
    (async () => {
      // The package's ES module build: its `pure` entry is CommonJS, whose wrapper esbuild would
      // put in a chunk of its own that every page then loads.
      const { loadStripe } = await import("@stripe/stripe-js/dist/pure.mjs");
      const instance = await loadStripe(publishableKey);
      if (cancelled || !instance || !mountRef.current) return;
      const elements = instance.elements({
        clientSecret,
        appearance: { theme: "stripe", variables: { colorPrimary: "#16a34a" } },
      });
      const element = elements.create("payment", { paymentMethodOrder: ["apple_pay", "card"] });
      element.mount(mountRef.current);
      unmount = () => element.destroy();
      setStripe({ stripe: instance, elements });
    })().catch(() => !cancelled && setError("Stripe could not be loaded. Please try again."));
    return () => {
      cancelled = true;
      unmount();
    };
  }, [clientSecret, publishableKey]);

  const pay = async () => {
    if (!stripe || closed) return;
    setBusy(true);
    setError(null);
    try {
      const result = await stripe.stripe.confirmPayment({
        elements: stripe.elements,
        redirect: "if_required",
        confirmParams: { return_url: location.href },
      });
      if (result.error) {
        paymentFailed(setError, result.error.message);
      } else if (result.paymentIntent?.status === "succeeded") {
        return onPaid(result.paymentIntent.id ?? paymentIntentId);
      } else {
        paymentFailed(setError, null);
      }
    } catch {
      paymentError();
    }
    setBusy(false);
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        pay();
      }}
    >
      {!stripe && !error && <Skeleton className="h-44 w-full" />}
      <div ref={mountRef} />
      {error && <p role="alert" className="text-sm font-medium text-destructive">{error}</p>}
      <ClosedReason closed={closed} />
      <Button type="submit" size="lg" className="w-full" disabled={!stripe || busy || !!closed}>
        {busy && <Spinner />}
        {payLabel}
      </Button>
    </form>
  );
}
