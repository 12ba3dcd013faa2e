import assert from "node:assert/strict";
import { ConfigError, configWarnings, linkOrigin, loadConfig } from "@/lib/config.ts";

const MEMORY = { DENO_KV_PATH: ":memory:" };

function errorOf(env: Record<string, string | undefined>): string {
  try {
    loadConfig({ ...MEMORY, ...env });
  } catch (err) {
    assert.ok(err instanceof ConfigError, `expected a ConfigError, got ${err}`);
    assert.ok(!err.message.includes("\n"), "the message is one line");
    return err.message;
  }
  throw new Error(`expected a ConfigError for ${JSON.stringify(env)}`);
}

Deno.test("[config] defaults", () => {
  const config = loadConfig(MEMORY);
  assert.deepEqual(config, {
    deploy: false,
    requestLog: false,
    kvWatchNative: false,
    port: 8000,
    liveWsPort: null,
    host: "127.0.0.1",
    kvPath: ":memory:",
    demoData: true,
    adminUsername: null,
    adminPassword: null,
    stripeSecretKey: null,
    stripePublishableKey: null,
    stripeWebhookSecret: null,
    smtpUrl: null,
    mailFrom: "Fantasy Contests <no-reply@localhost>",
    publicUrl: null,
    payoutKey: null,
    oidc: null,
    adminRequire2fa: false,
  });
});

Deno.test("[config] LIVE_MAX_SOCKETS: a whole number of 1 or more", () => {
  assert.equal(loadConfig(MEMORY).liveMaxSockets, undefined);
  assert.equal(loadConfig({ ...MEMORY, LIVE_MAX_SOCKETS: "50000" }).liveMaxSockets, 50_000);
  assert.throws(() => loadConfig({ ...MEMORY, LIVE_MAX_SOCKETS: "0" }), /LIVE_MAX_SOCKETS/);
  assert.throws(() => loadConfig({ ...MEMORY, LIVE_MAX_SOCKETS: "many" }), /LIVE_MAX_SOCKETS/);
});

Deno.test("[config] LIVE_WS_PORT: a port other than PORT", () => {
  assert.equal(loadConfig({ ...MEMORY, LIVE_WS_PORT: "8001" }).liveWsPort, 8001);
  assert.throws(
    () => loadConfig({ ...MEMORY, LIVE_WS_PORT: "8000" }),
    /LIVE_WS_PORT must differ from PORT/,
  );
  assert.throws(
    () => loadConfig({ ...MEMORY, LIVE_WS_PORT: "99999" }),
    /LIVE_WS_PORT must be an integer from 1 to 65535 \(got "99999"\)/,
  );
});

Deno.test("[config] blank values count as unset", () => {
  const config = loadConfig({ ...MEMORY, PORT: "", DEMO_DATA: " ", SMTP_URL: "", HOST: "" });
  assert.equal(config.port, 8000);
  assert.equal(config.demoData, true);
  assert.equal(config.smtpUrl, null);
  assert.equal(config.host, "127.0.0.1");
});

Deno.test("[config] reads every variable", () => {
  const config = loadConfig({
    ...MEMORY,
    PORT: "8123",
    HOST: "0.0.0.0",
    DEMO_DATA: "0",
    ADMIN_USERNAME: "boss",
    ADMIN_PASSWORD: "s3cret pass",
    STRIPE_SECRET_KEY: "sk_test_abc",
    STRIPE_PUBLISHABLE_KEY: "pk_test_abc",
    STRIPE_WEBHOOK_SECRET: "whsec_abc",
    SMTP_URL: "smtps://user:pw@mail.example.com:465",
    MAIL_FROM: "League <league@example.com>",
    PUBLIC_URL: "https://contests.example",
  });
  assert.equal(config.port, 8123);
  assert.equal(config.host, "0.0.0.0");
  assert.equal(config.demoData, false);
  assert.equal(config.adminUsername, "boss");
  assert.equal(config.adminPassword, "s3cret pass");
  assert.equal(config.stripeSecretKey, "sk_test_abc");
  assert.equal(config.stripePublishableKey, "pk_test_abc");
  assert.equal(config.stripeWebhookSecret, "whsec_abc");
  assert.equal(config.smtpUrl, "smtps://user:pw@mail.example.com:465");
  assert.equal(config.mailFrom, "League <league@example.com>");
  assert.equal(config.publicUrl, "https://contests.example");
});

Deno.test("[config] PORT must be an integer from 1 to 65535", async (t) => {
  for (const bad of ["0", "65536", "-1", "80.5", "abc", "8000x"]) {
    await t.step(`rejects "${bad}"`, () => {
      assert.equal(
        errorOf({ PORT: bad }),
        `PORT must be an integer from 1 to 65535 (got "${bad}")`,
      );
    });
  }
  assert.equal(loadConfig({ ...MEMORY, PORT: "1" }).port, 1);
  assert.equal(loadConfig({ ...MEMORY, PORT: "65535" }).port, 65535);
});

Deno.test("[config] DEMO_DATA must be 1 or 0", () => {
  assert.equal(loadConfig({ ...MEMORY, DEMO_DATA: "1" }).demoData, true);
  assert.equal(errorOf({ DEMO_DATA: "yes" }), 'DEMO_DATA must be 1 or 0 (got "yes")');
});

Deno.test("[config] admin credentials come together", () => {
  const message = "ADMIN_USERNAME and ADMIN_PASSWORD must be set together (or neither)";
  assert.equal(errorOf({ ADMIN_USERNAME: "admin" }), message);
  assert.equal(errorOf({ ADMIN_PASSWORD: "secret" }), message);
  assert.equal(
    errorOf({ ADMIN_USERNAME: "the boss", ADMIN_PASSWORD: "x" }),
    "ADMIN_USERNAME must not contain spaces",
  );
});

Deno.test("[config] Stripe keys", async (t) => {
  const keys = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" };
  await t.step("key prefixes", () => {
    assert.equal(
      errorOf({ ...keys, STRIPE_SECRET_KEY: "pk_test_1" }),
      'STRIPE_SECRET_KEY must start with "sk_" or "rk_"',
    );
    assert.equal(
      errorOf({ ...keys, STRIPE_PUBLISHABLE_KEY: "sk_test_1" }),
      'STRIPE_PUBLISHABLE_KEY must start with "pk_"',
    );
    assert.equal(
      errorOf({ ...keys, STRIPE_WEBHOOK_SECRET: "secret" }),
      'STRIPE_WEBHOOK_SECRET must start with "whsec_"',
    );
  });
  await t.step("secret and publishable key together", () => {
    const message =
      "STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together (or neither for test mode)";
    assert.equal(errorOf({ STRIPE_SECRET_KEY: "sk_test_1" }), message);
    assert.equal(errorOf({ STRIPE_PUBLISHABLE_KEY: "pk_test_1" }), message);
  });
  await t.step("webhook secret needs the secret key", () => {
    assert.equal(
      errorOf({ STRIPE_WEBHOOK_SECRET: "whsec_1" }),
      "STRIPE_WEBHOOK_SECRET needs STRIPE_SECRET_KEY",
    );
  });
  await t.step("restricted keys are accepted", () => {
    assert.equal(
      loadConfig({
        ...MEMORY,
        ...keys,
        STRIPE_SECRET_KEY: "rk_live_1",
        PAYOUT_ENCRYPTION_KEY: btoa("k".repeat(32)),
      })
        .stripeSecretKey,
      "rk_live_1",
    );
  });
});

Deno.test("[config] SMTP_URL", () => {
  assert.equal(
    errorOf({ SMTP_URL: "not a url" }),
    "SMTP_URL is not a valid URL (expected smtp://user:pass@host:port)",
  );
  assert.equal(
    errorOf({ SMTP_URL: "https://user:secret@mail.example.com" }),
    'SMTP_URL must start with smtp:// or smtps:// (got "https://")',
  );
  assert.ok(!errorOf({ SMTP_URL: "http://u:hunter2@x" }).includes("hunter2"), "no secret leaks");
  assert.equal(
    loadConfig({ ...MEMORY, SMTP_URL: "smtp://127.0.0.1:2525" }).smtpUrl,
    "smtp://127.0.0.1:2525",
  );
});

Deno.test("[config] MAIL_FROM and HOST", () => {
  assert.equal(loadConfig({ ...MEMORY, MAIL_FROM: "a@b.co" }).mailFrom, "a@b.co");
  assert.equal(
    errorOf({ MAIL_FROM: "nobody" }),
    'MAIL_FROM must be an address or "Name <address>" (got "nobody")',
  );
  assert.equal(errorOf({ HOST: "http://x" }), 'HOST must be a host name or IP (got "http://x")');
});

Deno.test("[config] PUBLIC_URL is an http(s) origin", async (t) => {
  const publicUrl = (raw: string) => loadConfig({ ...MEMORY, PUBLIC_URL: raw }).publicUrl;
  await t.step("accepted and normalised without a trailing slash", () => {
    assert.equal(publicUrl("https://contests.example"), "https://contests.example");
    assert.equal(publicUrl("https://contests.example/"), "https://contests.example");
    assert.equal(publicUrl(" HTTPS://Contests.Example:443/ "), "https://contests.example");
    assert.equal(publicUrl("http://localhost:8000"), "http://localhost:8000");
    assert.equal(loadConfig({ ...MEMORY, PUBLIC_URL: " " }).publicUrl, null);
  });
  await t.step("rejected with a one-line message", () => {
    assert.equal(
      errorOf({ PUBLIC_URL: "contests.example" }),
      "PUBLIC_URL is not a valid URL (expected e.g. https://contests.example.com)",
    );
    assert.equal(
      errorOf({ PUBLIC_URL: "ftp://contests.example" }),
      'PUBLIC_URL must start with http:// or https:// (got "ftp://")',
    );
    const withSecret = errorOf({ PUBLIC_URL: "https://me:hunter2@contests.example" });
    assert.equal(withSecret, "PUBLIC_URL must not contain a user name or password");
    for (
      const [raw, rest] of [
        ["https://contests.example/app", "/app"],
        ["https://contests.example/app/", "/app/"],
        ["https://contests.example//", "//"],
        ["https://contests.example/?a=1", "/?a=1"],
        ["https://contests.example/#top", "/#top"],
      ]
    ) {
      assert.equal(
        errorOf({ PUBLIC_URL: raw }),
        `PUBLIC_URL must not have a path, query or fragment (got "${rest}")`,
      );
    }
  });
});

Deno.test("[config] e-mail links use PUBLIC_URL, else the start-time origin; a warning when Stripe is on", () => {
  const stripe = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" };
  const set = loadConfig({ ...MEMORY, ...stripe, PUBLIC_URL: "https://contests.example/" });
  assert.equal(linkOrigin(set), "https://contests.example");
  assert.deepEqual(configWarnings(set), []);
  const unset = loadConfig({ ...MEMORY, ...stripe });
  assert.equal(linkOrigin(unset), "http://localhost:8000");
  const named = loadConfig({ ...MEMORY, HOST: "contests.internal", PORT: "8443" });
  assert.equal(linkOrigin(named), "http://contests.internal:8443");
  const [warning, ...more] = configWarnings(unset);
  assert.match(warning, /^Warning: PUBLIC_URL is not set\b/);
  assert.deepEqual(more, []);
  assert.deepEqual(configWarnings(loadConfig(MEMORY)), [], "no warning in test-payment mode");
});

Deno.test("[config] DENO_KV_PATH", async (t) => {
  const root = await Deno.makeTempDir({ prefix: "config_test_" });
  try {
    await t.step("creates the parent folder of a file path", () => {
      const path = `${root}/nested/deeper/app.kv`;
      assert.equal(loadConfig({ DENO_KV_PATH: path }).kvPath, path);
      assert.ok(Deno.statSync(`${root}/nested/deeper`).isDirectory);
      assert.deepEqual([...Deno.readDirSync(`${root}/nested/deeper`)], [], "no probe file left");
    });
    await t.step("a folder that cannot be created is an error", () => {
      Deno.writeTextFileSync(`${root}/plain-file`, "");
      const path = `${root}/plain-file/app.kv`;
      const message = errorOf({ DENO_KV_PATH: path });
      assert.match(
        message,
        new RegExp(`^DENO_KV_PATH "${path}": cannot create the folder "${root}/plain-file" \\(`),
      );
    });
    await t.step("a folder in place of the file is an error", () => {
      Deno.mkdirSync(`${root}/is-a-dir`);
      const message = errorOf({ DENO_KV_PATH: `${root}/is-a-dir` });
      assert.equal(
        message,
        `DENO_KV_PATH "${root}/is-a-dir" is not writable (it is a folder, not a file)`,
      );
    });
    await t.step("an unwritable location is an error", () => {
      const message = errorOf({ DENO_KV_PATH: "/proc/app.kv" });
      assert.match(message, /^DENO_KV_PATH "\/proc\/app\.kv" is not writable \(/);
    });
    await t.step("a KV Connect URL with its access token", () => {
      const url = "https://api.deno.com/databases/8f0c3b1e-1234-4a5b-9c6d-0123456789ab/connect";
      const env = { DENO_KV_PATH: url, DENO_KV_ACCESS_TOKEN: "ddp_secret" };
      assert.equal(loadConfig(env).kvPath, url);
      assert.equal(
        loadConfig({ DENO_KV_PATH: "http://localhost:4512", DENO_KV_ACCESS_TOKEN: "t" }).kvPath,
        "http://localhost:4512",
      );
      assert.equal(
        errorOf({ DENO_KV_PATH: url }),
        "DENO_KV_PATH is a KV Connect URL: set DENO_KV_ACCESS_TOKEN too",
      );
      assert.equal(
        errorOf({ DENO_KV_PATH: "http://kv.example.com", DENO_KV_ACCESS_TOKEN: "t" }),
        'DENO_KV_PATH "http://kv.example.com": a KV Connect URL must use https:// (http:// only for localhost)',
      );
      assert.equal(
        errorOf({ DENO_KV_PATH: "https://exa mple.com", DENO_KV_ACCESS_TOKEN: "t" }),
        'DENO_KV_PATH "https://exa mple.com" is not a valid KV Connect URL',
      );
    });
    await t.step("defaults to ./data/app.kv, or Deploy's managed KV", () => {
      const cwd = Deno.cwd();
      Deno.chdir(root);
      try {
        assert.equal(loadConfig({}).kvPath, "./data/app.kv");
        assert.ok(Deno.statSync(`${root}/data`).isDirectory);
        assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "abc" }).kvPath, "");
      } finally {
        Deno.chdir(cwd);
      }
    });
    await t.step("a remote store's watch is native; a file's is not", () => {
      const remote = { DENO_KV_PATH: "https://kv.example.com/connect", DENO_KV_ACCESS_TOKEN: "t" };
      assert.equal(loadConfig(remote).kvWatchNative, true);
      assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "abc" }).kvWatchNative, true);
      assert.equal(loadConfig({ DENO_KV_PATH: `${root}/app.kv` }).kvWatchNative, false);
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("[config] OIDC sign-in and ADMIN_REQUIRE_2FA", async (t) => {
  const oidc = {
    OIDC_ISSUER: "https://accounts.google.com",
    OIDC_CLIENT_ID: "client-1",
    OIDC_CLIENT_SECRET: "secret-1",
    OIDC_ADMIN_EMAILS: " Boss@Example.com, @corp.example ,",
  };
  await t.step("all four variables configure it; the name comes from known issuers", () => {
    const config = loadConfig({ ...MEMORY, ...oidc });
    assert.deepEqual(config.oidc, {
      issuer: "https://accounts.google.com",
      clientId: "client-1",
      clientSecret: "secret-1",
      adminEmails: ["boss@example.com", "@corp.example"],
      providerName: "Google",
    });
  });
  await t.step("OIDC_PROVIDER_NAME names the button; else the issuer's host", () => {
    const named = loadConfig({
      ...MEMORY,
      ...oidc,
      OIDC_ISSUER: "https://dex.example.com/dex/",
      OIDC_PROVIDER_NAME: "GitHub",
    });
    assert.equal(named.oidc?.providerName, "GitHub");
    assert.equal(named.oidc?.issuer, "https://dex.example.com/dex/"); // kept as given
    const plain = loadConfig({ ...MEMORY, ...oidc, OIDC_ISSUER: "https://login.example.org" });
    assert.equal(plain.oidc?.providerName, "login.example.org");
  });
  await t.step("a missing variable is named", () => {
    assert.equal(
      errorOf({ ...oidc, OIDC_CLIENT_SECRET: "" }),
      "OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_ADMIN_EMAILS must be set together (missing: OIDC_CLIENT_SECRET)",
    );
    assert.equal(errorOf({ OIDC_PROVIDER_NAME: "Okta" }), "OIDC_PROVIDER_NAME needs OIDC_ISSUER");
  });
  await t.step("the issuer is https (http only on this machine)", () => {
    assert.equal(
      errorOf({ ...oidc, OIDC_ISSUER: "http://idp.example.com" }),
      "OIDC_ISSUER must start with https:// (http:// only on localhost)",
    );
    assert.equal(
      errorOf({ ...oidc, OIDC_ISSUER: "not a url" }),
      'OIDC_ISSUER is not a valid URL (got "not a url")',
    );
    assert.match(errorOf({ ...oidc, OIDC_ISSUER: "https://idp.example.com/?x=1" }), /query/);
    const local = loadConfig({ ...MEMORY, ...oidc, OIDC_ISSUER: "http://127.0.0.1:5556/dex" });
    assert.equal(local.oidc?.issuer, "http://127.0.0.1:5556/dex");
  });
  await t.step("OIDC_ADMIN_EMAILS lists addresses or @domain entries", () => {
    for (const bad of ["boss", "a@b@c", "@", "   ,  "]) {
      assert.match(errorOf({ ...oidc, OIDC_ADMIN_EMAILS: bad }), /^OIDC_ADMIN_EMAILS must list/);
    }
  });
  await t.step("ADMIN_REQUIRE_2FA is 1 or 0", () => {
    assert.equal(loadConfig({ ...MEMORY, ADMIN_REQUIRE_2FA: "1" }).adminRequire2fa, true);
    assert.equal(loadConfig({ ...MEMORY, ADMIN_REQUIRE_2FA: "0" }).adminRequire2fa, false);
    assert.equal(
      errorOf({ ADMIN_REQUIRE_2FA: "yes" }),
      'ADMIN_REQUIRE_2FA must be 1 or 0 (got "yes")',
    );
  });
});

Deno.test("[config] PUSH_ALLOW_LOCAL: 1 or 0, never on Deploy", () => {
  assert.equal(loadConfig(MEMORY).pushAllowLocal, undefined);
  assert.equal(loadConfig({ ...MEMORY, PUSH_ALLOW_LOCAL: "0" }).pushAllowLocal, undefined);
  assert.equal(loadConfig({ ...MEMORY, PUSH_ALLOW_LOCAL: "1" }).pushAllowLocal, true);
  assert.equal(errorOf({ PUSH_ALLOW_LOCAL: "yes" }), 'PUSH_ALLOW_LOCAL must be 1 or 0 (got "yes")');
  assert.equal(
    errorOf({ PUSH_ALLOW_LOCAL: "1", DENO_DEPLOYMENT_ID: "abc" }),
    "PUSH_ALLOW_LOCAL=1 is for tests and benches, not for Deno Deploy",
  );
});

Deno.test("[config] PAYMENT_INTENTS_PER_10_MIN: a whole number, 0 turns the limit off", () => {
  const base = { DENO_KV_PATH: ":memory:" };
  assert.equal(loadConfig(base).intentsPer10Min, undefined);
  assert.equal(loadConfig({ ...base, PAYMENT_INTENTS_PER_10_MIN: "0" }).intentsPer10Min, 0);
  assert.throws(
    () => loadConfig({ ...base, PAYMENT_INTENTS_PER_10_MIN: "many" }),
    /PAYMENT_INTENTS_PER_10_MIN must be a whole number/,
  );
});

Deno.test("[config] Deploy mode and REQUEST_LOG", async (t) => {
  await t.step("DENO_DEPLOYMENT_ID turns Deploy mode and request logs on", () => {
    const config = loadConfig({ DENO_DEPLOYMENT_ID: "abc" });
    assert.equal(config.deploy, true);
    assert.equal(config.requestLog, true);
    assert.equal(loadConfig({ DENO_DEPLOYMENT_ID: "abc", REQUEST_LOG: "0" }).requestLog, false);
  });
  await t.step(
    "without write permission it is not Deploy (Deploy runs with --allow-all)",
    async () => {
      const dir = await Deno.makeTempDir({ prefix: "config-" });
      const script = `${dir}/mode.ts`;
      const config = new URL("../../lib/config.ts", import.meta.url).href;
      await Deno.writeTextFile(
        script,
        `import { loadConfig } from "${config}";\n` +
          `console.log(loadConfig({ DENO_KV_PATH: ":memory:" }).deploy);`,
      );
      try {
        const { code, stdout } = await new Deno.Command(Deno.execPath(), {
          args: ["run", "--allow-read", "--allow-env", script],
          stdin: "null",
        }).output();
        assert.equal(code, 0);
        assert.equal(new TextDecoder().decode(stdout).trim(), "false");
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
  await t.step("elsewhere request logs are opt-in", () => {
    assert.equal(loadConfig(MEMORY).deploy, false);
    assert.equal(loadConfig({ ...MEMORY, REQUEST_LOG: "1" }).requestLog, true);
    assert.equal(errorOf({ REQUEST_LOG: "yes" }), 'REQUEST_LOG must be 1 or 0 (got "yes")');
  });
});

Deno.test("[config] PAYOUT_ENCRYPTION_KEY is 32 bytes of base64", () => {
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  assert.equal(loadConfig({ ...MEMORY, PAYOUT_ENCRYPTION_KEY: key }).payoutKey, key);
  assert.throws(
    () => loadConfig({ ...MEMORY, PAYOUT_ENCRYPTION_KEY: btoa("short") }),
    /PAYOUT_ENCRYPTION_KEY must be 32 bytes/,
  );
  assert.throws(
    () => loadConfig({ ...MEMORY, PAYOUT_ENCRYPTION_KEY: "not base64!" }),
    /PAYOUT_ENCRYPTION_KEY must be base64/,
  );
});

Deno.test("[config] live Stripe keys without PAYOUT_ENCRYPTION_KEY refuse to start, in one line", () => {
  const live = { STRIPE_SECRET_KEY: "sk_live_1", STRIPE_PUBLISHABLE_KEY: "pk_live_1" };
  assert.throws(() => loadConfig({ ...MEMORY, ...live }), (err: Error) => {
    assert.ok(err instanceof ConfigError);
    assert.match(err.message, /^PAYOUT_ENCRYPTION_KEY is required with live Stripe keys/);
    assert.doesNotMatch(err.message, /\n/);
    return true;
  });
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  assert.equal(loadConfig({ ...MEMORY, ...live, PAYOUT_ENCRYPTION_KEY: key }).payoutKey, key);
  const test = { STRIPE_SECRET_KEY: "sk_test_1", STRIPE_PUBLISHABLE_KEY: "pk_test_1" };
  assert.equal(loadConfig({ ...MEMORY, ...test }).payoutKey, null, "test keys may use the store's");
});

Deno.test("[config] VAPID keys: both or neither, P-256 in base64url, a mailto: or https: subject", () => {
  assert.equal(loadConfig(MEMORY).vapid, undefined);
  const pub = "B" + "A".repeat(86);
  const priv = "A".repeat(43);
  assert.deepEqual(
    loadConfig({ ...MEMORY, VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: priv }).vapid,
    { publicKey: pub, privateKey: priv, subject: "mailto:no-reply@localhost" },
  );
  assert.equal(
    loadConfig({
      ...MEMORY,
      VAPID_PUBLIC_KEY: pub,
      VAPID_PRIVATE_KEY: priv,
      VAPID_SUBJECT: "https://contests.example.com",
    }).vapid?.subject,
    "https://contests.example.com",
  );
  assert.throws(() => loadConfig({ ...MEMORY, VAPID_PUBLIC_KEY: pub }), /set together/);
  assert.throws(
    () => loadConfig({ ...MEMORY, VAPID_PUBLIC_KEY: "short", VAPID_PRIVATE_KEY: priv }),
    /VAPID_PUBLIC_KEY must be a P-256 public key/,
  );
  assert.throws(
    () => loadConfig({ ...MEMORY, VAPID_PUBLIC_KEY: pub, VAPID_PRIVATE_KEY: "a+b" }),
    /VAPID_PRIVATE_KEY must be a P-256 private key/,
  );
  assert.throws(() => loadConfig({ ...MEMORY, VAPID_SUBJECT: "me" }), /VAPID_SUBJECT must be/);
});
