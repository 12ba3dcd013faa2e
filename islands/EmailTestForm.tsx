import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import { readErrorMessage } from "@/lib/client/api.ts";
import { toast, toastError } from "@/lib/client/toast.ts";

/** The /email-test form: sends a test e-mail and reports the outcome. */
export default function EmailTestForm() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);

  const send = async () => {
    if (email.trim() === "") {
      toast({
        title: "Email Required",
        description: "Please enter an email address to send the test email to.",
        variant: "destructive",
      });
      return;
    }
    setBusy(true);
    try {
      const res = await fetch("/api/test-email", {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: email.trim() }),
      });
      if (res.ok) {
        toast({
          title: "Success",
          description: "Test email sent successfully. Please check your inbox.",
        });
      } else {
        const message = await readErrorMessage(res);
        toastError(message || "Failed to send test email.");
      }
    } catch {
      toastError("An unexpected error occurred.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        send();
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="test-email">Email Address</Label>
        <Input
          id="test-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
      </div>
      <Button type="submit" disabled={busy}>
        {busy && <Spinner />}
        Send Test Email
      </Button>
    </form>
  );
}
