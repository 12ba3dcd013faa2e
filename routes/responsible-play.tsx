import { Head } from "$fresh/runtime.ts";

const H2 = "mt-8 text-lg font-bold";

/** Responsible play: limits, breaks, self-exclusion, where to get help, and tax. */
export default function ResponsiblePlayPage() {
  return (
    <main className="mx-auto max-w-3xl px-4 py-8 text-sm leading-6">
      <Head>
        <title>Responsible play · Fantasy Contests</title>
      </Head>
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Responsible play</h1>
      <p className="mt-4">
        Paid contests are entertainment, not a way to make money. Only play with money you can
        afford to lose, and stop when it stops being fun. You must be 18 or older to enter.
      </p>
      <h2 className={H2}>Spend limits</h2>
      <p>
        In <a className="underline" href="/account">My account</a>{" "}
        (no password: we e-mail you a sign-in link) you can set daily, weekly and monthly limits on
        what you spend on entry fees. They count the last 24 hours, 7 days and 30 days. A lower
        limit applies at once; a higher limit, or removing one, only after 24 hours, so a decision
        made in the heat of the moment can wait a day.
      </p>
      <h2 className={H2}>Take a break</h2>
      <p>
        A break stops all paid entries for 24 hours up to 6 weeks. It cannot be ended early.
      </p>
      <h2 className={H2}>Self-exclusion</h2>
      <p>
        Self-exclusion stops all paid entries for 6 months, 1 year or 5 years, and cannot be undone
        early. We also honour the self-exclusion lists of the regulators where we operate. Limits,
        breaks and exclusions apply to your e-mail address however you spell it.
      </p>
      <h2 className={H2}>Get help</h2>
      <ul className="list-disc pl-6">
        <li>
          United States: call or text <strong>1-800-GAMBLER</strong> (1-800-426-2537), or visit{" "}
          <a className="underline" href="https://www.ncpgambling.org/">ncpgambling.org</a>.
        </li>
        <li>
          United Kingdom: the National Gambling Helpline, <strong>0808 8020 133</strong>, or{" "}
          <a className="underline" href="https://www.gamcare.org.uk/">gamcare.org.uk</a>.
        </li>
        <li>
          Anywhere:{" "}
          <a className="underline" href="https://www.gamblersanonymous.org/">
            Gamblers Anonymous
          </a>.
        </li>
      </ul>
      <h2 className={H2}>Tax</h2>
      <p>
        Winnings may be taxable where you live. Keep a record of your entries and prizes; My account
        lists them. Ask a tax adviser if you are unsure what to declare.
      </p>
    </main>
  );
}
