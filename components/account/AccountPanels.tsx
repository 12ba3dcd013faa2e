import type { ReactNode } from "react";
import { Button } from "@/components/ui/Button.tsx";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "@/components/ui/Card.tsx";
import { Input } from "@/components/ui/Input.tsx";
import { Label } from "@/components/ui/Label.tsx";
import { Select } from "@/components/ui/Select.tsx";
import type { AccountView, LimitView } from "@/lib/api/account.ts";
import { entryStatusText } from "@/lib/api/my_entries.ts";
import { formatPrice, formatWhen } from "@/lib/domain/format.ts";
import { LIMIT_PERIODS, type LimitPeriod } from "@/lib/domain/limits.ts";

const money = (cents: number) => formatPrice(cents / 100, "USD");
const PERIOD_NAMES: Record<LimitPeriod, string> = {
  daily: "Daily (24 hours)",
  weekly: "Weekly (7 days)",
  monthly: "Monthly (30 days)",
};

/** One form of the account page: posts `action` to /account. */
function ActionForm({ action, children }: { action: string; children: ReactNode }) {
  return (
    <form method="post" action="/account" className="space-y-3">
      <input type="hidden" name="action" value={action} />
      {children}
    </form>
  );
}

/** The sign-in form: an e-mail address, and a link sent to it. */
export function SignInPanel({ email }: { email?: string }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sign in</CardTitle>
        <CardDescription>
          No password: we e-mail you a link that signs you in on this device. It works once, within
          15 minutes.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ActionForm action="link">
          <Label htmlFor="account-email">E-mail address</Label>
          <Input id="account-email" name="email" type="email" required defaultValue={email} />
          <Button type="submit">E-mail me a sign-in link</Button>
        </ActionForm>
      </CardContent>
    </Card>
  );
}

function LimitLine({ period, limit }: { period: LimitPeriod; limit: LimitView }) {
  return (
    <div className="space-y-1">
      <Label htmlFor={`limit-${period}`}>{PERIOD_NAMES[period]}</Label>
      <Input
        id={`limit-${period}`}
        name={period}
        inputMode="decimal"
        placeholder="No limit"
        defaultValue={limit.cents === null ? "" : (limit.cents / 100).toFixed(2)}
      />
      <p className="text-xs text-muted-foreground" data-limit={period}>
        Spent {money(limit.spent)}
        {limit.cents !== null && ` of ${money(limit.cents)}`}
        {limit.pending && (
          <>
            {" · "}
            <strong>
              {limit.pending.cents === null ? "No limit" : money(limit.pending.cents)} from{" "}
              {formatWhen(limit.pending.from, "UTC")}
            </strong>
          </>
        )}
      </p>
    </div>
  );
}

/** Spend limits, a break and self-exclusion. */
export function PlayPanel({ view }: { view: AccountView }) {
  if (view.exclusion) {
    return (
      <Card data-exclusion="">
        <CardHeader>
          <CardTitle>Excluded from play</CardTitle>
          <CardDescription>
            {view.exclusion.source === "self"
              ? "You have excluded yourself"
              : "Your address is on a self-exclusion list"} until{" "}
            {formatWhen(view.exclusion.until, "UTC", { year: true })}. It cannot be undone early.
            See <a className="underline" href="/responsible-play">where to get help</a>.
          </CardDescription>
        </CardHeader>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Limits and breaks</CardTitle>
        <CardDescription>
          A lower limit applies at once; a higher one (or none) after 24 hours. Limits count entry
          fees over the last day, week and month.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <ActionForm action="limits">
          <div className="grid gap-3 sm:grid-cols-3">
            {LIMIT_PERIODS.map((p) => <LimitLine key={p} period={p} limit={view.limits[p]} />)}
          </div>
          <Button type="submit">Save limits</Button>
        </ActionForm>
        <ActionForm action="break">
          <p className="text-sm" data-break="">
            {view.breakUntil
              ? `You are on a break until ${formatWhen(view.breakUntil, "UTC")}.`
              : "Take a break: no paid entries until it ends (24 hours to 6 weeks)."}
          </p>
          <div className="flex flex-wrap items-end gap-2">
            <Select name="hours" aria-label="Break length" className="w-40">
              <option value="24">24 hours</option>
              <option value="72">3 days</option>
              <option value="168">1 week</option>
              <option value="504">3 weeks</option>
              <option value="1008">6 weeks</option>
            </Select>
            <Button type="submit" variant="outline">Start break</Button>
          </div>
        </ActionForm>
        <ActionForm action="exclude">
          <p className="text-sm">
            Self-exclusion: no paid entries for 6 months, 1 year or 5 years. It cannot be undone
            early.
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <Select name="period" aria-label="Self-exclusion length" className="w-40">
              <option value="6m">6 months</option>
              <option value="1y">1 year</option>
              <option value="5y">5 years</option>
            </Select>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="confirm" required /> I understand it cannot be undone
            </label>
            <Button type="submit" variant="destructive">Exclude me</Button>
          </div>
        </ActionForm>
      </CardContent>
    </Card>
  );
}

/** The person's entries (every spelling of the address that was signed in with). */
export function EntriesPanel({ view }: { view: AccountView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your entries</CardTitle>
      </CardHeader>
      <CardContent>
        {view.entries.length === 0
          ? <p className="text-sm text-muted-foreground">No entries with this address yet.</p>
          : (
            <ul className="divide-y divide-border">
              {view.entries.map((e) => (
                <li key={e.teamId} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                  <span>
                    <strong>{e.displayName}</strong> · {e.competition.name}
                  </span>
                  <span className="text-muted-foreground">{entryStatusText(e)}</span>
                </li>
              ))}
            </ul>
          )}
      </CardContent>
    </Card>
  );
}

/** Sign out here, or everywhere. */
export function SessionPanel({ view }: { view: AccountView }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="mr-auto">
        Signed in as <strong>{view.email}</strong>
      </span>
      <ActionForm action="sign-out">
        <Button type="submit" variant="outline" size="sm">Sign out</Button>
      </ActionForm>
      <ActionForm action="sign-out-everywhere">
        <Button type="submit" variant="ghost" size="sm">Sign out everywhere</Button>
      </ActionForm>
    </div>
  );
}
