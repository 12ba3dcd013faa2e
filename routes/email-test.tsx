import { Head } from "$fresh/runtime.ts";
import EmailTestForm from "@/islands/EmailTestForm.tsx";

/** Email test page: one required e-mail field and 'Send Test Email'. */
export default function EmailTestPage() {
  return (
    <main className="mx-auto max-w-md px-4 py-12">
      <Head>
        <title>Email Test · Fantasy Contests</title>
      </Head>
      <div className="grid gap-6 rounded-xl border border-border bg-card p-6 shadow-sm">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Email Test</h1>
          <p className="mt-1 text-sm text-muted-foreground">
            Send a test message to check that e-mail delivery works.
          </p>
        </div>
        <EmailTestForm />
      </div>
    </main>
  );
}
