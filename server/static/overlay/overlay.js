// The stream overlay: rebuilds from one snapshot on every load (OBS reloads sources), then
// follows the table over a WebSocket, reconnecting and resuming from the last sequence seen.
// It renders the public view it is given; it never holds anything a stream may not show.

import { GM_BUSY, declaration, gmBusy } from "/static/shared/awareness.js";
import { Table, h, tableId } from "/static/shared/client.js";
import { aimed } from "/static/shared/forms.js";
import { TALLY } from "/static/shared/index-cards.js";
import { TurnClock, inPlay } from "/static/shared/clock.js";

const params = new URLSearchParams(location.search);
const root = document.getElementById("overlay");
const base = `/api/tables/${encodeURIComponent(tableId())}`;
const liveClock = new TurnClock(base, params.get("token") ?? "");
let turnClock = liveClock; // a replay's own while it plays
let replayNote = null; // what the overlay says of a replay: playing, or over and live again

for (const [param, property] of [["accent", "--seize-accent"], ["scale", "--seize-scale"],
                                 ["font", "--seize-font"], ["text", "--seize-text"],
                                 ["panel", "--seize-panel"]]) {
  if (params.has(param)) document.documentElement.style.setProperty(property, params.get(param));
}
document.body.dataset.theme = params.get("theme") ?? "dark";
document.body.dataset.position = params.get("position") ?? "bottom";

let seq = 0;
let lastMoment = null; // the moment on screen, so a new view of the same moment does not replay it

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

/** A name on one line; where it must be cut short, the whole of it shows on hover. */
const named = (name, tag = "span", className = "name") =>
  h(tag, { class: className, title: name }, name);

/** A moment of its own above the cards (Editorial Control, a seize, a pre-emption): it arrives
 * with a flourish once, and stays while it lasts. */
function moment(kind, key, title, ...line) {
  const fresh = key !== lastMoment;
  lastMoment = key;
  return h("section", { class: `moment ${kind}${fresh ? " new" : ""}`, role: "status" },
           h("div", { class: "title" }, title), h("div", { class: "line" }, ...line));
}

/** Where the table stands, at the head of the strip: "Round 3", "Page 2"; nothing before the
 * first. */
const stage = (word, number) => (number
  ? h("div", { class: "stage", "data-stage": "" }, `${word} ${number}`) : null);

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
  const shown = [];
  const strip = h("section", { class: "strip four-color" }, stage("Page", view.page));
  const current = inPlay(view);
  if (current) {
    if (current.editorial_control) {
      const key = `editorial:${view.page}:${view.panels.length}`;
      shown.push(moment("editorial", key, "Editorial Control!", named(who(current)),
                        " plays a joker, out of turn"));
    }
    strip.append(h("div", { class: "panel current" }, card(current.card),
                   named(who(current), "div", "who")));
  }
  for (const upcoming of view.order) {
    strip.append(h("div", { class: "panel" }, card(upcoming.card),
                   named(who(upcoming), "div", "who")));
  }
  if (view.hidden_cards) {
    const hand = Array.from({ length: view.hidden_cards }, () => card(null, { faceDown: true }));
    strip.append(h("div", { class: "panel editor" }, h("div", { class: "hand" }, hand),
                   named("Editor", "div", "who")));
  }
  if (!current && !view.order.length) {
    strip.append(h("div", { class: "label" }, view.phase === "setup" ? "Waiting for the deal"
      : view.phase === "ended" ? "The scene is over" : "Every Panel is played"));
  }
  shown.push(strip);
  return shown;
}

/** (initiative, tally): who is higher. */
const higher = (a, b) => a.initiative > b.initiative
  || (a.initiative === b.initiative && a.tally > b.tally);

function rcs(view) {
  const names = Object.fromEntries(view.characters.map((c) => [c.id, c.name]));
  const nameOf = (id) => names[id] ?? id;
  const shown = [];
  // The token's card normally lies on the lowest card still to play; lying on a higher one, in
  // front of a lower card, it was seized from that card (the seizer's card moves in front).
  const [holder, next] = view.line.filter((entry) => !entry.tapped);
  if (holder?.token && next && higher(holder, next)) {
    shown.push(moment("seize", `seize:${view.round}:${holder.character}:${next.character}`,
                      "Initiative seized!", named(nameOf(holder.character)),
                      " takes the turn from ", named(nameOf(next.character))));
  }
  const strip = h("section", { class: "strip rcs" }, stage("Round", view.round));
  for (const entry of view.line) {
    const classes = ["index-card", entry.tapped && "tapped", entry.token && "holder"]
      .filter(Boolean).join(" ");
    strip.append(h("div", { class: classes, "data-id": entry.character },
      named(nameOf(entry.character), "div"),
      h("div", { class: "foot" },
        h("div", { class: "initiative" }, String(entry.initiative),
          entry.tally ? h("span", { class: "tally", title: TALLY }, " " + "|".repeat(entry.tally))
            : null),
        h("div", { class: "marks" },
          entry.tapped && h("span", { class: "tapped-mark" }, "tapped"),
          entry.marker && h("span", { class: "marker", title: "one Short Action left" },
                            "1 Short left"),
          entry.token && h("div", { class: "token", title: "Taking Turn Token" })))));
  }
  if (!view.line.length) strip.append(h("div", { class: "label" }, "Rolling initiative"));
  const declared = view.declared;
  if (declared) {
    const action = declared.action === "long" ? "a Long Action" : "a Short Action";
    const target = { ...declared, target: names[declared.target] ?? declared.target };
    strip.append(h("div", { class: "caption" }, named(nameOf(declared.character)),
                   ` declares ${action}: ${declared.what}${aimed(target)}`));
  }
  shown.push(strip);
  return shown;
}

function awareness(view) {
  const names = Object.fromEntries(view.characters.map((c) => [c.id, c.name]));
  const nameOf = (id) => names[id] ?? id;
  const shown = [];
  const exchange = view.exchange;
  // A pre-emption that worked is the moment: someone who waited acts before the one acting.
  const before = exchange?.reactions.filter((r) => r.preempt && r.placed === "before") ?? [];
  if (before.length) {
    const key = `preempt:${view.round}:${before.map((r) => `${r.character}>${r.to}`).join(",")}`;
    shown.push(moment("preempt", key, "Pre-empted!", ...before.map((r, n) => [
      n ? "; " : "", named(nameOf(r.character)), " acts before ", named(nameOf(r.to))])));
  }
  const section = h("section", { class: "strip awareness" }, stage("Round", view.round));
  const column = h("div", { class: "declarations" });
  if (view.declaring) {
    column.append(h("div", { class: "declaring" }, "Declaring: ", named(nameOf(view.declaring))));
  }
  if (gmBusy(view)) column.append(h("div", { class: "declaring", "data-gm-busy": "" }, GM_BUSY));
  for (const declared of view.declarations) {
    const who = nameOf(declared.character);
    // What was said, after the name: "acts: …", or only "waits" (never for what: ruling 12).
    const said = declaration(declared, who).slice(who.length);
    column.append(h("div", { class: "declared" }, named(who), said));
  }
  // The exchange under way: who reacts to whom, and how it fell out.
  for (const pending of exchange?.pending ?? []) {
    column.append(h("div", { class: "declared reaction" }, named(nameOf(pending.character)),
                    " tries to pre-empt ", named(nameOf(pending.to)), ": the d10 is rolled…"));
  }
  for (const r of exchange?.reactions ?? []) {
    const how = r.preempt
      ? (r.placed === "before" ? " pre-empts " : " tries to pre-empt ")
      : " reacts to ";
    const then = r.preempt && r.placed === "after" ? ", and goes just after" : "";
    column.append(h("div", { class: "declared reaction" }, named(nameOf(r.character)), how,
                    named(nameOf(r.to)), then));
  }
  if (!column.childElementCount) column.append(h("div", { class: "label" }, "Tension rises…"));
  section.append(column);
  shown.push(section);
  return shown;
}

const RENDERERS = { "four-color": fourColor, "megatraveller-rcs": rcs, awareness };

let lastView = null;

/** Draw ``view``; ``standing`` ({seq, at}) is the step it stands at, new to the turn clock. */
function render(view, standing) {
  const renderer = RENDERERS[view.system];
  if (!renderer) return;
  lastView = view;
  if (view.system === "awareness") renderAwareness(view, renderer);
  else root.replaceChildren(...renderer(view));
  const names = Object.fromEntries((view.members ?? view.characters).map((p) => [p.id, p.name]));
  const timed = standing ? turnClock.see(view, (who) => names[who] ?? who, standing)
    : turnClock.element;
  if (!timed.hidden) root.append(timed);
  if (replayNote) root.append(h("div", { class: "replay-note", "data-replay-note": "" }, replayNote));
  if (!root.querySelector(".moment")) lastMoment = null;
  root.dataset.seq = String(seq);
  settle();
}

/** Awareness: when a long round's declarations would take too much of the frame, the earliest
 * give way to a line saying how many came before. */
function renderAwareness(view, renderer) {
  const shownBefore = lastMoment; // each try draws the same moment: new on every try, or none
  for (let skip = 0; ; skip++) {
    lastMoment = shownBefore;
    const declarations = view.declarations.slice(skip);
    root.replaceChildren(...renderer({ ...view, declarations }));
    if (skip) {
      const earlier = h("div", { class: "declared earlier" }, `… ${skip} declared before`);
      const declaring = root.querySelector(".declaring");
      if (declaring) declaring.after(earlier);
      else root.querySelector(".declarations").prepend(earlier);
    }
    if (!crowding() || skip >= view.declarations.length - 1) return;
  }
}

// Sized by the browser source: a name is 26 px on a 1920×1080 source and in proportion on a
// smaller one, but never under 18 px (OBS's default source is 800×600), times the ``scale`` the
// streamer chose.
function fit() {
  const proportional = 26 * Math.min(innerWidth / 1920, innerHeight / 1080);
  document.documentElement.style.setProperty("--seize-unit", `${Math.max(18, proportional)}px`);
  if (lastView) render(lastView);
}

/** Does any part of the overlay reach out of the frame? */
function overflowing() {
  for (const element of [root, ...root.querySelectorAll("*")]) {
    const box = element.getBoundingClientRect();
    if (box.left < 0 || box.top < 0 || box.right > innerWidth || box.bottom > innerHeight) {
      return true;
    }
  }
  return false;
}

/** The share of the frame's height the table may cover before it packs closer: the scene
 * behind it is the show. A moment comes and goes, so it does not count: the table keeps its
 * layout when one appears. */
const SHARE = 0.5;

/** Out of the frame, or covering more of the scene than its share. */
function crowding() {
  const strips = [...root.querySelectorAll(".strip")];
  const covered = strips.reduce((sum, strip) => sum + strip.getBoundingClientRect().height, 0);
  return overflowing() || covered > innerHeight * SHARE;
}

/** A table that fits keeps its roomy layout. A larger one packs closer (Four Color's cards
 * become small cards beside the names), then cuts long names short (whole on hover); only a
 * table too large even for that is drawn smaller than a name's size, rather than cut off. */
function settle() {
  delete root.dataset.fit;
  root.style.removeProperty("--seize-shrink");
  if (!crowding()) return;
  root.dataset.fit = "compact";
  if (!crowding()) return;
  root.dataset.fit = "compact tight";
  for (let shrink = 0.95; overflowing() && shrink > 0.3; shrink -= 0.05) {
    root.style.setProperty("--seize-shrink", shrink.toFixed(2));
  }
}

addEventListener("resize", fit);
fit();

// Nothing but the table ever goes on stream: a failed start (the server is down, the link was
// replaced) keeps the last good picture, or nothing, and tries again quietly with growing pauses.
const token = params.get("token") ?? "";
let live = null; // the live table while a replay plays: shown once it is over
const table = new Table(tableId(), token, (view, at) => {
  live = { view, at };
  if (replaying) return;
  seq = at;
  render(view, { seq: at });
}, { onEvent: (_, event) => liveClock.heard(event) });
async function start(delay = 1000) {
  try {
    await table.start();
  } catch {
    setTimeout(() => start(Math.min(delay * 2, 30000)), delay);
  }
}

// Replay (?replay=N, or ?replay=last, with ?speed=1, 2 or 4): a round (a page) played back for
// the stream as the stream saw it, each step held as long as it lasted at the table (a pause of
// more than LONGEST seconds shortened to that), faster at 2× and 4×; then the live table again,
// and a line saying so for SAID_LIVE ms. The turn clock under it runs on the replay's own time,
// from each step's time at the table, at the replay's speed: a turn shows as long as it was.
const LONGEST = 20;
const SAID_LIVE = 8000;
let replaying = params.has("replay");

async function read(path) {
  const answer = await fetch(`${base}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(String(answer.status));
  return answer.json();
}

async function replay() {
  const speed = [1, 2, 4].includes(Number(params.get("speed"))) ? Number(params.get("speed")) : 1;
  root.dataset.replay = "playing";
  // The table's time (ms) in the replay: the step on screen's, run on at the replay's speed up
  // to the next step's.
  let shown = { at: 0, since: performance.now(), until: 0 };
  try {
    const story = await read("/timeline");
    turnClock = new TurnClock(base, token, { story, now: () => Math.min(shown.until,
      shown.at + (performance.now() - shown.since) * speed) });
    const asked = params.get("replay");
    // The last round played: the one its last step that stands is in (a round begun and
    // taken back, before the scene ended, was never played).
    const round = asked === "last" || asked === ""
      ? story.steps.findLast((step) => !step.struck)?.round ?? 0 : Number(asked);
    const steps = story.steps.filter((step) => step.round === round);
    const word = story.numbers.round_word ?? "round";
    replayNote = `Replay: ${word} ${round}${speed > 1 ? `, ${speed}×` : ""}`;
    for (const [n, step] of steps.entries()) {
      const then = await read(`/replay?seq=${step.seq}`);
      const held = n + 1 < steps.length ? steps[n + 1].at - step.at : 1;
      shown = { at: step.at * 1000, since: performance.now(), until: (step.at + held) * 1000 };
      if (step.kind === "undo") turnClock.heard({ type: "undone", undoes: step.undoes });
      seq = then.seq;
      render(then.view, { seq: then.seq, at: shown.at });
      await new Promise((done) => { setTimeout(done, (Math.min(held, LONGEST) * 1000) / speed); });
    }
  } catch {
    // Never an error on stream: the live table comes back instead.
  }
  replaying = false;
  turnClock = liveClock;
  replayNote = "The replay is over: live";
  setTimeout(() => {
    replayNote = null;
    if (lastView) render(lastView);
  }, SAID_LIVE);
  if (live) {
    seq = live.at;
    render(live.view, { seq: live.at });
  }
  root.dataset.replay = "done";
}

if (replaying) replay();
start();
