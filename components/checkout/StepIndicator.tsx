import { cn } from "@/lib/client/cn.ts";

export type CheckoutStep = "info" | "payment" | "processing";

const STEPS: { step: CheckoutStep; label: string }[] = [
  { step: "info", label: "Your details" },
  { step: "payment", label: "Payment" },
  { step: "processing", label: "Confirmation" },
];

/** Where the visitor is in info → payment → processing. */
export function StepIndicator({ current }: { current: CheckoutStep }) {
  const index = STEPS.findIndex((s) => s.step === current);
  return (
    <ol className="flex items-center gap-2 text-xs font-medium" aria-label="Checkout steps">
      {STEPS.map((s, i) => (
        <li
          key={s.step}
          aria-current={i === index ? "step" : undefined}
          className={cn("flex flex-1 items-center gap-2", i > index && "text-muted-foreground")}
        >
          <span
            className={cn(
              "flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-[11px]",
              i <= index ? "border-primary bg-primary text-primary-foreground" : "border-border",
            )}
          >
            {i < index ? "✓" : i + 1}
          </span>
          <span className="truncate">{s.label}</span>
        </li>
      ))}
    </ol>
  );
}
