// The player page's service worker, served at /play/sw.js so that its scope is every table's
// player page. It does one thing: show the "You're up" a push brings (server/live/push.py) as a
// system notification, and bring the player's page back when it is tapped. It caches nothing:
// a page at the table is live or it is nothing.

const PAGES = "seize-pages";

// The page tells the worker its own address (with its token, which never leaves this browser),
// so a tapped notification can open it again after the page was closed.
self.addEventListener("message", (event) => {
  const { table, page } = event.data ?? {};
  if (table && page) {
    event.waitUntil(caches.open(PAGES).then((kept) => kept.put(`/page/${table}`,
      new Response(page))));
  }
});

self.addEventListener("push", (event) => {
  const told = event.data?.json() ?? { title: "Seize", body: "" };
  event.waitUntil(self.registration.showNotification(`${told.title}: ${told.body}`, {
    body: "Seize", tag: `seize-${told.table}`, renotify: true, data: { table: told.table },
    icon: "/static/play/icon-192.png", badge: "/static/play/icon-192.png",
    vibrate: [200, 100, 200],
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const table = event.notification.data?.table;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const page = open.find((c) => new URL(c.url).pathname === `/play/${table}`);
    if (page) return page.focus();
    const kept = await (await caches.open(PAGES)).match(`/page/${table}`);
    return kept ? self.clients.openWindow(await kept.text()) : undefined;
  })());
});
