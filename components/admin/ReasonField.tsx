export interface ReasonFieldProps {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
  /** Most characters (300 unless told). */
  maxLength?: number;
}

/** The required reason of a confirmation dialog (cancelling, a status change, a refund). */
export function ReasonField(
  { id, label, value, placeholder, onChange, maxLength = 300 }: ReasonFieldProps,
) {
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      <textarea
        id={id}
        rows={3}
        maxLength={maxLength}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange((e.target as HTMLTextAreaElement).value)}
        className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
    </div>
  );
}
