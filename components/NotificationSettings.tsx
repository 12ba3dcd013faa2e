import { useEffect, useRef, useState } from "react";
import { LocalTime } from "@/components/LocalTime.tsx";
import { ApiError } from "@/lib/client/api.ts";
import { cn } from "@/lib/client/cn.ts";
import {
  loadNotifySettings,
  type NotifyChoice,
  type NotifySettings,
  pushSupported,
  saveNotifySettings,
  subscribePush,
} from "@/lib/client/notifications.ts";
import type { ConsentSource } from "@/lib/domain/schemas/notifications.ts";

const EMAIL_CHOICES: { key: NotifyChoice; label: string }[] = [
  { key: "deadlineEmail", label: "E-mail me 1 hour before the deadline" },
  { key: "resultEmail", label: "E-mail me the result" },
];
const PUSH_CHOICES: { key: NotifyChoice; label: string }[] = [
  { key: "pushScored", label: "My picks scored" },
  { key: "pushFinal", label: "Final standings" },
];

function failure(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage ?? "Could not save. Please try again.";
  return err instanceof Error ? err.message : "Could not save. Please try again.";
}

function Choice(
  { id, label, consent, disabled, onChange }: {
    id: string;
    label: string;
    consent: { at: string } | null;
    disabled: boolean;
    onChange: (on: boolean) => void;
  },
) {
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 h-4 w-4 shrink-0 accent-[hsl(var(--primary))]"
        checked={consent !== null}
        disabled={disabled}
        onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
      />
      <label htmlFor={id} className="text-sm leading-tight">
        {label}
        {consent && (
          <span className="block text-xs text-muted-foreground" data-consent-at="">
            On since <LocalTime iso={consent.at} />
          </span>
        )}
      </label>
    </div>
  );
}

export interface NotificationSettingsProps {
  teamId: string;
  editToken: string;
  /** Before the deadline: the deadline e-mail can still be turned on. */
  upcoming: boolean;
  /** Where the consents given here are recorded as given (My entries unless told). */
  source?: ConsentSource;
  /** Opened (and loaded) at once instead of on the first click. */
  startOpen?: boolean;
  /** Classes of the box's place on the page (spacing). */
  className?: string;
}

/**
 * An entry's notifications (My entries, the confirmation page): the two e-mails and the two
 * pushes, each turned on or off here (turning one on records the consent with its time and
 * `source`), and push revoked for the entry. Loaded when opened.
 */
export function NotificationSettings(
  { teamId, editToken, upcoming, source = "my-entries", startOpen = false, className = "mt-3" }:
    NotificationSettingsProps,
) {
  const [settings, setSettings] = useState<NotifySettings | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const requested = useRef(false);
  const idBase = `notify-${teamId}`;

  const load = () => {
    if (requested.current) return;
    requested.current = true;
    setError(null);
    loadNotifySettings(editToken).then(setSettings, (err) => {
      requested.current = false; // opened again, it tries again
      setError(failure(err));
    });
  };
  useEffect(() => {
    if (startOpen) load();
  }, []);

  const open = (event: Event) => {
    if ((event.currentTarget as HTMLDetailsElement).open) load();
  };

  const save = async (change: Parameters<typeof saveNotifySettings>[1], done: string) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    const before = settings;
    // The boxes show the change at once; the server's answer (or the old state) replaces it.
    if (before) {
      const shown = { ...before };
      for (const key of [...EMAIL_CHOICES, ...PUSH_CHOICES].map((c) => c.key)) {
        const on = change[key];
        if (on !== undefined) {
          shown[key] = on ? { at: new Date().toISOString(), source } : null;
        }
      }
      setSettings(shown);
    }
    try {
      setSettings(await saveNotifySettings(editToken, change, source));
      setStatus(done);
    } catch (err) {
      setSettings(before);
      setError(failure(err));
    } finally {
      setBusy(false);
    }
  };

  const choosePush = async (key: NotifyChoice, on: boolean) => {
    if (!settings) return;
    if (!on || settings.pushEndpoint) return save({ [key]: on }, on ? "Push on." : "Saved.");
    setBusy(true);
    setError(null);
    setSettings({ ...settings, [key]: { at: new Date().toISOString(), source } });
    try {
      const push = await subscribePush(settings.vapidPublicKey);
      setSettings(settings);
      await save({ push, [key]: true }, "Push on for this browser.");
    } catch (err) {
      setSettings(settings);
      setError(failure(err));
      setBusy(false);
    }
  };

  const emailOn = settings && (settings.deadlineEmail || settings.resultEmail);
  const pushOn = settings && (settings.pushScored || settings.pushFinal);
  return (
    <details
      className={cn(className, "rounded-lg border border-border text-sm")}
      data-notify-settings={teamId}
      open={startOpen}
      onToggle={open}
    >
      <summary className="cursor-pointer select-none rounded-lg px-3 py-2 font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
        Notifications
        {settings && (
          <span className="ml-2 text-xs font-normal text-muted-foreground">
            {emailOn || pushOn
              ? [emailOn && "e-mail", pushOn && "push"].filter(Boolean).join(" and ") + " on"
              : "off"}
          </span>
        )}
      </summary>
      <div className="grid gap-3 border-t border-border px-3 py-3">
        {!settings && !error && <p className="text-muted-foreground">Loading...</p>}
        {settings && (
          <>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                E-mail
              </legend>
              {settings.bouncedAt && (
                <p className="text-destructive" data-bounced="">
                  E-mails to this entry's address bounced, so none are sent to it.
                </p>
              )}
              {EMAIL_CHOICES.map(({ key, label }) => (
                <Choice
                  key={key}
                  id={`${idBase}-${key}`}
                  label={label}
                  consent={settings[key]}
                  disabled={busy || (!settings[key] && (!!settings.bouncedAt ||
                    (key === "deadlineEmail" && !upcoming)))}
                  onChange={(on) => save({ [key]: on }, "Saved.")}
                />
              ))}
            </fieldset>
            <fieldset className="grid gap-2">
              <legend className="mb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                Push notifications in this browser
              </legend>
              {!pushSupported() && !settings.pushEndpoint
                ? <p className="text-muted-foreground">This browser cannot show notifications.</p>
                : PUSH_CHOICES.map(({ key, label }) => (
                  <Choice
                    key={key}
                    id={`${idBase}-${key}`}
                    label={label}
                    consent={settings[key]}
                    disabled={busy}
                    onChange={(on) => choosePush(key, on)}
                  />
                ))}
              {settings.pushEndpoint && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => save({ push: null }, "Push turned off for this entry.")}
                  className="justify-self-start rounded-md border border-border px-3 py-1.5 text-sm font-medium hover:bg-accent disabled:opacity-50"
                  data-revoke-push=""
                >
                  Turn off push for this entry
                </button>
              )}
            </fieldset>
            <p className="text-xs text-muted-foreground">
              Every e-mail has a one-click unsubscribe link.
            </p>
          </>
        )}
        {status && <p className="text-success" role="status">{status}</p>}
        {error && <p className="text-destructive" role="alert">{error}</p>}
      </div>
    </details>
  );
}
