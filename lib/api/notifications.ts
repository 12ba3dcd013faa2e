/** The notification settings of an entry, opened by its private edit token (the browser's secret). */
import { getEntryByEditToken } from "@/lib/db/entry_edits.ts";
import { isKeyText } from "@/lib/store/keys.ts";
import {
  bouncedAt,
  type ConsentSource,
  getNotifyPrefs,
  type NotifyPrefs,
  setNotifyPrefs,
} from "@/lib/db/notifications.ts";
import {
  ConflictError,
  fieldError,
  InvalidInputError,
  NotFoundError,
} from "@/lib/domain/errors.ts";
import type { NotifySettingsInput } from "@/lib/domain/schemas/notifications.ts";
import type { Entry } from "@/lib/domain/types.ts";
import type { VapidConfig } from "@/lib/config.ts";
import { vapidKeys } from "@/lib/notify/secrets.ts";
import type { NotifyState } from "@/lib/notify/state.ts";
import { pushPolicy } from "@/lib/notify/push.ts";
import { checkOutboundUrl } from "@/lib/net/public_url.ts";
import type { NotifySettings } from "@/lib/client/notifications.ts";

/** What GET and PUT /api/notifications/{token} answer (the browser reads it as this type). */
export type NotifySettingsView = NotifySettings;

export const BOUNCED_MESSAGE =
  "E-mails to this address bounced, so none can be sent to it. Use push notifications instead.";
export const REFUNDED_MESSAGE = "This entry was refunded; it gets no notifications.";

interface Deps {
  kv: Deno.Kv;
  notify: NotifyState;
  config: { vapid?: VapidConfig | null; pushAllowLocal?: boolean };
}

async function entryOf(kv: Deno.Kv, token: string): Promise<Entry> {
  const entry = isKeyText(token) ? await getEntryByEditToken(kv, token) : null;
  if (!entry) throw new NotFoundError("Entry not found");
  return entry;
}

async function view(deps: Deps, entry: Entry, prefs: NotifyPrefs): Promise<NotifySettingsView> {
  return {
    teamId: entry.teamId,
    deadlineEmail: prefs.deadlineEmail,
    resultEmail: prefs.resultEmail,
    pushScored: prefs.pushScored,
    pushFinal: prefs.pushFinal,
    pushEndpoint: prefs.push?.endpoint ?? null,
    deadlineSentAt: prefs.deadlineSentAt ?? null,
    resultSentAt: prefs.resultSentAt ?? null,
    unsubscribedAt: prefs.unsubscribedAt ?? null,
    bouncedAt: await bouncedAt(deps.kv, entry.email),
    vapidPublicKey: (await vapidKeys(deps.kv, deps.notify, deps.config)).publicKey,
  };
}

/**
 * Refuses a push endpoint the server must not connect to (not https, not a browser's push
 * service, or a host that resolves to a private or local address): the push sender would post to
 * it. One whose host does not resolve right now is let through; each send checks it again.
 */
async function assertPushEndpoint(deps: Deps, endpoint: string): Promise<void> {
  const verdict = await checkOutboundUrl(endpoint, pushPolicy(deps.config));
  if (!("refused" in verdict) || verdict.transient) return;
  const message = `Push endpoint ${verdict.refused}`;
  throw new InvalidInputError(message, [{ path: ["push", "endpoint"], message }]);
}

/** The settings of the entry whose edit token is `token` (NotFoundError when none). */
export async function notifySettings(deps: Deps, token: string): Promise<NotifySettingsView> {
  const entry = await entryOf(deps.kv, token);
  return view(deps, entry, await getNotifyPrefs(deps.kv, entry));
}

/**
 * Changes the settings: each opt-in turned on records its consent with its time and `source`, the
 * page whose route received the change (never what the client says).
 * Push opt-ins need this browser's subscription (given now or before); e-mail opt-ins are refused
 * for an address that bounced, and every opt-in for a refunded entry.
 */
export async function changeNotifySettings(
  deps: Deps,
  token: string,
  input: NotifySettingsInput,
  source: ConsentSource,
  now = new Date(),
): Promise<NotifySettingsView> {
  const entry = await entryOf(deps.kv, token);
  if (input.push) await assertPushEndpoint(deps, input.push.endpoint);
  const change = input;
  const turningOn = Object.entries(change).some(([k, v]) => k !== "push" && v === true);
  if (turningOn && entry.refundedAt) throw new ConflictError(REFUNDED_MESSAGE);
  if ((change.deadlineEmail || change.resultEmail) && await bouncedAt(deps.kv, entry.email)) {
    throw new ConflictError(BOUNCED_MESSAGE);
  }
  const current = await getNotifyPrefs(deps.kv, entry);
  const target = change.push === undefined ? current.push : change.push;
  if ((change.pushScored || change.pushFinal) && !target) {
    throw fieldError("push", "Allow notifications in this browser first");
  }
  const prefs = await setNotifyPrefs(deps.kv, entry, change, source, now);
  return view(deps, entry, prefs);
}
