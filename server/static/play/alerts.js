// "You're up", in the page: the view's alerts (rules/alerts.py: cut to what this player may
// see, so a hidden participant never sets them off) told by vibration, an optional sound, the
// tab's title and icon, and the screen kept awake while it is the player's turn. Each is the
// player's setting, kept in this browser (localStorage). A phone only vibrates or sounds for an
// alert that is new since the last view: a redraw of the same turn tells nothing twice.

import { h } from "/static/shared/client.js";

const KEPT = "seize.alerts";
const DEFAULTS = { vibrate: true, sound: false, title: true, awake: true };
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
 * view gives); ``panel()`` the settings. */
export function alerting(names) {
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
    }
    turn = alerts.some((a) => a.kind === "turn");
    if (turn) hold(); else letGo();
  };

  const panel = () => h("details", { class: "more", id: "alerts", "data-fold": "alerts" },
    h("summary", {}, "Alerts on this device…"),
    SETTINGS.map(([key, label]) => h("label", { class: "setting" },
      h("input", {
        type: "checkbox", "data-setting": key, checked: settings()[key] || undefined,
        onchange: (event) => {
          keep({ [key]: event.target.checked });
          if (key === "awake") (event.target.checked ? hold() : letGo());
        },
      }), ` ${label}`)));

  return { told, panel };
}
