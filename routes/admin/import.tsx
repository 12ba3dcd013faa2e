import { Head } from "$fresh/runtime.ts";
import AdminImport from "@/islands/AdminImport.tsx";

/** Import: upload a file of clubs, players, matches or salaries, preview it, apply it; export. */
export default function ImportPage() {
  return (
    <>
      <Head>
        <title>Import · Admin</title>
      </Head>
      <AdminImport />
    </>
  );
}
