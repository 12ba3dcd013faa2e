import { makeTestApp } from "../helpers/app.ts";
import { makeAdminHeaders } from "../helpers/fixtures.ts";
Deno.test("probe", async () => {
  const app = await makeTestApp();
  await makeAdminHeaders(app.kv);
  for (const headers of [{ "x-admin-username": "x".repeat(5000), "x-admin-password": "y" }, { cookie: `admin_session=${"z".repeat(5000)}` }]) {
    const res = await app.request("/api/admin/teams", { headers });
    console.log(res.status, await res.text());
  }
  const res = await app.request("/api/entries/" + "x".repeat(3000));
  console.log(res.status, await res.text());
  await app.close();
});
