import type { ReactNode } from "react";
import { useEffect, useRef, useState } from "react";
import type { PaymentIntentAnswer } from "@/lib/client/checkout.ts";
import { StripePaymentForm } from "./StripePaymentForm.tsx";
import { TestCardForm } from "./TestCardForm.tsx";

export interface PaymentStepProps {
  intent: PaymentIntentAnswer;
  /** 'Pay and Submit Entry: {symbol}{fee}'. */
  payLabel: string;
  onPaid: (paymentId: string) => void;
  /** Why paying is no longer possible; null while it is. */
  closed?: string | null;
  /** The 'Back to Information' button. */
  children: ReactNode;
}

/**
 * 'Enter Payment Details': Stripe's Payment Element in Stripe mode, the labelled test card form in
 * test mode. Its heading takes focus so keyboard and screen-reader users land on the new step.
 */
export function PaymentStep(props: PaymentStepProps) {
  const { intent, payLabel, onPaid, closed } = props;
  const heading = useRef<HTMLHeadingElement>(null);
  const applePayDevice = useApplePayDevice();
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView({ block: "center" });
  }, []);
  return (
    <section aria-labelledby="payment-title" className="grid gap-4">
      <div>
        <h2
          id="payment-title"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold focus:outline-none"
        >
          Enter Payment Details
        </h2>
        <p className="mt-1 flex items-start gap-1.5 text-sm text-muted-foreground">
          <svg
            viewBox="0 0 24 24"
            width="16"
            height="16"
            aria-hidden="true"
            className="mt-0.5 shrink-0"
          >
            <rect
              x="5"
              y="11"
              width="14"
              height="10"
              rx="2"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
            />
            <path d="M8 11V7a4 4 0 0 1 8 0v4" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
          Payments are secure. Pay with Apple Pay or any credit/debit card.
        </p>
        <p className="mt-1 text-xs text-muted-foreground">
          Set limits or take a break in <a className="underline" href="/account">My account</a>
          {" · "}
          <a className="underline" href="/responsible-play">Responsible play</a>
        </p>
        {!intent.applePayAvailable && applePayDevice && (
          <p
            role="status"
            className="mt-2 rounded-md border border-border bg-muted/60 px-3 py-2 text-sm"
            data-apple-pay-note=""
          >
            <strong className="font-semibold">Apple Pay Not Available</strong>{" "}
            (card payments remain available).
          </p>
        )}
      </div>
      {intent.mode === "stripe" && intent.publishableKey
        ? (
          <StripePaymentForm
            clientSecret={intent.clientSecret}
            publishableKey={intent.publishableKey}
            paymentIntentId={intent.paymentIntentId}
            payLabel={payLabel}
            onPaid={onPaid}
            closed={closed}
          />
        )
        : (
          <TestCardForm
            paymentIntentId={intent.paymentIntentId}
            payLabel={payLabel}
            onPaid={onPaid}
            closed={closed}
          />
        )}
      {props.children}
    </section>
  );
}

/**
 * Whether this browser offers Apple Pay at all (Safari on Apple devices): only its visitors look
 * for Apple Pay, so only they are told when this payment cannot use it. False on the server.
 */
function useApplePayDevice(): boolean {
  const [device, setDevice] = useState(false);
  useEffect(() => setDevice("ApplePaySession" in globalThis), []);
  return device;
}
