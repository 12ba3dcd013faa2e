/**
 * The app as Deno Deploy runs it: main.ts (on `node:http`) in a child process on a free
 * 127.0.0.1 port, for tests that must hold on both ways of serving (the other is `npm start`,
 * tests/helpers/server.ts).
 */
import { appEnv, freePort } from "./server.ts";
import { waitFor } from "./wait.ts";

const NO_PROVIDERS = {
  STRIPE_SECRET_KEY: "",
  STRIPE_PUBLISHABLE_KEY: "",
  STRIPE_WEBHOOK_SECRET: "",
  SMTP_URL: "",
  NO_COLOR: "1",
};

/**
 * main.ts on `kvPath` (without demo data unless `env` says DEMO_DATA=1; admin `admin` /
 * `admin-test-password`), ready once /readyz answers; `stop` ends it.
 */
export async function startMainEntry(kvPath: string, env: Record<string, string> = {}) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    cwd: new URL("../../", import.meta.url),
    stdin: "null",
    stdout: "null",
    stderr: "null",
    env: appEnv(port, kvPath, "admin-test-password", { ...NO_PROVIDERS, ...env }),
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already stopped
    }
    await child.status;
  };
  try {
    await waitFor("main.ts answers /readyz", async () => {
      const res = await fetch(`${url}/readyz`).catch(() => null);
      await res?.body?.cancel();
      return res?.ok;
    }, { timeoutMs: 60_000, everyMs: 100 });
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
