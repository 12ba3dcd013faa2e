import type { AppProps } from "$fresh/server.ts";
import { Header } from "@/components/Header.tsx";
import PageView from "@/islands/PageView.tsx";
import Toaster from "@/islands/Toaster.tsx";

/** True for /admin and everything below it: those pages have no public header. */
export function isAdminPath(pathname: string): boolean {
  return pathname === "/admin" || pathname.startsWith("/admin/");
}

/**
 * The document shell of every page: head, toaster and, on public pages only (not /admin),
 * the header and the page-view tracker.
 */
export default function App({ Component, url }: AppProps) {
  const admin = isAdminPath(url.pathname);
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#16a34a" />
        <meta
          name="description"
          content="Build a 5-player fantasy football team, enter contests and follow the live leaderboard."
        />
        <title>{admin ? "Admin · Fantasy Contests" : "Fantasy Contests"}</title>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="manifest" href="/manifest.webmanifest" />
      </head>
      <body className="min-h-screen bg-background font-sans text-foreground antialiased">
        <a
          href="#content"
          className="sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50 focus:rounded-md focus:bg-background focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:shadow-lg focus:outline-none focus:ring-2 focus:ring-ring"
        >
          Skip to content
        </a>
        {!admin && <Header />}
        {!admin && <PageView />}
        <span id="content" tabIndex={-1} />
        <Component />
        {!admin && (
          <footer className="mt-12 border-t border-border px-4 py-6 text-center text-sm text-muted-foreground">
            <a className="underline" href="/responsible-play">Responsible play</a>
            {" · "}
            <a className="underline" href="/account">My account</a>
            {" · "}18+ only. Winnings may be taxable.
          </footer>
        )}
        <Toaster side={admin ? "left" : "right"} />
      </body>
    </html>
  );
}
