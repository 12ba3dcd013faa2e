import { Button } from "../ui/Button.tsx";

/** SPEC §2: no competition, or not exactly 5 picks. */
export function InvalidCheckout() {
  return (
    <div
      class="mx-auto mt-10 max-w-md rounded-xl border border-border bg-card p-8 text-center shadow-sm"
      data-invalid-checkout=""
    >
      <h1 class="text-xl font-semibold">Invalid Competition or Team</h1>
      <p class="mt-2 text-sm text-muted-foreground">
        Please select a competition and 5 players first.
      </p>
      <Button href="/" class="mt-6">Back to contests</Button>
    </div>
  );
}
