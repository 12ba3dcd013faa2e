import assert from "node:assert/strict";
import {
  currentToast,
  dismissToast,
  subscribeToast,
  toast,
  toastError,
} from "@/lib/client/toast.ts";
import { waitFor } from "@/tests/helpers/wait.ts";

Deno.test("[toast] one toast at a time: a new one replaces the current", () => {
  const seen: (string | null)[] = [];
  const unsubscribe = subscribeToast((t) => seen.push(t?.title ?? null));
  try {
    toast({ title: "First", duration: 0 });
    toast({ title: "Second", description: "More", variant: "destructive", duration: 0 });
    const shown = currentToast();
    assert.equal(shown?.title, "Second");
    assert.equal(shown?.description, "More");
    assert.equal(shown?.variant, "destructive");
    dismissToast();
    assert.equal(currentToast(), null);
    assert.deepEqual(seen, ["First", "Second", null]);
  } finally {
    unsubscribe();
  }
});

Deno.test("[toast] dismissing an old id leaves the newer toast", () => {
  const old = toast({ title: "Old", duration: 0 });
  toast({ title: "New", duration: 0 });
  old.dismiss();
  assert.equal(currentToast()?.title, "New");
  dismissToast();
});

Deno.test("[toast] hides itself after its duration (5000 ms by default)", async () => {
  const { id, dismiss } = toast({ title: "Default" });
  assert.equal(currentToast()?.duration, 5000);
  dismiss();
  assert.equal(currentToast(), null);
  assert.ok(id > 0);

  toast({ title: "Short", duration: 20 });
  await waitFor("the short toast hid itself", () => currentToast() === null, { everyMs: 5 });
});

Deno.test("[toast] toastError shows the destructive 'Error' toast", () => {
  toastError("Failed to delete match");
  const shown = currentToast();
  assert.equal(shown?.title, "Error");
  assert.equal(shown?.description, "Failed to delete match");
  assert.equal(shown?.variant, "destructive");
  dismissToast();
});
