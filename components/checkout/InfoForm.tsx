import { Button } from "@/components/ui/Button.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Spinner } from "@/components/ui/Spinner.tsx";
import { ClosedReason } from "./TestCardForm.tsx";

export interface InfoValues {
  teamName: string;
  email: string;
  confirmEmail: string;
}
export type InfoErrors = Partial<Record<keyof InfoValues, string>>;

export interface InfoFormProps {
  values: InfoValues;
  errors: InfoErrors;
  busy: boolean;
  /** 'Proceed to Payment: {symbol}{fee}'. */
  submitLabel: string;
  onChange: (field: keyof InfoValues, value: string) => void;
  onSubmit: () => void;
  /** Why no payment can start (deadline passed, contest full); null while one can. */
  closed?: string | null;
  /** The e-mail opt-ins ticked (recorded with the entry once it is made). */
  notify?: NotifyOptIns;
  onNotify?: (notify: NotifyOptIns) => void;
}

/** The opt-ins the checkout offers. */
export interface NotifyOptIns {
  deadlineEmail: boolean;
  resultEmail: boolean;
}

const OPT_INS: { key: keyof NotifyOptIns; label: string }[] = [
  { key: "deadlineEmail", label: "E-mail me 1 hour before the deadline" },
  { key: "resultEmail", label: "E-mail me the result" },
];

const FIELDS: { name: keyof InfoValues; label: string; type: string; autocomplete: string }[] = [
  { name: "teamName", label: "Display Name", type: "text", autocomplete: "nickname" },
  { name: "email", label: "Email Address", type: "email", autocomplete: "email" },
  { name: "confirmEmail", label: "Confirm Email", type: "email", autocomplete: "email" },
];

/** The info step: display name and confirmed e-mail, each error shown under its field. */
export function InfoForm(
  { values, errors, busy, submitLabel, onChange, onSubmit, closed, notify, onNotify }:
    InfoFormProps,
) {
  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {FIELDS.map((f) => {
        const id = `checkout-${f.name}`;
        const error = errors[f.name];
        return (
          <div key={f.name} className="grid gap-1.5">
            <Label htmlFor={id}>{f.label}</Label>
            <Input
              id={id}
              name={f.name}
              type={f.type}
              autoComplete={f.autocomplete}
              required
              maxLength={f.name === "teamName" ? 30 : 254}
              value={values[f.name]}
              aria-invalid={error ? "true" : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => onChange(f.name, e.currentTarget.value)}
            />
            {error && (
              <p
                id={`${id}-error`}
                className="text-sm font-medium text-destructive"
                data-field-error={f.name}
              >
                {error}
              </p>
            )}
          </div>
        );
      })}
      {notify && onNotify && (
        <fieldset className="grid gap-2" data-checkout-notify="">
          <legend className="mb-1 text-sm font-medium">Notifications (optional)</legend>
          {OPT_INS.map(({ key, label }) => (
            <label key={key} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                name={key}
                className="h-4 w-4 accent-[hsl(var(--primary))]"
                checked={notify[key]}
                onChange={(e) =>
                  onNotify({ ...notify, [key]: e.currentTarget.checked })}
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
      <ClosedReason closed={closed} />
      <Button type="submit" size="lg" className="mt-2 w-full" disabled={busy || !!closed}>
        {busy && <Spinner />}
        {submitLabel}
      </Button>
    </form>
  );
}
