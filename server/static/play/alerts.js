// "You're up", in the page: the view's alerts (rules/alerts.py: cut to what this player may
// see, so a hidden participant never sets them off) told by vibration, an optional sound, the
// tab's title and icon, and the screen kept awake while it is the player's turn. Each is the
// player's setting, kept in this browser (localStorage). A phone only vibrates or sounds for an
// alert that is new since the last view: a redraw of the same turn tells nothing twice.
// Beyond the page, with the player's consent and on HTTPS, two settings that stand apart: a
// system notification while the page is in the background (the page's own, needing nothing but
// the browser's permission), and Web Push (the server's, server/live/push.py) through the
// service worker (/play/sw.js), so a closed page or a locked phone still hears "Your turn".
// Web Push needs the browser's push service too, which a private window refuses and which may
// not answer at all: a push that fails says why and what still works, and takes nothing else
// down with it. Whether push is on is what this browser's subscription says, not a setting
// kept beside it.

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

/** Whether this browser may show the page's notifications: a secure page (HTTPS, or
 * localhost) in a browser with service workers and notifications. */
const notifiable = () => window.isSecureContext && "serviceWorker" in navigator
  && "Notification" in window;

/** …and be pushed to: the Push API too. */
const pushable = () => notifiable() && "PushManager" in window;

/** How long the browser's push service may take to subscribe before the page says it did not
 * answer: Chromium with no push service reachable neither answers nor fails, for minutes. */
const PUSH_WAIT = 20000;

/** Why a setting could not be turned on, in the player's words, with what to do. */
class NotOn extends Error {}

const BLOCKED = new NotOn("this browser blocks notifications from this page. Allow them in the "
  + "site's settings (the icon left of the address), then tick this again.");

const bytes = (b64) => Uint8Array.from(atob(b64.replace(/-/g, "+").replace(/_/g, "/")),
  (c) => c.charCodeAt(0));

/** The player page's worker, told this page's address so a tapped notification reopens it. */
async function worker(table) {
  await navigator.serviceWorker.register("/play/sw.js", { scope: "/play/" });
  const ready = await navigator.serviceWorker.ready;
  ready.active?.postMessage({ table: table.id, page: location.href });
  return ready;
}

/** The player's consent to notifications, asked if need be. */
async function allowed() {
  const answer = await Notification.requestPermission();
  if (answer === "denied") throw BLOCKED;
  if (answer !== "granted") {
    throw new NotOn("notifications were not allowed. Tick this again and choose Allow.");
  }
}

/** The table refused what the page asked of it (``answer``): what the player can do. */
const refused = (answer) => new NotOn(`the table did not take this device (it answered `
  + `${answer.status}). Ask the GM for a fresh link, then tick this again.`);

/** The browser's push service's subscription, or why there is none, in the player's words. */
async function pushSubscription(registration, key) {
  let late = false;
  const subscribing = registration.pushManager.subscribe(
    { userVisibleOnly: true, applicationServerKey: bytes(key) });
  // One that answers after the page has said it did not is let go: the player was told off.
  subscribing.then((found) => { if (late) found.unsubscribe(); }, () => {});
  let waited;
  const silent = new Promise((_, fail) => {
    waited = setTimeout(() => {
      late = true;
      fail(new NotOn("this browser's push service did not answer, so a closed page cannot be "
        + "told your turn. Try again later, or in another browser."));
    }, PUSH_WAIT);
  });
  try {
    return await Promise.race([subscribing, silent]);
  } catch (error) {
    if (error instanceof NotOn) throw error;
    // Chromium's own words: "Registration failed - permission denied" where a profile may not
    // be pushed to (a private window), "- push service error" where its service is away.
    if (/permission denied/i.test(error?.message ?? "")) {
      throw new NotOn("this browser does not let a closed page be told anything from here "
        + "(a private window never does). Open this link in an ordinary window to have it.");
    }
    throw new NotOn("this browser could not reach its push service, so a closed page cannot "
      + "be told your turn. Try again later, or in another browser.");
  } finally {
    clearTimeout(waited);
  }
}

/** Ask the player's consent, subscribe this browser's push service with the table's key and
 * hand the subscription to the server, under this page's grant; ``waiting()`` runs as the push
 * service is asked. */
async function subscribe(table, waiting) {
  await allowed();
  const registration = await worker(table);
  const asked = await fetch(`${table.base}/push`, { headers: table.headers() });
  if (!asked.ok) throw refused(asked);
  const { public_key: key } = await asked.json();
  waiting();
  const subscription = await pushSubscription(registration, key);
  const kept = await fetch(`${table.base}/push`, {
    method: "PUT", body: JSON.stringify(subscription.toJSON()),
    headers: { ...table.headers(), "Content-Type": "application/json" },
  });
  if (!kept.ok) {
    await subscription.unsubscribe();
    throw refused(kept);
  }
}

/** This browser's push subscription for the player pages, if it holds one. */
async function subscribed() {
  const registration = await navigator.serviceWorker.getRegistration("/play/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function unsubscribe(table) {
  await (await subscribed())?.unsubscribe();
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

  let touched = false;  // a tap, a click or a key on the page: the player has touched it
  for (const kind of ["pointerdown", "touchstart", "keydown"]) {
    addEventListener(kind, () => { touched = true; }, { capture: true, once: true });
  }

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
      // A browser lets a page vibrate only once it has been touched: a page opened on an
      // alert shows it, and buzzes from the next one on. The page's own word that it was
      // touched comes first, so no browser's guess at activation makes it buzz unasked.
      if (chosen.vibrate && navigator.vibrate && touched
          && (navigator.userActivation?.hasBeenActive ?? true)) {
        navigator.vibrate(BUZZ[pressing]);
      }
      if (chosen.sound) beep(pressing === "urgent");
      // A hidden page's own notification; a push for the same alert replaces it (one tag).
      if (chosen.notify && document.hidden && notifiable()
          && Notification.permission === "granted") {
        navigator.serviceWorker.ready.then((ready) => ready.showNotification(said[0], {
          tag: `seize-${table().id}`, renotify: true, icon: "/static/play/icon-192.png",
        })).catch(() => {});
      }
    }
    turn = alerts.some((a) => a.kind === "turn");
    if (turn) hold(); else letGo();
  };

  // Each setting that can fail says under it whether it is on, and if not, why.
  const states = {};
  const state = (key, words) => { if (states[key]) states[key].textContent = words; };
  const checkbox = (key) => panelled?.querySelector(`[data-setting=${key}]`);

  /** The page's own notification while it is hidden: the browser's permission, nothing more. */
  const notifying = async (on) => {
    if (!on) return state("notify", "");
    try {
      await allowed();
      await worker(table());
      state("notify", "On: a notification when it is your turn and this page is not in view.");
    } catch (error) {
      keep({ notify: false });
      checkbox("notify").checked = false;
      state("notify", `Not on: ${error instanceof NotOn ? error.message : BLOCKED.message}`);
    }
  };

  /** Web Push: on only once the server holds this browser's subscription. */
  const pushing = async (on) => {
    const box = checkbox("push");
    box.checked = !on; // ticked when it is on, not when it is asked for
    box.disabled = true;
    state("push", on ? "Turning on…" : "Turning off…");
    try {
      await (on ? subscribe(table(), () => state("push", "Turning on: waiting for this "
        + "browser's push service…")) : unsubscribe(table()));
      box.checked = on;
      state("push", on ? "On: this device is told your turn, the page closed or not." : "");
    } catch (error) {
      box.checked = false;
      state("push", `Not on: ${error instanceof NotOn ? error.message
        : "the table could not be reached. Try again once the page is back in touch."}`);
    } finally {
      box.disabled = false;
    }
  };

  const box = (key, label, { onchange, checked = settings()[key], note = null, ...extra } = {}) => {
    states[key] = h("p", { class: "muted state", "data-state": key, "aria-live": "polite" },
                    note ?? "");
    return [h("label", { class: "setting" },
      h("input", {
        type: "checkbox", "data-setting": key, checked: checked || undefined, ...extra,
        onchange: onchange ?? ((event) => {
          keep({ [key]: event.target.checked });
          if (key === "awake") (event.target.checked ? hold() : letGo());
          if (key === "notify") notifying(event.target.checked);
        }),
      }), ` ${label}`), states[key]];
  };
  const lacking = {
    vibrate: navigator.vibrate ? null : "This browser cannot vibrate.",
    // Wake Lock is offered only to a secure page: on plain http the link, not the browser,
    // is why (plain-http.js says what gives an https one).
    awake: navigator.wakeLock ? null : window.isSecureContext
      ? "This browser cannot keep the screen on."
      : "Keeping the screen on needs an https link to this page.",
  };
  let panelled = null;
  const panel = () => {
    panelled = h("details", { class: "more", id: "alerts", "data-fold": "alerts" },
    h("summary", {}, "Alerts on this device…"),
      SETTINGS.map(([key, label]) => box(key, label, { note: lacking[key] })),
      box("notify", "Notify me while this page is not in view",
          notifiable() ? {} : { disabled: true, checked: false }),
      box("push", "Notify me when the page is closed or the phone locked",
          { checked: false, disabled: !pushable(),
            onchange: (event) => pushing(event.target.checked) }),
      pushable() ? null : h("p", { class: "muted" }, "Notifications need this page on HTTPS, "
        + "in a browser that has them: ask the GM for an https link."));
    if (notifiable() && settings().notify) {
      if (Notification.permission === "granted") {
        // The worker that shows them learns this page's address again.
        worker(table()).then(() => state("notify", "On: a notification when it is your turn "
          + "and this page is not in view."), () => {});
      } else {
        keep({ notify: false });
        checkbox("notify").checked = false;
        state("notify", `Not on: ${BLOCKED.message}`);
      }
    }
    if (pushable()) {
      // Whether push is on is whether this browser holds a subscription.
      subscribed().then((found) => {
        checkbox("push").checked = found !== null;
        if (found) state("push", "On: this device is told your turn, the page closed or not.");
      }, () => {});
    }
    return panelled;
  };

  return { told, panel };
}
