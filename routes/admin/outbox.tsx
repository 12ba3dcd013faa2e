import { Head } from "$fresh/runtime.ts";
import AdminOutbox from "@/islands/AdminOutbox.tsx";

/** Outbox: what was e-mailed to an address, with its delivery state and a resend (support). */
export default function OutboxPage() {
  return (
    <>
      <Head>
        <title>Outbox · Admin</title>
      </Head>
      <AdminOutbox />
    </>
  );
}
