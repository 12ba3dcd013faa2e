export interface ReasonFieldProps {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  onChange: (value: string) => void;
}

/** The required reason of a confirmation dialog (cancelling, a status change): up to 300 characters. */
export function ReasonField({ id, label, value, placeholder, onChange }: ReasonFieldProps) {
  return (
    <div className="grid gap-2">
      <label htmlFor={id} className="text-sm font-medium">{label}</label>
      <textarea
        id={id}
        rows={3}
        maxLength={300}
        value={value}
        placeholder={placeholder}
        onChange={(e) => onChange((e.target as HTMLTextAreaElement).value)}
        className="w-full rounded-md border border-border bg-background px-3 py-2 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      />
    </div>
  );
}
