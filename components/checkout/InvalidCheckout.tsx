import { StatusCard } from "@/components/StatusCard.tsx";
import { Button } from "@/components/ui/Button.tsx";

/** No competition, or not exactly 5 picks. */
export function InvalidCheckout() {
  return (
    <StatusCard
      title="Invalid Competition or Team"
      description="Please select a competition and 5 players first."
      data-invalid-checkout=""
    >
      <Button href="/">Back to contests</Button>
    </StatusCard>
  );
}
