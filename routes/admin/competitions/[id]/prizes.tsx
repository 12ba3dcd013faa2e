import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminPrizeEditor from "../../../../islands/AdminPrizeEditor.tsx";
import { idPageHandler } from "@/lib/http/route_params.ts";

export const handler = idPageHandler;

export default function PrizesPage({ data }: PageProps<number>) {
  return (
    <>
      <Head>
        <title>Prize Structure · Admin</title>
      </Head>
      <AdminPrizeEditor id={data} />
    </>
  );
}
