// The service worker of Fantasy Contests (registered by every public page): an offline page, and
// the last leaderboards a visitor opened, kept with their scripts so they still show their
// standings without a connection. Pages always come from the network first: nothing here can show
// stale prices, deadlines or entries while the visitor is online.
const VERSION = "1";
const SHELL = `shell-${VERSION}`;
const PAGES = `leaderboards-${VERSION}`;
const SCRIPTS = `scripts-${VERSION}`;
const OFFLINE = "/offline";
/** What the offline page and the kept leaderboards show besides themselves. */
const SHELL_FILES = [OFFLINE, "/logo.svg"];
/** Leaderboards kept, the most recently opened ones. */
const KEEP_LEADERBOARDS = 5;
const SCRIPT_PREFIX = "/_frsh/js/";

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(SHELL_FILES)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  const current = [SHELL, PAGES, SCRIPTS];
  event.waitUntil(
    caches.keys()
      .then((names) =>
        Promise.all(names.filter((n) => !current.includes(n)).map((n) => caches.delete(n)))
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(event, url));
  else if (url.pathname.startsWith(SCRIPT_PREFIX)) event.respondWith(script(event, request, url));
  else if (SHELL_FILES.includes(url.pathname)) event.respondWith(shellFile(request, url));
});

/** The network's copy of a shell file, the kept one without a network. */
async function shellFile(request, url) {
  try {
    return await fetch(request);
  } catch (err) {
    return (await caches.match(url.pathname, { cacheName: SHELL })) ?? Response.error();
  }
}

function isLeaderboard(url) {
  return /^\/leaderboard\/[^/]+$/.test(url.pathname);
}

/** The network's page; without a network, the kept leaderboard or the offline page. */
async function navigate(event, url) {
  try {
    const response = await fetch(event.request);
    if (isLeaderboard(url) && response.ok) event.waitUntil(keepLeaderboard(url, response.clone()));
    return response;
  } catch (err) {
    const kept = isLeaderboard(url) ? await caches.match(url.pathname, { cacheName: PAGES }) : null;
    return kept ?? (await caches.match(OFFLINE, { cacheName: SHELL })) ?? Response.error();
  }
}

async function keepLeaderboard(url, response) {
  const cache = await caches.open(PAGES);
  await cache.delete(url.pathname); // re-added last: the keys stay in the order last opened
  await cache.put(url.pathname, response);
  const keys = await cache.keys();
  await Promise.all(keys.slice(0, -KEEP_LEADERBOARDS).map((key) => cache.delete(key)));
}

/**
 * Scripts live under their build id and never change: the kept copy when there is one, else the
 * network's, kept for the leaderboards (a new build's scripts replace the old build's).
 */
async function script(event, request, url) {
  const cache = await caches.open(SCRIPTS);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) event.waitUntil(keepScript(cache, url, response.clone()));
  return response;
}

async function keepScript(cache, url, response) {
  const build = url.pathname.slice(0, url.pathname.indexOf("/", SCRIPT_PREFIX.length) + 1);
  const stale = (await cache.keys()).filter((key) => !new URL(key.url).pathname.startsWith(build));
  await Promise.all(stale.map((key) => cache.delete(key)));
  await cache.put(url.pathname, response);
}

// Push notifications the visitor asked for on My entries ("my picks scored", "final standings"):
// the payload is {title, body, url, tag}; a click focuses an open tab of that page or opens it.
self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  const title = typeof data.title === "string" ? data.title : "Fantasy Contests";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof data.body === "string" ? data.body : "",
    tag: typeof data.tag === "string" ? data.tag : undefined,
    icon: "/icons/icon-192.png",
    badge: "/icons/icon-192.png",
    data: { url: typeof data.url === "string" ? data.url : "/my-entries" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/my-entries", self.location.origin);
  if (target.origin !== self.location.origin) return;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname);
    if (open) return open.focus();
    return self.clients.openWindow(target.href);
  })());
});
