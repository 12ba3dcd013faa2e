import RulesButton from "../islands/RulesButton.tsx";

/** The public site header: the logo (links home) and the Rules button. */
export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <a
          href="/"
          aria-label="Fantasy Contests home"
          className="flex items-center gap-2 rounded-md font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <img src="/logo.svg" alt="" width="32" height="32" className="h-8 w-8" />
          <span className="text-lg">
            Fantasy <span className="text-primary">Contests</span>
          </span>
        </a>
        <nav aria-label="Site" className="flex items-center gap-2">
          <a
            href="/my-entries"
            className="rounded-md px-2 py-1.5 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            My entries
          </a>
          <RulesButton />
        </nav>
      </div>
    </header>
  );
}
