// What the console and the player page share: cards in words, buttons that send a command,
// small inputs, and a refusal told in the table's words where the user is looking.

import { h } from "/static/shared/client.js";
import { drawnAgain } from "/static/shared/steady.js";

const SUITS = { H: "♥", D: "♦", C: "♣", S: "♠" };

/** A card as words: "K♣", "10♥", "red joker". */
export function cardText(code) {
  if (!code) return "a face-down card";
  if (code === "RJ") return "red joker";
  if (code === "BJ") return "black joker";
  const suit = code.slice(-1);
  return code.slice(0, -1) + (SUITS[suit] ?? suit);
}

/** Text with every card code in it written as a card: "6S" → "6♠". */
export const cardsInWords = (text) => String(text).replace(/\b(?:10|[2-9TJQKA])[HDCS]\b/g, cardText);

/** A card as a chip. */
export function card(code) {
  const red = code && (code.endsWith("H") || code.endsWith("D") || code === "RJ");
  return h("span", { class: `card${red ? " red" : ""}`, "data-card": code ?? "" }, cardText(code));
}

/** Where refusals and confirmations are shown: next to the one obvious action. ``prompt``: the
 * step the message points to, which it stops being true after (``settled``). */
export function report(message, { tone = "bad", prompt } = {}) {
  const notice = document.getElementById("notice");
  if (!notice) return;
  notice.textContent = message ?? "";
  notice.dataset.tone = tone;
  notice.dataset.prompt = prompt ?? "";
}

const UNREACHED = "Not sent: the server cannot be reached just now.";

/** The last of this page's presses that went in, and those still awaiting an answer: a press
 * refused because the table moved on is told as such, unless the same press of this page's
 * went in before it or was on its way when it was made. */
let ownLast = "";
const onTheirWay = new Map();
/** The steps this page's presses made, by their sequence: what each was (its event's type). */
const ownSteps = new Map();

/** A step of the player's own, in their words, by its event's type. */
const OWN_STEPS = {
  seized: "your seize", declared: "your declaration", roll_entered: "your roll",
  initiative_entered: "your roll", tactics_spent: "your tactics point",
  turn_ended: "the end of your turn", reacted: "your reaction", preemption_awaited: "your reaction",
  trade_offered: "your trade offer", traded: "the trade", trade_declined: "your refusal",
};

/** An undo the GM made of a step this page's press made (``onEvent``): said, as the page
 * otherwise goes back to offering it again with not a word. It stays until the next press. */
export function takenBack(event) {
  if (event?.type !== "undone" || !ownSteps.has(event.undoes)) return;
  report(`The GM took back ${OWN_STEPS[ownSteps.get(event.undoes)] ?? "your last step"}: the `
    + "table stands as it did before it.", { tone: "told" });
}

/** Say, at the top of the page, while the table's live link is down (``Table``'s ``onLink``):
 * what is shown may be behind and a press will not go through. Once it is back, the banner
 * goes, and so does a "not sent" notice the outage caused. */
export function linkShown(live) {
  const banner = document.getElementById("link-lost");
  if (live) {
    banner?.remove();
    if (document.getElementById("notice")?.textContent.startsWith(UNREACHED)) report("");
    return;
  }
  if (banner) return;
  document.body.prepend(h("p", { id: "link-lost", class: "link-lost", role: "alert" },
    "Reconnecting to the table… What you see may be out of date until it is back."));
}

/** Clear a notice that points to a step the table has left: it would send the GM back to it. */
export function settled(prompt) {
  const notice = document.getElementById("notice");
  if (notice?.dataset.prompt && notice.dataset.prompt !== prompt) report("");
}

/**
 * Send ``command``. A refusal is shown with the participants' names in place of their ids, and
 * without the rule's code: the table reads it, not the engine.
 */
export async function run(table, command, names = {}) {
  // What was shown before the press: a success clears that, never a notice the redraw of this
  // very press put up meanwhile (on the WebSocket the view comes before the answer).
  const shownBefore = document.getElementById("notice")?.textContent;
  const pressed = JSON.stringify(command);
  const twin = (onTheirWay.get(pressed) ?? 0) > 0; // the same press, made just before
  onTheirWay.set(pressed, (onTheirWay.get(pressed) ?? 0) + 1);
  let answer;
  try {
    answer = await table.send(command);
  } catch {
    // No answer at all: the server or the network is down. Nothing is known to have been
    // applied, and the page says so rather than looking as if it went in.
    report(`${UNREACHED} Check the connection, then press again.`,
      { prompt: document.querySelector("[data-prompt]")?.textContent });
    return false;
  } finally {
    const left = onTheirWay.get(pressed) - 1;
    if (left) onTheirWay.set(pressed, left);
    else onTheirWay.delete(pressed);
  }
  const { ok, status, body } = answer;
  if (status === 401) {
    report("Not done: this page's link no longer opens the table (a newer link replaced it, "
      + "or it was revoked). Nothing changed.");
    return false;
  }
  if (ok) {
    ownLast = pressed;
    const events = body.events ?? [];
    events.forEach((event, n) => ownSteps.set(body.seq - events.length + 1 + n, event.type));
    if (document.getElementById("notice")?.textContent === shownBefore) report("");
    return true;
  }
  if (status === 409) {
    // Made against a view the table has left (Table's guard): nothing was applied. The page
    // shows the table as it is now, and points to what it waits for; unless what moved the
    // table on was this page's own press of the same thing, made just before (a double tap
    // whose second tap reached the old button): the first did what was meant, or says itself
    // why not, and there is nothing to say here.
    await table.refresh();
    if (twin || ownLast === pressed) return false;
    const now = document.querySelector("[data-prompt]")?.textContent;
    report("Not done: the table moved on before that reached it, so nothing changed."
      + (now ? ` Where it stands now: ${now}.` : ""), { prompt: now });
    return false;
  }
  // A field's validation names the command's field ("deal_card.card"): its message alone is
  // what the table needs.
  let message = body.errors?.[0]?.message ?? body.message ?? "that was refused";
  // The engine quotes the ids it names ('jena'); only those are put in words.
  for (const [id, name] of Object.entries(names)) message = message.replaceAll(`'${id}'`, name);
  message = cardsInWords(message);
  // The way forward is the step the page already offers; the refusal points back to it.
  const next = document.querySelector("[data-prompt]")?.textContent;
  message = message.replaceAll("_", " ");
  // A refusal that says what "never" happens states a rule that always holds ("heroes never
  // hold jokers"): it reads as that rule, and not as "Not now", which would promise a later.
  // What was typed and is no card (a field the API found invalid) is not "not now" either.
  const said = /\bnever\b/.test(message) ? message[0].toUpperCase() + message.slice(1)
    : body.error === "invalid" ? `Not understood: ${message}` : `Not now: ${message}`;
  report(`${said}.`.replace(/\.\.$/, ".")
    + (next ? ` Where it stands: ${next}.` : ""), { prompt: next });
  return false;
}

/** A button that sends a command built when it is pressed. */
export function button(table, label, command, { primary = false, name, names, disabled } = {}) {
  return h("button", {
    type: "button", class: primary ? "primary" : undefined, "data-action": name, disabled,
    "data-primary": primary,
    onclick: (pressed) => {
      taken(pressed.currentTarget.parentElement?.querySelectorAll("[data-keep]") ?? []);
      return run(table, typeof command === "function" ? command() : command, names);
    },
  }, label);
}

/** A labelled input; ``keep`` names it so what was typed survives a redraw. */
export function input(label, { keep, type = "text", value = "", ...rest } = {}) {
  return h("input", { type, value, "data-keep": keep, "aria-label": label, ...rest });
}

/** A labelled select of [value, text] choices. */
export function select(label, choices, { keep, value, name } = {}) {
  // The default is marked selected, so that resetting the form comes back to it.
  return h("select", { "data-keep": keep, "aria-label": label, name },
    choices.map(([v, text]) => h("option", { value: v, selected: v === value }, text)));
}

/** A form whose submit (Enter, or its button) runs ``send``; its button is ``label``. */
export function inline(label, fields, send, { primary = false, name } = {}) {
  const form = h("form", { class: "inline", "data-form": name }, fields,
    h("button", { type: "submit", class: primary ? "primary" : undefined,
                  "data-action": name, "data-primary": primary }, label));
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    taken(form.querySelectorAll("[data-keep]"));
    send();
  });
  return form;
}

/** The GM's press that resolves ``from``'s action, with a box for what came of it (optional:
 * the story and the players' pages tell it; empty, the press resolves it as before). */
export function resolving(table, label, from, names) {
  const outcome = input("What happened", { keep: `outcome-${from}`, name: "outcome",
                                           placeholder: "what happened (optional)" });
  return inline(label, [outcome], () => run(table, { type: "resolve", from,
    ...(outcome.value.trim() ? { outcome: outcome.value.trim() } : {}) }, names),
  { primary: true, name: "resolve" });
}

/** A section with a heading. */
export function section(title, ...children) {
  return h("section", { "data-section": title }, h("h2", {}, title), ...children);
}

/** An id for a new participant from their name, unlike any id in ``taken``. */
export function newId(name, taken) {
  const base = name.toLowerCase().normalize("NFKD").replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "").slice(0, 40) || "someone";
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

/** "Jena", "Jena and Bea", "Jena, Bea and Kid". */
export function listed(names) {
  return names.length < 2 ? names.join("")
    : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** "Jena's", "Boss's". */
/** "Jena's", "Boss's"; a name ending in a single s, most often a team or a mob, takes the
 * apostrophe alone: "Sentinels'", "Doombots'". */
export const possessive = (name) => (/[^s]s$/i.test(name) ? `${name}'` : `${name}'s`);

/** Where a declared action is aimed, as words after it: " at Okoro", or nothing at no one
 * (MegaTraveller RCS's NO_TARGET, rules/megatraveller_rcs/commands.py). */
export const NO_ONE = "—";
export function aimed(declared) {
  const { target, what } = declared;
  if (!target || target === NO_ONE) return "";
  // Words that already name the target ("shoots Vance", "fires at the Boss!") are not followed
  // by " at Vance" again.
  const named = target.split(/\s+/).filter((word) => word.length > 2).some((word) =>
    new RegExp(`(^|\\W)${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\W|$)`, "i")
      .test(what ?? ""));
  return named ? "" : ` at ${target}`;
}

/** A field with its visible label above it. */
export const labelled = (text, field) => h("label", { class: "field" }, h("span", {}, text), field);

/**
 * The compact form that adds a participant: a name, then the system's ``fields`` with their
 * defaults. ``build(name, id)`` makes the join command; the id comes from the name.
 */
export function joining(ctx, fields, build, { stays = [] } = {}) {
  const name = input("Name", { placeholder: "Name", required: true, name: "name",
                               autocomplete: "off" });
  // An ambusher joins hidden from players and the stream (the shared rulings).
  const hidden = h("input", { type: "checkbox", name: "hidden" });
  const hide = h("label", { class: "field check" }, hidden, h("span", {}, "Hidden"));
  // Once someone is added the form comes back to its defaults, as the next one expects, but
  // for the fields that ``stays`` names (a side: the second pirate is a pirate too).
  const form = inline("Add", [labelled("Name", name), ...fields, hide], async () => {
    const id = newId(name.value, Object.keys(ctx.names));
    const join = build(name.value.trim(), id);
    if (await run(ctx.table, hidden.checked ? { ...join, hidden: true } : join, ctx.names)) {
      const kept = stays.map((field) => field.value);
      form.reset();
      stays.forEach((field, n) => { field.value = kept[n]; });
      name.focus();
    }
  }, { name: "join" });
  return form;
}

/** Where a dice system's fight stands, for the console's header: between rounds it says the
 * last is over, as the panel below says the next begins. */
export const roundStage = (v) => (v.phase === "setup" ? "before the first round"
  : v.phase === "round_over" ? `round ${v.round} is over` : `round ${v.round}`);

/** Where a character's roll is awaited from, said after "Waiting for Jena's 2D6": a tray or
 * their own dice send it, as the server last said (``ctx.rollers``, ``heardRollers``); with
 * neither (or before it has said), the GM types it. */
export function rolledBy(ctx, id) {
  if (ctx.rollers?.dice.has(id)) return " from their own dice (or type it)";
  if (ctx.rollers?.tray) return " from the tray (or type it)";
  return ": type it as rolled";
}

/** Who can send a roll without anyone typing it, as the server last said (``rollers`` in the
 * answer of ``/devices``, the GM's, or of ``/dice``, a player's own): kept on ``ctx`` for
 * ``rolledBy`` and the pre-emption buttons, and the page drawn again when it changes. */
export function heardRollers(ctx, { tray, dice }) {
  const said = (r) => (r ? `${r.tray} ${[...r.dice].sort()}` : "");
  const rollers = { tray, dice: new Set(dice) };
  if (said(rollers) === said(ctx.rollers)) return;
  ctx.rollers = rollers;
  ctx.redraw();
}

/** ``text`` and the sentence after it, with no full stop after one ``text`` already ends in:
 * "shouts Freeze!" and "Bea may seize" make "shouts Freeze! Bea may seize". */
export function andThen(text, next) {
  if (!next) return text;
  return /[.!?…]["”’)]?$/.test(text) ? `${text} ${next}` : `${text}. ${next}`;
}

/** Both dice systems' first step of a round: the engine rolls, or the table does. */
export function rollInitiative(v, ctx, roundOver) {
  const round = v.phase === "setup" ? 1 : v.round + 1;
  const ready = Object.keys(ctx.names).length > (v.out?.length ?? 0);
  // The way the last round was rolled comes first (Space and Enter take it): a table that
  // rolls its own dice is not rolled for by the engine at a tap meant for the next round.
  const table = Boolean(ctx.atTheTable);
  const engine = button(ctx.table, `The engine rolls round ${round}`,
    { type: "roll_initiative" },
    { primary: !table, name: "roll", disabled: !ready, names: ctx.names });
  const rolled = button(ctx.table, `Roll round ${round} at the table`,
    { type: "roll_initiative", source: "gm" },
    { primary: table, name: "await-rolls", disabled: !ready, names: ctx.names });
  return {
    prompt: !ready ? "Add the characters, then roll initiative"
      : v.phase === "setup" ? "Add anyone else, or roll initiative"
      : `${roundOver}: roll initiative for round ${round}`,
    controls: table ? [rolled, engine] : [engine, rolled],
  };
}

/** What was typed or focused in named fields survives the redraw a new view brings, the caret
 * where it stood in the field typed in, and a fold (``data-fold``) left open stays open, so
 * that a field in it can still be seen and typed in; a button new on screen takes no tap for a
 * moment (steady.js). A field the new view has no place for (a card typed for a hero the reader
 * has just dealt to) takes what was typed in it away: that is said, so the GM does not believe
 * it went in. Only what a person typed or chose counts, and not what a command already took: a
 * field the page filled in itself (a default, the value as it stands) is nobody's lost words. */
export function keeping(container, draw) {
  const fields = [...container.querySelectorAll("[data-keep]")];
  const before = new Map(fields.map((field) => [field.dataset.keep, {
    value: field.value, typed: field.dataset.typed, sent: field.dataset.sent,
    drawn: field.getAttribute("value") }]));
  const unsent = fields.filter((f) => f.dataset.typed && f.value.trim()
                                      && f.value !== f.dataset.sent);
  const focused = document.activeElement?.dataset?.keep;
  const caret = caretIn(document.activeElement);
  const unfolded = new Set([...container.querySelectorAll("details[data-fold][open]")]
    .map((fold) => fold.dataset.fold));
  const words = new Map(unsent.map((field) => [field.dataset.keep, shownAs(field)]));
  drawnAgain(container, draw);  // a button new on screen takes no tap at once
  // Unfolded before the focus comes back: a field in a closed fold cannot take it.
  for (const fold of container.querySelectorAll("details[data-fold]")) {
    if (unfolded.has(fold.dataset.fold)) fold.open = true;
  }
  const kept = new Set();
  for (const field of container.querySelectorAll("[data-keep]")) {
    kept.add(field.dataset.keep);
    const was = before.get(field.dataset.keep);
    // What the page itself put in the field (a tactics pool as it stands) changed, and nobody
    // is typing there: the field shows the table as it is now, not the number before.
    const moved = field.getAttribute("value") !== was?.drawn
      && !(was?.typed && was.value !== was.sent);
    if (was && !moved) {
      field.value = was.value;
      if (was.typed) field.dataset.typed = was.typed;
      if (was.sent !== undefined) field.dataset.sent = was.sent;
    }
    if (field.dataset.keep === focused) {
      field.focus();
      if (caret) field.setSelectionRange(...caret);
    }
  }
  const lost = unsent.filter((field) => !kept.has(field.dataset.keep));
  if (lost.length) {
    const typed = lost.map((field) => words.get(field.dataset.keep)).join(", ");
    report(`Not sent: ${typed}, still being typed when the table moved on. Type it again if `
      + "it is still wanted.",
      { prompt: document.querySelector("[data-prompt]")?.textContent });
  }
}

/** Where the caret stands in ``field`` (its selection, if any), or null in a field that tells
 * none: a number or a menu. A field drawn anew would put it at the end of what was typed. */
function caretIn(field) {
  if (field?.selectionStart === null || field?.selectionStart === undefined) return null;
  return [field.selectionStart, field.selectionEnd, field.selectionDirection];
}

/** A field's value as its person sees it: the words of the option chosen, under its label. */
function shownAs(field) {
  const value = field.tagName === "SELECT"
    ? field.selectedOptions[0]?.textContent ?? field.value : field.value.trim();
  const label = field.getAttribute("aria-label");
  return label ? `${label} “${value}”` : `“${value}”`;
}

/** The fields a command is built from, once it is sent: what was typed there went in. */
export function taken(fields) {
  for (const field of fields) field.dataset.sent = field.value;
}

// A field counts as typed once a person changes it (typing, choosing), never when the page
// fills it in.
document.addEventListener("input", (typed) => {
  if (typed.target instanceof HTMLElement && typed.target.dataset.keep !== undefined) {
    typed.target.dataset.typed = "1";
  }
});
