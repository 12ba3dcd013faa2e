import RulesButton from "@/islands/RulesButton.tsx";

/**
 * The public site header: the logo (links home), My entries and the Rules button, on one line
 * from 320 px up (phones get a smaller logo and tighter gaps; no text wraps).
 */
export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-border bg-background/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-2 px-3 sm:gap-4 sm:px-4">
        <a
          href="/"
          aria-label="Fantasy Contests home"
          className="flex min-w-0 shrink items-center gap-1.5 rounded-md font-bold tracking-tight focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring sm:gap-2"
          data-header-logo=""
        >
          <img
            src="/logo.svg"
            alt=""
            width="32"
            height="32"
            className="h-7 w-7 shrink-0 sm:h-8 sm:w-8"
          />
          <span className="truncate whitespace-nowrap text-base sm:text-lg">
            Fantasy <span className="text-primary">Contests</span>
          </span>
        </a>
        <nav aria-label="Site" className="flex shrink-0 items-center gap-1 sm:gap-2">
          <a
            href="/my-entries"
            className="whitespace-nowrap rounded-md px-2 py-1.5 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            My entries
          </a>
          <RulesButton />
        </nav>
      </div>
    </header>
  );
}
