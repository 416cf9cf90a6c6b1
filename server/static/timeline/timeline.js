// The fight's story, /tables/{id}/timeline: who acted when and for how long, drawn across the
// rounds (or pages); a replay to see the table as it stood after any step; the numbers
// afterwards; every step in the game's words, with the recap and the export to download.
// Everything comes from the API already cut to the token's role (docs/api.md, "A table's
// story"): a player's or the stream's story never holds a hidden participant before its reveal.

import { h } from "/static/shared/client.js";
import { aimed, card, report, section } from "/static/shared/forms.js";
import { inPlay } from "/static/shared/clock.js";

const id = decodeURIComponent(location.pathname.split("/")[2] ?? "");
const fragment = new URLSearchParams(location.hash.slice(1));
const kept = (() => {
  try { return JSON.parse(localStorage.getItem(`seize:${id}`) ?? "{}"); } catch { return {}; }
})();
// A player's or the stream's link brings ?token=; the console's, #token= (never sent to a
// server); a GM who ran the table in this browser has it kept already.
const token = new URLSearchParams(location.search).get("token") ?? fragment.get("token")
  ?? kept.gm_token ?? "";
if (fragment.has("token")) history.replaceState(null, "", location.pathname + location.search);
const base = `/api/tables/${encodeURIComponent(id)}`;
const scrub = document.getElementById("scrub");
const then = document.getElementById("then");
const at = document.getElementById("at");
let told = null;
let shown = -1; // the step (an index into the steps, 0: before the first) on screen
let asked = 0; // the latest replay asked for: an older answer arriving late is not drawn

async function read(path) {
  const answer = await fetch(base + path, { headers: { Authorization: `Bearer ${token}` } });
  const body = await answer.json();
  if (!answer.ok) {
    throw Object.assign(new Error(body.message ?? `the server answered ${answer.status}`),
      { status: answer.status });
  }
  return body;
}

/** A link whose token no longer opens the table (revoked, or replaced by a newer one): what
 * happened and the way back, in place of a story that cannot be read. A GM's came from the
 * console (#token=, or kept in this browser); a player's or the stream's, from their page. */
function refused() {
  const gm = !new URLSearchParams(location.search).has("token");
  document.getElementById("story").replaceChildren(section("This link no longer opens the table",
    h("p", {}, gm
      ? "This device's GM link was revoked from a GM's console, or a newer one replaced it. "
        + "On a screen that still runs the table, open the fight's story from the console; or "
        + `ask the host for a new GM link: seize gm-link ${id}.`
      : "This link was revoked, or a newer one replaced it. Ask the GM for a new link to "
        + "your page (or the overlay), and open the fight's story from there.")));
}

const clock = (seconds) => new Date(seconds * 1000).toLocaleTimeString([], { hour12: false });

/** A span as a table says it: 45 s, 2 min 5 s, 1 h 3 min. */
function lasted(seconds) {
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = whole % 60;
  if (hours) return `${hours} h ${minutes} min`;
  if (minutes) return secs ? `${minutes} min ${secs} s` : `${minutes} min`;
  return `${secs} s`;
}

function seenAs(story) {
  const { role, participants } = story.you;
  if (role === "gm") return `as ${story.gm} saw it`;
  if (role === "overlay") return "as the stream saw it";
  return `as the player of ${participants.map((p) => story.cast[p] ?? p).join(", ")} saw it`;
}

// The chart --------------------------------------------------------------------------------

const SVG = "http://www.w3.org/2000/svg";
const LANE = 30;
/** The kinds of step marked on the chart, and their words for the legend under it (a tablet
 * shows no hover titles). */
const MARKS = {
  seize: "a seize", preemption: "a pre-emption that went first",
  preemption_failed: "a pre-emption that went after", preemption_declared: "a pre-emption declared",
  reaction: "a reaction", editorial_control: "a joker (Editorial Control)", reveal: "a reveal",
  latecomer: "a latecomer", trade: "a trade", undo: "an undo",
};
const MARKED = new Set(Object.keys(MARKS));

function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** Lanes, one per participant, the rounds as bands across, each turn a bar as long as it
 * lasted, and the steps that change the order (seizes, pre-emptions, jokers, reveals,
 * latecomers, trades, undos) as marks on their participant's lane. */
function chart(story) {
  const lanes = [...new Set([...story.turns.map((t) => t.who),
                             ...story.steps.flatMap((s) => s.who)])];
  const box = document.querySelector("#chart .drawing");
  if (!story.steps.length) {
    box.replaceChildren(h("p", { class: "muted" }, "Nothing has happened yet."));
    return;
  }
  const narrow = box.clientWidth < 600;
  const left = narrow ? 92 : 160;
  const width = Math.max(box.clientWidth, left + story.steps.length * (narrow ? 10 : 14));
  const height = 24 + (lanes.length + 1) * LANE;
  const first = story.steps[0].at;
  const last = story.steps.at(-1).at + (story.steps.at(-1).took ?? 0);
  const span = Math.max(last - first, 0.001);
  const x = (t) => left + ((t - first) / span) * (width - left - 12);
  // Steps that name no one (the GM's) have the lane under everyone's; an undo is marked on the
  // lane of the step it took back.
  const y = (who) => 24 + (lanes.includes(who) ? lanes.indexOf(who) : lanes.length) * LANE;
  const bySeq = new Map(story.steps.map((step) => [step.seq, step]));
  const whose = (step) => step.who[0] ?? bySeq.get(step.undoes)?.who[0];
  const drawing = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": `Who acted when, ${story.numbers.rounds} ${story.numbers.round_word}s` });
  const rounds = story.steps.filter((s, n) => n === 0 || s.round !== story.steps[n - 1].round);
  rounds.forEach((step, n) => {
    const end = n + 1 < rounds.length ? rounds[n + 1].at : last;
    const word = step.round ? `${story.numbers.round_word} ${step.round}` : "setting up";
    const band = Math.max(x(end) - x(step.at), 1);
    drawing.append(svg("rect", { class: "round", x: x(step.at), y: 0, width: band, height },
      svg("title", {}, word)));
    if (band >= 56) drawing.append(svg("text", { class: "round-name", x: x(step.at) + 3, y: 14 }, word));
  });
  lanes.forEach((who) => {
    const name = story.cast[who] ?? who;
    drawing.append(svg("text", { class: "lane-name", x: 4, y: y(who) + 19 },
      name.length > (narrow ? 11 : 20) ? `${name.slice(0, narrow ? 10 : 19)}…` : name));
  });
  if (story.steps.some((step) => MARKED.has(step.kind) && !lanes.includes(whose(step)))) {
    drawing.append(svg("text", { class: "lane-name", x: 4, y: y(null) + 19 }, "The table"));
  }
  for (const turn of story.turns) {
    const end = turn.seconds === null ? last : turn.at + turn.seconds;
    drawing.append(svg("rect", { class: `turn${turn.struck ? " struck" : ""}`, x: x(turn.at),
      y: y(turn.who) + 6, width: Math.max(x(end) - x(turn.at), 2), height: LANE - 10,
      "data-turn": turn.who },
    svg("title", {}, `${story.cast[turn.who] ?? turn.who}: ${
      turn.seconds === null ? "still acting" : lasted(turn.seconds)}${
      turn.struck ? " (taken back: no turn)" : ""}`)));
  }
  story.steps.forEach((step, n) => {
    if (!MARKED.has(step.kind)) return;
    const lane = y(whose(step));
    drawing.append(svg("circle", {
      class: `mark ${step.kind}${step.struck ? " struck" : ""}`, cx: x(step.at), cy: lane + 15,
      r: step.chain > 1 ? 7 : 5, "data-step": n + 1 },
    svg("title", {}, `${clock(step.at)} ${step.said}${step.struck ? " (taken back)" : ""}`)));
  });
  drawing.append(svg("line", { class: "cursor", x1: left, x2: left, y1: 0, y2: height }));
  box.replaceChildren(drawing, legend(story));
  box.dataset.x = JSON.stringify(story.steps.map((s) => x(s.at)));
  box.dataset.left = left;
}

/** What the chart's marks and bars mean, for those this story has. */
function legend(story) {
  const kinds = new Set(story.steps.filter((step) => !step.struck).map((step) => step.kind)
    .filter((kind) => MARKED.has(kind)));
  const key = (mark, words) => h("li", {}, svg("svg", { width: 16, height: 16,
    "aria-hidden": "true" }, mark), ` ${words}`);
  const items = [...kinds].map((kind) => key(svg("circle", { class: `mark ${kind}`, cx: 8,
    cy: 8, r: 5 }), MARKS[kind]));
  if (story.steps.some((step) => step.struck && MARKED.has(step.kind))) {
    items.push(key(svg("circle", { class: "mark struck", cx: 8, cy: 8, r: 5 }), "taken back"));
  }
  if (story.turns.some((turn) => turn.struck)) {
    items.push(key(svg("rect", { class: "turn struck", x: 1, y: 4, width: 14, height: 8 }),
      "a turn begun by a step taken back: no turn"));
  }
  return h("ul", { class: "legend", "data-legend": "" },
    key(svg("rect", { class: "turn", x: 1, y: 4, width: 14, height: 8 }), "a turn"), items);
}

// The numbers ------------------------------------------------------------------------------

function numbers(story) {
  const n = story.numbers;
  const word = n.round_word.replace(/^./, (c) => c.toUpperCase());
  const facts = [[`${word}s`, n.rounds]];
  if (n.seizes.tried) facts.push(["Seizes that stood", `${n.seizes.won} of ${n.seizes.tried}`]);
  if (n.preemptions.tried) {
    facts.push(["Pre-emptions that went first", `${n.preemptions.won} of ${n.preemptions.tried}`]);
  }
  for (const [label, count] of [["Editorial Control", n.jokers], ["Trades", n.trades],
    ["Latecomers", n.latecomers], ["Reveals", n.reveals], ["Steps taken back", n.undos]]) {
    if (count) facts.push([label, count]);
  }
  const turns = n.turns.length ? h("table", { "data-turns": "" },
    h("thead", {}, h("tr", {}, ["Who", "Turns", "In all", "Longest", "On average"]
      .map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, n.turns.map((f) => h("tr", { "data-who": f.who },
      h("th", { scope: "row" }, story.cast[f.who] ?? f.who), h("td", {}, String(f.turns)),
      h("td", {}, lasted(f.seconds)), h("td", {}, lasted(f.longest)),
      h("td", {}, lasted(f.average))))))
    : h("p", { class: "muted" }, "No turn has ended yet.");
  document.querySelector("#numbers .figures").replaceChildren(
    h("dl", {}, facts.map(([label, value]) => [h("dt", {}, label), h("dd", {}, String(value))])),
    turns);
}

// The steps --------------------------------------------------------------------------------

function steps(story) {
  const query = `token=${encodeURIComponent(token)}`;
  document.querySelector("#steps .exports").replaceChildren(
    h("a", { href: `${base}/recap?${query}`, download: `seize-${id}.md`, "data-export": "recap" },
      "Download the recap (Markdown)"),
    h("a", { href: `${base}/export?${query}`, download: `seize-${id}.json`,
             "data-export": "json" }, "Download the events (JSON)"));
  document.querySelector("#steps .steps").replaceChildren(...story.steps.map((step, n) =>
    h("li", { class: step.struck ? "struck" : "", "data-step": n + 1, "data-seq": step.seq,
              "data-kind": step.kind },
      h("span", { class: "when" }, clock(step.at)),
      h("button", { type: "button", onclick: () => go(n + 1) },
        h("span", { class: "said" }, step.said),
        step.struck ? h("span", { class: "muted" }, " (taken back)") : null))));
}

// The replay -------------------------------------------------------------------------------

const named = (v) => Object.fromEntries((v.members ?? v.characters ?? []).map((p) => [p.id, p.name]));
const hiddenMark = (v, who) => ((v.hidden ?? []).includes(who) ? " (hidden from players)" : "");

const AS_IT_STOOD = {
  "four-color": (v) => {
    const who = named(v);
    return [
      h("p", { class: "facts" }, v.page ? `Page ${v.page}` : "Before the first deal"),
      inPlay(v) ? h("p", { class: "now" }, "Now: ", card(v.current.card), " ",
        who[v.current.acting] ?? v.current.element ?? "the Editor",
        v.current.editorial_control ? " (Editorial Control)" : "")
        : v.phase === "ended" ? h("p", { class: "facts" }, "The scene is over") : null,
      v.order.length ? h("ol", { class: "order" }, v.order.map((c) => h("li", {}, card(c.card),
        ` ${who[c.acting] ?? who[c.holder] ?? "the Editor"}${hiddenMark(v, c.holder)}`))) : null,
      h("p", { class: "facts" }, `At the table: ${v.members.map((m) =>
        m.name + hiddenMark(v, m.id)).join(", ") || "no one yet"}`),
      v.hidden_cards ? h("p", { class: "facts" }, `The Editor holds ${v.hidden_cards} more `
        + `card${v.hidden_cards === 1 ? "" : "s"}, face down`) : null,
    ];
  },
  "megatraveller-rcs": (v) => {
    const who = named(v);
    return [
      h("p", { class: "facts" }, v.round ? `Round ${v.round}` : "Before the first round"),
      v.line.length ? h("ol", { class: "order" }, v.line.map((c) => h("li",
        { class: c.token ? "now" : "" }, `${who[c.character] ?? c.character}, initiative `
        + `${c.initiative}${c.tapped ? ", tapped" : ""}${c.token ? ", holds the token" : ""}`
        + hiddenMark(v, c.character)))) : null,
      v.declared ? h("p", { class: "facts" }, `Declared: ${who[v.declared.character]} `
        + `${v.declared.what}${aimed(v.declared)}`) : null,
      h("p", { class: "facts" }, `At the table: ${v.characters.map((c) =>
        c.name + hiddenMark(v, c.id)).join(", ") || "no one yet"}`),
    ];
  },
  awareness: (v) => {
    const who = named(v);
    const acting = v.declaring ?? v.exchange?.act.character;
    return [
      h("p", { class: "facts" }, v.round ? `Round ${v.round}` : "Before the first round"),
      acting ? h("p", { class: "now" }, v.declaring ? `Declaring: ${who[acting]}`
        : `Acting: ${who[acting]}: ${v.exchange.act.what}`) : null,
      v.declarations.length ? h("ol", { class: "order" }, v.declarations.map((d) => h("li", {},
        `${who[d.character]} ${d.kind === "act" ? `acts: ${d.what}`
          : `waits${d.what ? ` for ${d.what}` : ""}`}`))) : null,
      h("p", { class: "facts" }, `At the table: ${v.characters.map((c) =>
        c.name + hiddenMark(v, c.id)).join(", ") || "no one yet"}`),
    ];
  },
};

/** Show the table as the role saw it after step ``n`` (0: before the first). */
async function go(n) {
  const step = Math.max(0, Math.min(n, told.steps.length));
  scrub.value = String(step);
  if (step === shown) return;
  shown = step;
  const seq = step ? told.steps[step - 1].seq : 0;
  const mine = ++asked;
  document.querySelectorAll("ol.steps li.here").forEach((li) => li.classList.remove("here"));
  document.querySelector(`ol.steps li[data-step="${step}"]`)?.classList.add("here");
  const box = document.querySelector("#chart .drawing");
  const cursor = box.querySelector(".cursor");
  if (cursor) {
    const x = step ? JSON.parse(box.dataset.x)[step - 1] : Number(box.dataset.left);
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
  }
  try {
    const replayed = await read(`/replay?seq=${seq}`);
    if (mine !== asked) return;
    at.textContent = step ? `After ${clock(told.steps[step - 1].at)}: ${told.steps[step - 1].said}`
      : "Before the first step";
    then.replaceChildren(...AS_IT_STOOD[told.system](replayed.view).filter(Boolean));
    then.dataset.seq = String(replayed.seq);
    document.body.dataset.seq = String(replayed.seq);
  } catch (error) {
    report(String(error.message));
  }
}

scrub.addEventListener("input", () => go(Number(scrub.value)));
document.querySelector("[data-action=back]").addEventListener("click", () => go(shown - 1));
document.querySelector("[data-action=forward]").addEventListener("click", () => go(shown + 1));

async function start() {
  if (!token) {
    report("This link has no token: open the timeline from the console, your page or the "
      + "overlay's links.");
    return;
  }
  try {
    told = await read("/timeline");
  } catch (error) {
    if (error.status === 401) refused();
    else report(String(error.message));
    return;
  }
  document.title = `${told.name}: the fight's story`;
  document.getElementById("title").textContent = told.name;
  document.getElementById("meta").textContent = `The fight's story, ${seenAs(told)}`;
  scrub.max = String(told.steps.length);
  chart(told);
  numbers(told);
  steps(told);
  await go(told.steps.length);
  document.body.dataset.ready = "";
}

start();
