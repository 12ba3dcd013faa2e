import { Head } from "$fresh/runtime.ts";
import AdminDashboard from "@/islands/AdminDashboard.tsx";

export default function DashboardPage() {
  return (
    <>
      <Head>
        <title>Dashboard · Admin</title>
      </Head>
      <AdminDashboard />
    </>
  );
}
