import { Head } from "$fresh/runtime.ts";
import type { PageProps } from "$fresh/server.ts";
import AdminPerformanceEditor from "@/islands/AdminPerformanceEditor.tsx";
import { pageId } from "@/lib/http/route_params.ts";

/** Player performances; ?competitionId= preselects a competition. */
export default function PlayerPerformancesPage({ url }: PageProps) {
  return (
    <>
      <Head>
        <title>Player Performances · Admin</title>
      </Head>
      <AdminPerformanceEditor competitionId={pageId(url.searchParams.get("competitionId"))} />
    </>
  );
}
