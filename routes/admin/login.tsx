import { Head } from "$fresh/runtime.ts";
import AdminLogin from "../../islands/AdminLogin.tsx";

export default function LoginPage() {
  return (
    <>
      <Head>
        <title>Admin Login · Fantasy Contests</title>
      </Head>
      <AdminLogin />
    </>
  );
}
