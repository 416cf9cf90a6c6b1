// The GM console: /console starts a table; /console/{id}#token=… runs it. The GM token comes
// in the URL's fragment (never sent to a server) and is kept in this browser.
//
// The roster is the console: everyone at the table, the one acting highlighted, each row with
// the actions that concern that character. Above it, the one step the engine waits for, in the
// game's words, taken by a tap, Space or Enter.

import { Table, Unshowable, h, tableId } from "/static/shared/client.js";
import {
  cardsInWords, heardRollers, input, keeping, linkShown, possessive, report, run, section, settled,
  taken,
} from "/static/shared/forms.js";
import { awareness } from "/static/shared/awareness.js";
import { lapsing, rcs } from "/static/shared/index-cards.js";
import { fourColor } from "/static/shared/panels.js";
import { reach } from "/static/console/reach.js";
import { TurnClock } from "/static/shared/clock.js";
import { gmNotice } from "/static/shared/plain-http.js";
import { named } from "/static/shared/fate.js";

/**
 * A die or card the step asks for is typed at once from a keyboard: the cursor waits in its
 * field (unless it is in another field already), so "4 Enter 3 Enter" enters two dice. Not on
 * a touch screen, where a focused field would raise the keyboard over the table.
 */
function typedAtOnce(step) {
  const field = step.querySelector("input[name=die], input[name=die1], input[name=card]");
  const typing = document.activeElement?.matches?.("input, select, textarea");
  if (field && !typing && matchMedia("(pointer: fine)").matches) {
    field.focus({ preventScroll: true });
  }
}

/** The steps every system shares, as an undo names them: hiding and revealing someone. */
function shared(e, who) {
  const name = who[e.participant] ?? "someone";
  if (e.type === "hidden") return `hiding ${name}`;
  if (e.type === "revealed") return `revealing ${name}`;
  return null;
}

const SYSTEMS = { "four-color": fourColor, "megatraveller-rcs": rcs, awareness };
const root = document.getElementById("console");
const stored = (id) => JSON.parse(localStorage.getItem(`seize:${id}`) ?? "{}");

function startPage() {
  document.getElementById("title").textContent = "Seize: start a table";
  const system = h("select", { name: "system", "aria-label": "Game" },
    Object.entries(SYSTEMS).map(([value, s]) => h("option", { value }, s.title)));
  const name = h("input", { name: "name", required: true, placeholder: "Friday game",
                            "aria-label": "Table name" });
  const admin = h("input", { name: "admin", placeholder: "only if the server asks for one",
                             "aria-label": "Admin token" });
  const clock = h("input", { name: "turn_clock", type: "number", min: "1", max: "3600",
                             inputmode: "numeric", placeholder: "no clock",
                             "aria-label": "Seconds a turn may take" });
  const create = h("form", { "data-form": "create", class: "stack" },
    h("label", {}, "Game", system), h("label", {}, "Table name", name),
    h("details", {}, h("summary", {}, "Turn clock"),
      h("label", {}, "Seconds a turn may take (the pages show the time, and say when it is up)",
        clock)),
    h("details", {}, h("summary", {}, "Admin token"), admin),
    h("button", { class: "primary", "data-action": "create" }, "Create the table"));
  create.addEventListener("submit", async (submitted) => {
    submitted.preventDefault();
    const headers = { "Content-Type": "application/json" };
    if (admin.value) headers.Authorization = `Bearer ${admin.value}`;
    const answer = await fetch("/api/tables", { method: "POST", headers,
      body: JSON.stringify({ system: system.value, name: name.value,
                             options: clock.value ? { turn_clock: Number(clock.value) } : {} }) });
    const body = await answer.json();
    if (!answer.ok) return report(body.message);
    keepHere(body.id, { gm_token: body.gm_token, name: name.value });
    location.assign(`/console/${body.id}#token=${encodeURIComponent(body.gm_token)}`);
  });
  const ran = runHere();
  root.replaceChildren(...[section("New table", create),
    ran.length ? section("Tables you have run here", h("ul", { class: "tables" },
      ran.map(({ id, name }) => h("li", {}, h("a", { href: `/console/${encodeURIComponent(id)}`,
                                                 "data-table": id }, name ?? id))))) : null,
    h("p", { id: "notice", role: "status" })].filter(Boolean));
}

/** The tables this browser holds a GM token for, newest first: its own record, never the
 * server's (a server lists its tables to no one). */
function runHere() {
  const found = [];
  for (let n = 0; n < localStorage.length; n++) {
    const key = localStorage.key(n);
    if (!key?.startsWith("seize:")) continue;
    const kept = stored(key.slice("seize:".length));
    if (kept.gm_token) found.push({ id: key.slice("seize:".length), ...kept });
  }
  return found.sort((a, b) => (b.at ?? 0) - (a.at ?? 0));
}

/** Keep this browser's record of a table: its GM token, its name, when it was last run. */
function keepHere(id, entry) {
  localStorage.setItem(`seize:${id}`, JSON.stringify({ ...stored(id), ...entry, at: Date.now() }));
}

/** A QR code and its link, drawn from the server's answer (the SVG is the server's own). */
function handoff(shown, onHide) {
  const picture = h("div", { class: "qr-code", role: "img", "aria-label": "QR code of the link" });
  picture.innerHTML = shown.svg;
  const copied = h("span", { class: "muted", role: "status" });
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shown.url);
      copied.textContent = "Copied.";
    } catch {
      copied.textContent = "Copy the link's address from its menu: this page may not.";
    }
  };
  return h("div", { class: "qr", "data-qr": shown.for },
    picture,
    h("p", {}, h("a", { href: shown.url, target: "_blank", rel: "noopener" }, shown.label)),
    shown.for === "overlay" ? null : gmNotice(shown.url),
    shown.trust ? trusting(shown.trust) : null,
    h("button", { type: "button", "data-action": `copy-${shown.for}`, onclick: copy }, "Copy link"),
    copied,
    h("button", { type: "button", onclick: onHide }, "Hide"));
}

/** Under --share lan-ca: the page where a phone trusts the table's certificate, once, before
 * its https link opens. */
function trusting(trust) {
  const picture = h("div", { class: "qr-code", role: "img",
                             "aria-label": "QR code of the certificate page" });
  picture.innerHTML = trust.svg;
  return h("details", { class: "trust", "data-trust": "" },
    h("summary", {}, "First time on this network? Trust the table's certificate"),
    h("p", {}, "Scan this first on a phone that has not trusted this table yet; it shows "
      + "how, then scan the link above again. ", h("a", { href: trust.url, target: "_blank",
                                                          rel: "noopener" }, trust.url)),
    picture);
}

/** The events that still stand, so Undo can say what it takes back: the last step's event,
 * and the reveals its acting caused, written just before it, which one undo takes back too. */
class Standing {
  constructor() { this.seen = new Map(); this.stood = null; }
  add(seq, event) {
    if (!event) return;
    this.seen.set(seq, event);
    this.stood = null;
  }
  /** The events that stand, oldest first, each with its sequence number: worked out once per
   * event heard, however many times a draw asks. */
  stack() {
    if (this.stood) return this.stood;
    const stack = [];
    for (const seq of [...this.seen.keys()].sort((a, b) => a - b)) {
      const event = this.seen.get(seq);
      if (event.type === "undone") {
        const at = stack.findIndex((entry) => entry.seq === event.undoes);
        if (at >= 0) stack.splice(at, 1);
      } else stack.push({ seq, event });
    }
    this.stood = stack;
    return stack;
  }
  /** The latest standing event of one of ``types``, or null. */
  latest(types) {
    return this.stack().findLast(({ event }) => types.includes(event.type))?.event ?? null;
  }
  last() {
    const stack = [...this.stack()];
    const step = stack.pop();
    if (!step) return null;
    const revealing = [];
    for (let at = step.seq - 1; stack.at(-1)?.seq === at; at--) {
      const { event } = stack.at(-1);
      if (event.type !== "revealed" || !event.acting) break;
      revealing.unshift(stack.pop().event);
    }
    return { event: step.event, revealing };
  }
}

/** What an undo takes back, in the console's words: the step, and whom it revealed. */
function takenBack(last, who, system) {
  if (!last) return null;
  const step = shared(last.event, who) ?? system.describe(last.event, who);
  if (!step || !last.revealing.length) return step;
  const names = last.revealing.map((e) => who[e.participant] ?? "someone").join(" and ");
  return `${step}, hiding ${names} again`;
}

async function consolePage(id) {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const saved = stored(id);
  const token = fragment.get("token") ?? saved.gm_token;
  if (!token) {
    root.replaceChildren(section("Token needed", h("p", {},
      `This browser has no GM link to this table. ${WAYS_BACK}${id}.`)));
    return;
  }
  keepHere(id, { gm_token: token });
  history.replaceState(null, "", location.pathname);

  const standing = new Standing();
  const qr = new Map(); // participant → the hand-off shown on their row
  let overlayShown = null;
  const next = h("section", { id: "next", "aria-labelledby": "prompt" },
    h("h2", { id: "prompt", "data-prompt": "" }), h("div", { class: "controls" }),
    h("p", { id: "notice", role: "status" }), h("div", { class: "undo" }));
  const turnClock = new TurnClock(`/api/tables/${encodeURIComponent(id)}`, token);
  const roster = h("section", { "data-section": "Roster" }, h("h2", {}, "At the table"),
    h("ul", { class: "roster" }), h("div", { class: "aside" }));
  const adding = h("section", { "data-section": "Add" }, h("h2", {}, "Add to the table"));
  const links = h("section", { "data-section": "Links" }, h("h2", {}, "Stream overlay"),
    h("div", { class: "links" }));
  const elsewhere = h("section", { "data-section": "Elsewhere" },
    h("h2", {}, "This console on another device"), h("div", { class: "elsewhere" }));
  let gmShown = null;
  let gmAsked = false;
  let gmDevices = null; // listed once the GM opens this section
  let devicesWatched = null;
  let listsAsked = 0; // the device lists asked for, numbered: an older answer knows less
  let system;
  let view;
  const ctx = { names: {}, table: null, redraw: () => draw() };

  const show = async (path, label, keep, body) => {
    try {
      keep({ ...(await ctx.table.call(path, { body })), label });
      draw();
    } catch (error) {
      report(String(error.message));
    }
  };

  function rowOf(row) {
    const phone = row.phone && h("button", { type: "button", class: "quiet",
      "data-action": `phone-${row.id}`, "aria-label": `Phone link for ${row.name}`,
      onclick: () => show(`handoff/players/${encodeURIComponent(row.id)}`,
                          `${possessive(row.name)} player page`,
                          (shown) => qr.set(row.id, { ...shown, for: row.id })) }, "Phone link");
    const shown = qr.get(row.id);
    const hidden = (view.hidden ?? []).includes(row.id);
    // Hidden from players and the stream until it acts or is revealed (the shared rulings);
    // a row that is no participant (the Editor's own cards) has no one to hide.
    const hiding = row.participant !== false && h("button", { type: "button", class: "quiet",
      "data-action": `${hidden ? "reveal" : "hide"}-${row.id}`,
      "aria-label": `${hidden ? "Reveal to players" : "Hide from players"}: ${row.name}`,
      onclick: () => run(ctx.table, { type: hidden ? "reveal" : "hide", participant: row.id },
                         ctx.names) }, hidden ? "Reveal to players" : "Hide from players");
    return h("li", { class: ["row", row.current && "current", row.out && "out",
                             hidden && "hidden"].filter(Boolean).join(" "),
                     "data-id": row.id, "aria-current": row.current ? "true" : undefined },
      h("div", { class: "who" }, h("strong", {}, row.name),
        row.kind ? h("span", { class: "kind" }, row.kind) : null,
        hidden ? h("span", { class: "kind", "data-hidden": "" }, "hidden from players") : null),
      h("div", { class: "facts" }, row.facts),
      h("div", { class: "doing", "data-doing": "" }, row.doing ?? ""),
      h("div", { class: "actions" }, row.actions ?? [], hiding, phone),
      shown ? handoff(shown, () => { qr.delete(row.id); draw(); }) : null);
  }

  function draw() {
    if (!view) return;
    // How the last round was rolled: the next is offered the same way first.
    ctx.atTheTable = standing.latest(["initiative_rolled", "rolls_awaited"])?.type
      === "rolls_awaited";
    // Declarations that lapsed, offered again when the token comes back.
    ctx.lapsed = standing.stack().reduce((found, { event }) => lapsing(found, event), new Map());
    const step = system.next(view, ctx);
    settled(step.prompt);
    keeping(next, () => {
      next.querySelector("[data-prompt]").textContent = step.prompt;
      next.querySelector(".controls").replaceChildren(...(step.controls ?? []).filter(Boolean));
      const taken = takenBack(standing.last(), ctx.names, system);
      next.querySelector(".undo").replaceChildren(taken
        ? h("button", { type: "button", class: "quiet", "data-action": "undo",
            onclick: async () => {
              if (await run(ctx.table, { type: "undo" }, ctx.names)) {
                // Said until the table moves on from the step the undo left it at.
                report(`Took back ${taken}.`, { tone: "ok",
                  prompt: document.querySelector("[data-prompt]")?.textContent });
              }
            } }, `↶ Undo ${taken}`)
        : h("span", { class: "muted" }, "Nothing to undo yet"));
    });
    keeping(roster, () => {
      const rows = system.roster(view, ctx);
      roster.querySelector(".roster").replaceChildren(...(rows.length ? rows.map(rowOf)
        : [h("li", { class: "muted" }, system.empty)]));
      roster.querySelector(".aside").replaceChildren(...(system.aside?.(view, ctx) ?? [])
        .filter(Boolean));
    });
    // After the roster: a roll typed on a row takes that row's boxes away, and the keyboard
    // goes on in the step's rather than nowhere.
    typedAtOnce(next);
    links.querySelector(".links").replaceChildren(
      h("p", { class: "muted" }, "Each new link stops the older ones working."),
      h("button", { type: "button", "data-action": "overlay-link",
        onclick: () => show("handoff/overlay", "Overlay for OBS (browser source)",
                            (shown) => { overlayShown = { ...shown, for: "overlay" }; }) },
        overlayShown ? "Show another new overlay link" : "Show a new overlay link"),
      ...(overlayShown ? [handoff(overlayShown, () => { overlayShown = null; draw(); }),
        streamLinks(overlayShown.url)] : []));
    // A device's name being typed survives the table moving on, and the list's polls.
    keeping(elsewhere, () => elsewhere.querySelector(".elsewhere")
      .replaceChildren(...elsewhereControls()));
  }

  /** The GM's devices, each with its own link: listed with when each last followed the table,
   * any one revoked; a new one's link shown only when asked for, after a plain warning. */
  function elsewhereControls() {
    const listing = gmDevices ? [h("ul", { class: "gm-devices", "data-gm-devices": "" },
      gmDevices.map((device) => h("li", { "data-device": device.name },
        h("strong", {}, device.name), " ",
        h("span", { class: "muted" }, device.this ? "this device" : lastSeen(device)), " ",
        device.this ? null : h("button", { type: "button", class: "quiet",
          "data-action": `revoke-${device.id}`, "aria-label": `Revoke ${device.name}`,
          onclick: () => revokeDevice(device) }, "Revoke"))))] : [];
    if (gmShown) {
      return [...listing, h("p", { class: "warning" }, "Whoever has this link runs the table. "
        + "Open it on that device, then hide it."),
        handoff(gmShown, () => { gmShown = null; gmAsked = false; draw(); })];
    }
    if (gmAsked) {
      const name = input("The device's name", { keep: "gm-device", name: "device",
        maxlength: "80", required: "", placeholder: "Co-GM tablet" });
      const add = h("form", { class: "add-device", onsubmit: (submitted) => {
        submitted.preventDefault();
        taken([name]);  // once its link is shown, the name is no words lost
        show("handoff/gm", `This console, for ${name.value.trim()}`,
             (shown) => { gmShown = { ...shown, for: "gm", after: listsAsked }; listDevices(); },
             { name: name.value });
      } },
        h("label", {}, "Name the device ", name),
        h("button", { type: "submit", class: "primary", "data-action": "gm-link" },
          "Show its GM link"),
        h("button", { type: "button", class: "quiet",
          // Emptied first: a name the GM cancels is not said lost ("Not sent").
          onclick: () => { add.reset(); gmAsked = false; draw(); } }, "Cancel"));
      return [...listing, h("p", { class: "warning" }, "A GM link lets whoever holds it run "
        + "this table, as you do. Show it only where no one else can see it (not on stream). "
        + "Each device gets a link of its own, and any one can be revoked here."), add];
    }
    return [...listing, h("button", { type: "button", "data-action": "elsewhere",
      onclick: () => { gmAsked = true; draw(); listDevices(); } },
      "Open this console on another device")];
  }

  async function listDevices() {
    // Once opened, the list follows the devices coming and going while the console runs.
    devicesWatched ??= setInterval(() => {
      if (gone) clearInterval(devicesWatched);  // the link no longer runs the table
      else if (!document.hidden) listDevices();
    }, 15_000);
    const asked = ++listsAsked;
    try {
      gmDevices = (await ctx.table.call("handoff/gm", { method: "GET" })).devices;
      // A link shown for a device that no longer holds one (revoked here or on another
      // console) is not shown any more: the list is the server's answer. A list asked for
      // before the link was shown does not know of it yet, and takes nothing away.
      if (gmShown && asked > gmShown.after
          && !gmDevices.some((device) => device.id === gmShown.device)) {
        gmShown = null;
        gmAsked = false;
      }
      draw();
    } catch (error) {
      report(String(error.message));
    }
  }

  async function revokeDevice(device) {
    try {
      await ctx.table.call(`handoff/gm/${encodeURIComponent(device.id)}`, { method: "DELETE" });
      // Said until the table moves on from the step it was said at, as an undo's note is.
      report(`${device.name} no longer runs the table.`,
        { tone: "ok", prompt: document.querySelector("[data-prompt]")?.textContent });
    } catch (error) {
      report(String(error.message));
    }
    await listDevices();
  }

  ctx.table = new Table(id, token, (v, seq) => {
    view = v;
    system ??= SYSTEMS[v.system];
    ctx.view = v;
    ctx.names = system.names(v);
    const timed = turnClock.see(v, (who) => ctx.names[who] ?? who, { seq });
    if (timed.hidden) timed.remove();
    else next.querySelector("[data-prompt]").after(timed);
    if (ctx.table.name && stored(id).name !== ctx.table.name) keepHere(id, { name: ctx.table.name });
    document.title = `${ctx.table.name ?? "Seize"}: console`;
    document.getElementById("title").textContent = ctx.table.name ?? "Seize";
    document.getElementById("meta").textContent = `${system.title} · ${system.stage(v)}`;
    draw();
    // Said once the view is on the page: what reads it (a test, a script) finds it drawn.
    if (next.isConnected) document.body.dataset.seq = String(seq);
  }, { onEvent: (seq, event) => { standing.add(seq, event); turnClock.heard(event); },
        onRevoked: (status) => lost(id, status),
        onLink: linkShown, guard: true });
  try {
    await ctx.table.start();
  } catch (error) {
    if (!(error instanceof Unshowable)) throw error;
    root.replaceChildren(repair(ctx.table, error.message));
    return;
  }
  for (const { seq, event } of await ctx.table.events(0)) standing.add(seq, event);
  adding.append(system.join(ctx));
  // The GM's own story: the timeline page reads the GM token this browser keeps.
  document.querySelector("header").append(h("a", { class: "story", "data-link": "timeline",
    href: `/tables/${encodeURIComponent(id)}/timeline`, target: "_blank", rel: "noopener" },
  "The fight's story"));
  root.replaceChildren(next, roster, adding, links, elsewhere, devices(ctx), reach(ctx));
  draw();
  document.body.dataset.seq = String(ctx.table.shown);
  document.addEventListener("keydown", (pressed) => {
    if (pressed.key !== " " && pressed.key !== "Enter") return;
    if (pressed.target.closest("input, select, textarea, button, a, summary")) return;
    const primary = next.querySelector("[data-primary]:not([disabled])");
    if (!primary) return;
    pressed.preventDefault();
    // A step drawn a moment ago (steady.js) was not seen when this key went down: the second
    // of a double press, as a double tap's second tap is, goes nowhere.
    if (primary.getAttribute("aria-disabled") === "true") return;
    primary.click();
  });
}

/** The stream's story, from the overlay link handed out: its timeline page, and the overlay
 * replaying the last round (a browser source of its own, or the overlay's URL for a moment). */
function streamLinks(url) {
  const handed = new URL(url, location.href);
  const table = handed.pathname.split("/").filter(Boolean).pop();
  const token = encodeURIComponent(handed.searchParams.get("token"));
  const story = `/tables/${table}/timeline?token=${token}`;
  const replay = (speed) => h("a", { href: `${handed.pathname}${handed.search}&replay=last`
    + `&speed=${speed}`, target: "_blank", rel: "noopener", "data-link": `replay-${speed}` },
  `${speed}×`);
  return h("p", { class: "story-links" },
    h("a", { href: story, target: "_blank", rel: "noopener", "data-link": "stream-timeline" },
      "The stream's timeline and replay"),
    " · Replay the last round on stream: ", replay(1), " ", replay(2), " ", replay(4));
}

/** The ways back in, for a console whose GM link no longer opens the table. */
const WAYS_BACK = "On a screen that still runs the table, choose \"Open this console on "
  + "another device\"; or ask the host for a new link: seize gm-link ";
const HOST_FLAGS = " (with the --port and --db that seize serve was given, if any).";

/** This device's GM link no longer opens the table: it stops, saying why (the server's
 * refusal: 404, the table is not in its database) and what to do. */
function lost(id, status) {
  gone = true;
  if (status === 404) {  // the link is good: the server holds another database
    root.replaceChildren(section("The server does not hold this table now", h("p", {},
      "This table is not in the database the server now runs on: it was started with another "
      + "--db, or afresh (a demo's tables are new at every start). This console opens the "
      + "table again once the server runs on its database.")));
    return;
  }
  root.replaceChildren(section("This link no longer runs the table", h("p", {},
    "This device's GM link was revoked from a GM's console, or the server started afresh "
    + "without it (a demo's links are new at every start). " + WAYS_BACK + id + HOST_FLAGS)));
}

/** When a GM device last followed the table, in words. */
function lastSeen(device) {
  if (device.connected) return "following now";
  if (device.seen === null) return "not opened yet";
  const minutes = Math.round((Date.now() / 1000 - device.seen) / 60);
  if (minutes < 1) return "seen just now";
  if (minutes < 60) return `seen ${minutes} min ago`;
  return `seen ${new Date(device.seen * 1000).toLocaleString()}`;
}
let gone = false;

/** A table whose log this version cannot show: what happened, and the way out. */
function repair(table, message) {
  return section("This table cannot be shown", h("p", {}, `${message[0].toUpperCase()}`
    + `${message.slice(1)}.`),
    h("button", { class: "primary", "data-primary": "", "data-action": "undo",
      onclick: async () => {
        const { ok, body } = await table.send({ type: "undo" });
        if (ok) location.reload();
        else report(body.message);
      } }, "Undo the last event"),
    h("p", { id: "notice", role: "status" }));
}

/** A tray's refused lines, counted by reason: "2 bad checksum, 1 not a roll". */
function refusals(counts) {
  const found = Object.entries(counts ?? {});
  return found.length ? ` · refused ${found.map(([reason, n]) => `${n} ${reason.replaceAll("_", " ")}`)
    .join(", ")}` : "";
}

/** Card readers, dice trays and the players' own dice, as they report; the dice with their
 * owners from the table's die registry, which the GM changes here. */
function devices(ctx) {
  const { table } = ctx;
  const list = h("div", { "data-devices": "" });
  const show = async ({ choosing = false } = {}) => {
    const answer = await fetch(`${table.base}/devices`, { headers: table.headers() })
      .catch(() => null);  // the server is away: the panel shows what it last knew
    if (!answer) return;
    if (answer.status === 401) {
      lost(table.id);
      return;
    }
    // A poll never takes away the menu a GM is choosing from; their own change redraws at once.
    if (!choosing && list.contains(document.activeElement)
        && document.activeElement.tagName === "SELECT") return;
    const body = answer.ok ? await answer.json() : null;
    const found = body ? Object.entries(body.devices) : [];
    const kind = (d) => d.kind ?? "";
    // The die stations and the registry are listed with the players' dice; a tray with the rest.
    const others = found.filter(([, d]) => !["dice station", "dice registry"].includes(kind(d)));
    const stations = found.filter(([, d]) => kind(d) === "dice station").map(([, d]) => d);
    const book = found.find(([, d]) => kind(d) === "dice registry")?.[1];
    const shown = others.map(([name, d]) => h("p", { "data-device": name },
      h("strong", {}, name), d.connected ? " is connected" : " is not connected",
      d.last_read ? ` · last read ${cardsInWords(d.last_read)}` : "",
      refusals(d.refused),
      d.asking ? h("span", { class: "awaiting" }, ` · ${d.asking}`) : ""));
    const dice = book || stations.length ? diceShown(ctx, book, stations, show) : [];
    if (body) heardRollers(ctx, body.rollers);
    list.replaceChildren(...(shown.length || dice.length ? [...shown, ...dice]
      : [h("p", { class: "muted" }, "No card reader, dice tray or die has reported. Type what "
          + "the table's cards and dice show where the console asks for them.")]));
  };
  show();
  const polling = setInterval(() => (gone ? clearInterval(polling) : show()), 5000);
  return h("details", { class: "devices" },
    h("summary", {}, "Card readers and dice trays, and players' dice"), list);
}

/** Who may own a die: the table's characters, and the GM. */
function owners(ctx) {
  return [...Object.entries(ctx.names), ["gm", "the GM"]];
}

/** How a die is, as its station or the player's phone tells: "connected · battery 71%". */
function held(die) {
  return `${die.connected ? "connected" : "not connected"}${die.battery === null ? ""
    : ` · battery ${die.battery}%${die.charging ? ", charging" : ""}`}${die.drops
    ? ` · dropped ${die.drops} time${die.drops === 1 ? "" : "s"}` : ""}`;
}

/** The dice the registry or a die station knows: each with its owner (which the GM changes),
 * battery, connection and drops, as its station or the phone holding it reports them; the
 * claims open, and a way to open one; the stations' notices ("Jena rolled 2, unasked"). */
function diceShown(ctx, book, stations, show) {
  const registered = book?.dice ?? {};
  const claims = book?.claims ?? [];
  const met = new Map(stations.flatMap((s) => s.dice.map((die) => [die.id, die])));
  const ids = [...new Set([...Object.keys(registered), ...met.keys()])];
  const whose = (owner) => (owner === "gm" ? "the GM" : ctx.names[owner] ?? owner);
  const change = async (body) => {
    const answer = await fetch(`${ctx.table.base}/dice`, { method: "PUT",
      headers: { ...ctx.table.headers(), "Content-Type": "application/json" },
      body: JSON.stringify(body) });
    if (!answer.ok) report((await answer.json()).message);
    await show({ choosing: true });
  };
  const rows = ids.map((id) => {
    const die = met.get(id);
    const name = die?.name ?? registered[id]?.name ?? id;
    const owner = h("select", { "aria-label": `Whose die is ${name}`, "data-owner": id,
      onchange: () => change({ dice: { [id]: owner.value
        ? { owner: owner.value, name: name.slice(0, 40) } : null } }) },
      h("option", { value: "" }, "no one's"),
      owners(ctx).map(([value, label]) => h("option", { value,
        selected: registered[id]?.owner === value }, label)));
    const phone = registered[id]?.phone;
    const state = die ? held(die)
      : phone ? `on ${whose(registered[id].owner)}'s phone · ${held(phone)}`
        : "not seen by a die station";
    return h("p", { "data-die": id }, h("strong", {}, name),
      die?.sides ? ` (${named(die.sides)})` : "", ` · ${state} · `, owner);
  });
  const claimant = h("select", { "aria-label": "Whose die to claim", name: "claimant" },
    owners(ctx).map(([value, label]) => h("option", { value }, label)));
  const claiming = h("p", { "data-claims": "" }, claims.length
    ? `Waiting for the die of ${claims.map(whose).join(", then ")}: the next roll of a die `
      + "no one owns is theirs. " : "",
    claimant, h("button", { "data-action": "claim-die",
      onclick: () => change({ claims: [...claims, claimant.value] }) },
    "Roll the die you will use"),
    claims.length ? h("button", { "data-action": "cancel-claims",
      onclick: () => change({ claims: [] }) }, "Stop waiting") : "");
  const said = stations.flatMap((s) => [s.full, ...(s.notices ?? [])]).filter(Boolean);
  return [h("h3", {}, "Dice"), ...rows, claiming,
    said.length ? h("ul", { "data-dice-notices": "" }, said.map((text) => h("li", {}, text)))
      : ""];
}

// A GM link opened where this console already is changes only the fragment, which loads
// nothing: the page starts again with the token it brings.
window.addEventListener("hashchange", () => {
  if (new URLSearchParams(location.hash.slice(1)).has("token")) location.reload();
});

const id = location.pathname.split("/").filter(Boolean).length > 1 ? tableId() : null;
if (id) {
  consolePage(id).catch(() => root.replaceChildren(section("This link does not open the table",
    h("p", {}, `Its GM link may have been revoked, or the server cannot be reached. `
      + WAYS_BACK + id + HOST_FLAGS))));
}
else startPage();
