import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminMatchForm from "../../../islands/AdminMatchForm.tsx";
import { idPageHandler } from "@/lib/http/route_params.ts";

export const handler = idPageHandler;

export default function EditMatchPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Edit Match · Admin</title>
      </Head>
      <AdminMatchForm id={data} />
    </>
  );
}
