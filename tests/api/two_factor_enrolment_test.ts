import assert from "node:assert/strict";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { totpCode, totpStep } from "@/lib/auth/totp.ts";
import { makeTestApp, readJsonBody, type TestApp } from "@/tests/helpers/app.ts";
import { loginCookie } from "@/tests/helpers/fixtures.ts";

function post(app: TestApp, path: string, body: unknown, cookie: string) {
  return app.request(path, { method: "POST", json: body, headers: { cookie } });
}

const sessionOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0];

/** Sets up and confirms an authenticator with `cookie`'s session; its secret and new session. */
async function enrol(app: TestApp, cookie: string, body: unknown = {}) {
  const setup = await readJsonBody(await post(app, "/api/admin/2fa/setup", body, cookie));
  const secret = decodeBase32IgnorePadding(setup.secret);
  const res = await post(app, "/api/admin/2fa/confirm", {
    code: totpCode(secret, totpStep(Date.now())),
  }, cookie);
  assert.equal(res.status, 200);
  const { recoveryCodes } = await readJsonBody(res);
  return { secret, recoveryCodes: recoveryCodes as string[], cookie: sessionOf(res) };
}

const canUsePortal = async (app: TestApp, cookie: string) => {
  const res = await app.request("/api/admin/competitions", { headers: { cookie } });
  await res.body?.cancel();
  return res.status === 200;
};

Deno.test("[two factor] turning it on ends the admin's other sessions; this one goes on", async () => {
  const app = await makeTestApp();
  try {
    const laptop = await loginCookie(app);
    const stolen = await loginCookie(app);
    assert.equal(await canUsePortal(app, stolen), true);
    const { cookie } = await enrol(app, laptop);
    assert.equal(await canUsePortal(app, cookie), true, "the session that turned it on");
    assert.equal(await canUsePortal(app, stolen), false, "a session opened before it ended");
    assert.equal(await canUsePortal(app, laptop), false, "the old token was replaced");
  } finally {
    await app.close();
  }
});

Deno.test("[two factor] a session alone cannot swap the authenticator or wipe the recovery codes", async () => {
  const app = await makeTestApp();
  try {
    const first = await enrol(app, await loginCookie(app));
    const missing = await post(app, "/api/admin/2fa/setup", {}, first.cookie);
    assert.equal(missing.status, 400);
    const body = await readJsonBody(missing);
    assert.deepEqual(body.issues[0].path, ["code"]);
    const wrong = await post(app, "/api/admin/2fa/setup", { code: "000000" }, first.cookie);
    assert.equal(wrong.status, 400);
    await wrong.body?.cancel();
    const stillWorks = await post(app, "/api/admin/2fa/confirm", { code: "123456" }, first.cookie);
    assert.equal(stillWorks.status, 400, "no set-up was started: nothing to confirm");
    await stillWorks.body?.cancel();

    await reEnrolWithRecovery(app, first.cookie, first.recoveryCodes[0]);
  } finally {
    await app.close();
  }
});

/** With a recovery code, replacing the authenticator works. */
async function reEnrolWithRecovery(app: TestApp, cookie: string, recovery: string) {
  const setup = await post(app, "/api/admin/2fa/setup", { code: recovery }, cookie);
  assert.equal(setup.status, 200);
  const { secret } = await readJsonBody(setup);
  assert.match(secret, /^[A-Z2-7]{32}$/);
}
