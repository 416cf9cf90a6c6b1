// "You're up", in the page: the view's alerts (rules/alerts.py: cut to what this player may
// see, so a hidden participant never sets them off) told by vibration, an optional sound, the
// tab's title and icon, and the screen kept awake while it is the player's turn. Each is the
// player's setting, kept in this browser (localStorage). A phone only vibrates or sounds for an
// alert that is new since the last view: a redraw of the same turn tells nothing twice.
// Beyond the page, with the player's consent and on HTTPS: system notifications, and Web Push
// (the server's, server/live/push.py) through the service worker (/play/sw.js), so a closed
// page or a locked phone still hears "Your turn".

import { h } from "/static/shared/client.js";

const KEPT = "seize.alerts";
const DEFAULTS = { vibrate: true, sound: false, title: true, awake: true, notify: false };
const SETTINGS = [
  ["vibrate", "Vibrate"],
  ["sound", "Play a sound"],
  ["title", "Flag the tab's title and icon"],
  ["awake", "Keep the screen on during my turn"],
];
const WORDS = {
  turn: "Your turn", seize: "You may seize", react: "You may react", die: "Roll your die",
  on_deck: "On deck",
};
const BUZZ = { urgent: [200, 100, 200], on_deck: [80] };
const ICON = (colour) => "data:image/svg+xml," + encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${colour}"/></svg>`);
const ICONS = { urgent: ICON("#d62828"), on_deck: ICON("#f4a261"), none: "data:," };

/** The player's settings, as this browser keeps them. */
export function settings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(KEPT) ?? "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

const keep = (changed) => localStorage.setItem(KEPT, JSON.stringify({ ...settings(), ...changed }));

/** Whether this browser may notify and be pushed to: a secure page (HTTPS, or localhost) in
 * a browser with service workers, the Push API and notifications. */
const pushable = () => window.isSecureContext && "serviceWorker" in navigator
  && "PushManager" in window && "Notification" in window;

const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")),
  (c) => c.charCodeAt(0));

/** The player page's worker, told this page's address so a tapped notification reopens it. */
async function worker(table) {
  await navigator.serviceWorker.register("/play/sw.js", { scope: "/play/" });
  const ready = await navigator.serviceWorker.ready;
  ready.active?.postMessage({ table: table.id, page: location.href });
  return ready;
}

/** Ask the player's consent, subscribe this browser's push service with the table's key and
 * hand the subscription to the server, under this page's grant. */
async function subscribe(table) {
  if ((await Notification.requestPermission()) !== "granted") {
    throw new Error("notifications were not allowed in this browser");
  }
  const registration = await worker(table);
  const asked = await fetch(`${table.base}/push`, { headers: table.headers() });
  if (!asked.ok) throw new Error(`the table answered ${asked.status}`);
  const { public_key: key } = await asked.json();
  const subscription = await registration.pushManager.subscribe(
    { userVisibleOnly: true, applicationServerKey: bytes(key) });
  const kept = await fetch(`${table.base}/push`, {
    method: "PUT", body: JSON.stringify(subscription.toJSON()),
    headers: { ...table.headers(), "Content-Type": "application/json" },
  });
  if (!kept.ok) throw new Error(`the table answered ${kept.status}`);
}

async function unsubscribe(table) {
  const registration = await navigator.serviceWorker.getRegistration("/play/");
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
  await fetch(`${table.base}/push`, { method: "DELETE", headers: table.headers() });
}

/** The strongest of the alerts: anything asked now, else on deck, else none. */
const level = (alerts) => (alerts.some((a) => a.kind !== "on_deck") ? "urgent"
  : alerts.length ? "on_deck" : "none");

/** A short beep from the Web Audio API: no file to fetch, nothing to install. */
function beep(urgent) {
  const Audio = window.AudioContext ?? window.webkitAudioContext;
  if (!Audio) return;
  const audio = new Audio();
  const tone = audio.createOscillator();
  tone.frequency.value = urgent ? 880 : 440;
  tone.connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.2);
  tone.onended = () => audio.close();
}

/** The alerts of the page: ``told(view, title)`` after each view (``names()`` the names its
 * view gives, ``table()`` its client); ``panel()`` the settings. */
export function alerting(names, table) {
  const base = { title: document.title };
  let before = new Set();
  let awake = null;
  let turn = false;
  const icon = () => document.querySelector("link[rel=icon]");

  // The Screen Wake Lock is let go by the browser whenever the page is hidden: asked again
  // when it is shown while the turn lasts. Where the browser refuses (no HTTPS, battery
  // saver), the turn is still told.
  const hold = async () => {
    if (!turn || !settings().awake || awake || !navigator.wakeLock) return;
    try {
      awake = await navigator.wakeLock.request("screen");
      awake.addEventListener("release", () => { awake = null; });
    } catch {
      awake = null;
    }
  };
  const letGo = () => { awake?.release().catch(() => {}); awake = null; };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") hold();
  });

  const told = (view, title) => {
    base.title = title;
    const alerts = view.alerts ?? [];
    const now = new Set(alerts.map((a) => `${a.kind} ${a.character}`));
    const fresh = alerts.filter((a) => !before.has(`${a.kind} ${a.character}`));
    before = now;
    const shown = level(alerts);
    const said = alerts.map((a) => `${WORDS[a.kind]}: ${names()[a.character] ?? ""}`);
    document.body.dataset.alert = shown;
    const chosen = settings();
    document.title = chosen.title && alerts.length ? `● ${said[0]} · ${base.title}` : base.title;
    icon()?.setAttribute("href", chosen.title ? ICONS[shown] : ICONS.none);
    if (fresh.length) {
      const pressing = level(fresh);
      if (chosen.vibrate && navigator.vibrate) navigator.vibrate(BUZZ[pressing]);
      if (chosen.sound) beep(pressing === "urgent");
      // A hidden page's own notification; a push for the same alert replaces it (one tag).
      if (chosen.notify && document.hidden && pushable() && Notification.permission === "granted") {
        navigator.serviceWorker.ready.then((ready) => ready.showNotification(said[0], {
          tag: `seize-${table().id}`, renotify: true, icon: "/static/play/icon-192.png",
        })).catch(() => {});
      }
    }
    turn = alerts.some((a) => a.kind === "turn");
    if (turn) hold(); else letGo();
  };

  const said = h("p", { class: "muted", "data-said": "alerts" });
  const notifying = async (on) => {
    try {
      await (on ? subscribe(table()) : unsubscribe(table()));
      said.textContent = on ? "This device will be told your turn, the page closed or not." : "";
    } catch (error) {
      keep({ notify: false });
      panelled.querySelector("[data-setting=notify]").checked = false;
      said.textContent = `Not turned on: ${error?.message ?? error}`;
    }
  };
  const box = (key, label, extra = {}) => h("label", { class: "setting" },
    h("input", {
      type: "checkbox", "data-setting": key, checked: settings()[key] || undefined, ...extra,
      onchange: (event) => {
        keep({ [key]: event.target.checked });
        if (key === "awake") (event.target.checked ? hold() : letGo());
        if (key === "notify") notifying(event.target.checked);
      },
    }), ` ${label}`);
  let panelled = null;
  const panel = () => {
    panelled = h("details", { class: "more", id: "alerts", "data-fold": "alerts" },
    h("summary", {}, "Alerts on this device…"),
      SETTINGS.map(([key, label]) => box(key, label)),
      box("notify", "Notify me when the page is closed or the phone locked",
          pushable() ? {} : { disabled: true }),
      pushable() ? null : h("p", { class: "muted" }, "Notifications need this page on HTTPS, "
        + "in a browser that has them: ask the GM for an https link."),
      said);
    // A worker already subscribed learns this page's address again.
    if (pushable() && settings().notify) worker(table()).catch(() => {});
    return panelled;
  };

  return { told, panel };
}
