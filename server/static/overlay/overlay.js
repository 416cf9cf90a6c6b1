// The stream overlay: rebuilds from one snapshot on every load (OBS reloads sources), then
// follows the table over a WebSocket, reconnecting and resuming from the last sequence seen.
// It renders the public view it is given; it never holds anything a stream may not show.

import { declaration } from "/static/shared/awareness.js";
import { Table, h, tableId } from "/static/shared/client.js";

const params = new URLSearchParams(location.search);
const root = document.getElementById("overlay");

for (const [param, property] of [["accent", "--seize-accent"], ["scale", "--seize-scale"],
                                 ["font", "--seize-font"], ["text", "--seize-text"],
                                 ["panel", "--seize-panel"]]) {
  if (params.has(param)) document.documentElement.style.setProperty(property, params.get(param));
}
document.body.dataset.theme = params.get("theme") ?? "dark";
document.body.dataset.position = params.get("position") ?? "bottom";

let seq = 0;
let lastLine = [];

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

function card(code, { faceDown = false } = {}) {
  if (faceDown || !code) {
    return h("div", { class: "card face-down", role: "img", "aria-label": "face down" });
  }
  if (code.endsWith("J") && code.length === 2) {
    return h("div", { class: "card joker", "data-card": code }, "JOKER");
  }
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D";
  return h("div", { class: `card${red ? " red" : ""}`, "data-card": code },
           code.slice(0, -1), SUITS[suit] ?? suit);
}

function fourColor(view) {
  const names = Object.fromEntries(view.members.map((m) => [m.id, m.name]));
  const who = (panel) => names[panel.acting] ?? panel.element ?? "the Editor";
  const strip = h("section", { class: "strip four-color" });
  const current = view.current;
  if (current) {
    strip.append(h("div", { class: "panel current" }, card(current.card),
                   h("div", { class: "who" }, who(current))));
    if (current.editorial_control) {
      strip.append(h("div", { class: "editorial" }, "Editorial Control!"));
    }
  }
  for (const upcoming of view.order) {
    strip.append(h("div", { class: "panel" }, card(upcoming.card),
                   h("div", { class: "who" }, who(upcoming))));
  }
  for (let n = 0; n < view.hidden_cards; n++) {
    strip.append(h("div", { class: "panel" }, card(null, { faceDown: true }),
                   h("div", { class: "who" }, "Editor")));
  }
  if (!current && !view.order.length) {
    strip.append(h("div", { class: "label" }, view.phase === "setup" ? "Waiting for the deal"
                                                                      : "Every Panel is played"));
  }
  return strip;
}

function rcs(view) {
  const names = Object.fromEntries(view.characters.map((c) => [c.id, c.name]));
  const strip = h("section", { class: "strip rcs" });
  const order = view.line.map((c) => c.character);
  for (const entry of view.line) {
    const moved = lastLine.indexOf(entry.character) > order.indexOf(entry.character)
      && lastLine.length === order.length && entry.token;
    const classes = ["index-card", entry.tapped && "tapped", moved && "seized"]
      .filter(Boolean).join(" ");
    strip.append(h("div", { class: classes, "data-id": entry.character },
      h("div", { class: "name" }, names[entry.character] ?? entry.character),
      h("div", { class: "initiative" }, String(entry.initiative),
        h("span", { class: "tally" }, " " + "|".repeat(entry.tally))),
      entry.token && h("div", { class: "token", title: "Taking Turn Token" }),
      entry.marker && h("div", { class: "marker", title: "one Short Action left" })));
  }
  lastLine = order;
  if (!view.line.length) strip.append(h("div", { class: "label" }, "Rolling initiative"));
  return strip;
}

function awareness(view) {
  const names = Object.fromEntries(view.characters.map((c) => [c.id, c.name]));
  const section = h("section", { class: "strip awareness" });
  const column = h("div", { class: "declarations" });
  if (view.declaring) {
    column.append(h("div", { class: "declaring" }, "Declaring: ",
                    h("span", { class: "name" }, names[view.declaring] ?? view.declaring)));
  }
  for (const declared of view.declarations) {
    const who = names[declared.character] ?? declared.character;
    column.append(h("div", { class: "declared" }, declaration(declared, who)));
  }
  if (!column.childElementCount) column.append(h("div", { class: "label" }, "Tension rises…"));
  section.append(column);
  return section;
}

const RENDERERS = { "four-color": fourColor, "megatraveller-rcs": rcs, awareness };

function render(view) {
  const renderer = RENDERERS[view.system];
  if (!renderer) return;
  root.replaceChildren(renderer(view));
  root.dataset.seq = String(seq);
}

// Sized by the browser source: the overlay is laid out for 1920×1080 and scaled to fit whatever
// width and height OBS gives it (800×600 by default), times the ``scale`` the streamer chose.
function fit() {
  const fitted = Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--seize-fit", String(fitted));
}
addEventListener("resize", fit);
fit();

// Nothing but the table ever goes on stream: a failed start (the server is down, the link was
// replaced) keeps the last good picture, or nothing, and tries again quietly with growing pauses.
const table = new Table(tableId(), params.get("token") ?? "", (view, at) => {
  seq = at;
  render(view);
});
async function start(delay = 1000) {
  try {
    await table.start();
  } catch {
    setTimeout(() => start(Math.min(delay * 2, 30000)), delay);
  }
}
start();
