import { useState } from "react";
import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";

interface ClaimFormProps {
  token: string;
  /** Cash prizes are paid by PayPal or bank transfer; a non-cash prize is posted. */
  cash: boolean;
  /** The prize was claimed: the form corrects the details (until it is paid). */
  correcting?: boolean;
}

type Method = "paypal" | "iban" | "address";

const ADDRESS_FIELDS = [
  ["name", "Full name", "name"],
  ["line1", "Address", "address-line1"],
  ["line2", "Address line 2 (optional)", "address-line2"],
  ["city", "City", "address-level2"],
  ["postcode", "Postcode", "postal-code"],
  ["country", "Country", "country-name"],
] as const;

/** The winner's payout details: PayPal or IBAN for cash, a postal address for a prize. */
export default function ClaimForm({ token, cash, correcting = false }: ClaimFormProps) {
  const [method, setMethod] = useState<Method>(cash ? "paypal" : "address");
  const [values, setValues] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const set = (name: string, value: string) => setValues({ ...values, [name]: value });

  const body = () => {
    if (method === "paypal") return { method, paypalEmail: values.paypalEmail ?? "" };
    if (method === "iban") {
      return { method, iban: values.iban ?? "", accountHolder: values.accountHolder ?? "" };
    }
    const address = Object.fromEntries(ADDRESS_FIELDS.map(([k]) => [k, values[k] ?? ""]));
    return { method, address };
  };

  const submit = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const res = await fetch(`/api/claim/${encodeURIComponent(token)}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body()),
      });
      const answer = await res.json().catch(() => ({}));
      if (res.ok) {
        setDone(true);
        return;
      }
      const fieldErrors: Record<string, string> = {};
      for (const issue of answer.issues ?? []) {
        fieldErrors[String(issue.path.at(-1))] ??= issue.message;
      }
      setErrors(fieldErrors);
      setMessage(answer.message ?? "Your claim could not be saved. Please try again.");
    } catch {
      setMessage("An unexpected error occurred. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  if (done) {
    return (
      <p role="status" className="rounded-lg bg-success/10 p-4 font-medium" data-claimed="">
        {correcting
          ? "Your corrected details are saved; we sent a confirmation to your e-mail."
          : "Thank you! Your claim is received; we will pay your prize shortly."}
      </p>
    );
  }

  const field = (name: string, label: string, autoComplete: string, type = "text") => (
    <div key={name} className="grid gap-1.5">
      <Label htmlFor={`claim-${name}`}>{label}</Label>
      <Input
        id={`claim-${name}`}
        type={type}
        autoComplete={autoComplete}
        value={values[name] ?? ""}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `claim-${name}-error` : undefined}
        onChange={(e) =>
          set(name, e.currentTarget.value)}
      />
      {errors[name] && (
        <p id={`claim-${name}-error`} className="text-sm text-destructive">{errors[name]}</p>
      )}
    </div>
  );

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {cash && (
        <fieldset className="grid gap-2">
          <legend className="mb-1 text-sm font-medium">How should we pay you?</legend>
          {([["paypal", "PayPal"], ["iban", "Bank transfer (IBAN)"]] as const).map(([m, text]) => (
            <label key={m} className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="method"
                value={m}
                checked={method === m}
                onChange={() => setMethod(m)}
              />
              {text}
            </label>
          ))}
        </fieldset>
      )}
      {method === "paypal" && field("paypalEmail", "PayPal e-mail", "email", "email")}
      {method === "iban" && (
        <>
          {field("accountHolder", "Account holder", "name")}
          {field("iban", "IBAN", "off")}
        </>
      )}
      {method === "address" &&
        ADDRESS_FIELDS.map(([name, label, auto]) => field(name, label, auto))}
      {message && <p role="alert" className="text-sm text-destructive">{message}</p>}
      <Button type="submit" disabled={busy}>
        {busy && <Spinner />}
        {correcting ? "Save corrected details" : "Claim my prize"}
      </Button>
      <p className="text-xs text-muted-foreground">
        Your details are stored encrypted and used only to send your prize.
      </p>
    </form>
  );
}
