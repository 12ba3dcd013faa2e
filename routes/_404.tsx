import { Head } from "$fresh/runtime.ts";
import { Button } from "@/components/ui/Button.tsx";

/** Shown for any path no route matches (status 404). */
export default function NotFoundPage() {
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <Head>
        <title>Page Not Found · Fantasy Contests</title>
      </Head>
      <p className="text-6xl font-extrabold tracking-tight text-primary">404</p>
      <h1 className="text-3xl font-bold tracking-tight">Page Not Found</h1>
      <p className="text-muted-foreground">
        The page you are looking for does not exist or has been moved.
      </p>
      <Button href="/" size="lg">Return Home</Button>
    </main>
  );
}
