// "Connect my Pixels die" on the player page: the player's own Pixels dice, through Web
// Bluetooth, roll the player's own pending roll (an RCS 2D6, an awareness initiative or
// pre-emption d10) with the dice's ids, as the die station does for dice at the table. A roll
// nobody asked of this player is said on the page and never entered. The dice blink when the
// turn reaches the player, unless the table has turned that off (its registry's ``blink``).
//
// A VTT's roll (Foundry's "Seize table dice": an attack, a save) asked of one of the player's
// characters is a dice request in the registry, which the player's token reads (its own alone):
// while a die is connected the page looks at it every two seconds (requests are kept beside the
// devices' reports, not as the table's events, so its socket never carries them; the die station
// looks the same way), blinks the dice for each new one, and the next roll of as many dice of
// those faces answers the oldest, before any initiative roll, with the player's token.
//
// Each die is registered in the table's die registry to the player's character, and the page
// reports how it is (connected, battery) whenever that changes, so the GM's console lists it
// with the station's dice; the player's token may do that for its own characters only.
//
// Web Bluetooth is Chromium's (Android, desktop) and only on a secure page (HTTPS, localhost):
// elsewhere the page says plainly why no die can connect. The library, Systemic Games'
// pixels-web-connect, is served by Seize itself (server/static/vendor/lock.json) and loaded
// only where it can be used.

import { h } from "/static/shared/client.js";
import { FATE, fudge, named, shown } from "/static/shared/fate.js";
import { PERCENT, filled, fits } from "/static/play/percentile.js";

const LIBRARY = "/static/vendor/pixels-web-connect/index.js";

/** Why this browser cannot connect a die, or null when it can. */
export function unsupported() {
  if (!window.isSecureContext) {
    return "Connecting a die needs this page over HTTPS (or on localhost): ask the host for an "
      + "HTTPS link, or roll and type what the die shows in the box this page opens when the "
      + "table asks for your roll.";
  }
  if (!navigator.bluetooth) {
    return "This browser has no Web Bluetooth, so it cannot connect a die: use Chrome on "
      + "Android or on a computer, or roll and type what the die shows in the box this page "
      + "opens when the table asks for your roll.";
  }
  return null;
}

let loading = null;

/** The library's module (its UMD bundle sets ``window.pixelsWebConnect``), loaded once. */
function library() {
  loading ??= new Promise((loaded, failed) => {
    document.head.append(h("script", { src: LIBRARY,
      onload: () => loaded(window.pixelsWebConnect), onerror: failed }));
  });
  return loading;
}

/** The roll the table waits for from one of the player's own characters: as ``asked`` in
 * adapters/link.py chooses for the die station, the oldest pre-emption first. */
export function pending(view, own) {
  const who = (what) => view.awaiting.filter((wait) => wait.what === what)
    .flatMap((wait) => wait.who).filter((id) => own.has(id));
  const sides = view.options?.die_sides;
  if (view.system === "awareness") {
    for (const [what, type] of [["preemption", "enter_preemption"],
                                ["initiative", "enter_initiative"]]) {
      const [character] = who(what);
      if (character) return { type, character, sides, count: 1 };
    }
  }
  if (view.system === "megatraveller-rcs") {
    const [character] = who("roll");
    if (character) {
      return { type: "enter_roll", character, sides, count: view.options.initiative_dice };
    }
  }
  return null;
}

/** The oldest dice request of the player's own characters (``own``) in the registry ``book``
 * that ``die`` answers (a die of its faces; for a d100, a tens die or a d10: percentile.js),
 * any request without ``die``, as the die station chooses it: what the next roll answers. */
export function requested(book, own, die) {
  const [request, asked] = Object.entries(book?.requests ?? {}).find(([, one]) =>
    own.has(one.owner) && (die === undefined || fits(die, one.sides))) ?? [];
  return request ? { request, character: asked.owner, sides: asked.sides, count: asked.count }
    : null;
}

/** The character whose turn it is, as the die station follows it: the Taking Turn Token's
 * holder (RCS), the one awaited to declare (awareness). */
export function acting(view) {
  if (view.system === "megatraveller-rcs") return view.token ?? null;
  return view.awaiting.find((wait) => wait.what === "declare")?.who[0] ?? null;
}

/** What a pending roll or a request is for, to tell one from another. */
const asking = (ask) => (ask ? ask.request ?? `${ask.type} ${ask.character}` : "");

/** As many dice as asked: "a d20", "2d20", "4dF". */
const some = (count, sides) => (count === 1 ? `a ${named(sides)}` : `${count}${named(sides)}`);

/** Seconds between looks at the registry for dice requests while a die is connected. */
const REQUESTS_EVERY = 2;

/** The die's size at the table and the number up, from the library's type and face: a d10's
 * "0" is 10, a d00 reads tens (its "00" is 100), a Fudge die is a Fate die (fate.js), a pipped
 * d6 a d6. */
function reading(pixel, face) {
  if (pixel.dieType === "d00") return { sides: PERCENT, number: face || PERCENT };
  if (pixel.dieType === "d6fudge") return { sides: FATE, number: fudge(face) };
  const sides = pixel.dieFaceCount;
  return { sides, number: sides === 10 && face === 0 ? 10 : face };
}

/** The die's id in the table's registry and events, as the die station names it. */
const dieId = (pixel) => `pixels-${pixel.pixelId.toString(16).padStart(8, "0")}`;

/** The "Your dice" section: ``ctx`` is the page's (its table client and latest view). */
export function dice(ctx) {
  const why = unsupported();
  const said = h("p", { "data-dice-said": "", role: "status" });
  const list = h("ul", { class: "dice", "data-dice": "" });
  const section = h("section", { id: "dice", "aria-label": "Your dice" },
    h("h2", {}, "Your dice"), list, said);
  if (why) {
    said.textContent = why;
    return section;
  }
  const lines = new Map();  // each die connected here → its line in the list
  // The registry as this player's token reads it: their own dice, and the table's options.
  let book = null;
  const registry = async (change) => {
    const answer = await fetch(`${ctx.table.base}/dice`, change ? { method: "PUT",
      keepalive: true,  // a die's last report goes out as the page closes
      headers: { ...ctx.table.headers(), "Content-Type": "application/json" },
      body: JSON.stringify(change) } : { headers: ctx.table.headers() }).catch(() => null);
    const body = answer && await answer.json().catch(() => ({}));
    if (answer?.ok) book = body;
    return { ok: !!answer?.ok, message: body?.message ?? "the server cannot be reached" };
  };
  /** Tell the table how ``pixel`` is, registered to the character the registry has it for,
   * else to the player's first: ``connected`` false as the page closes. */
  const told = async (pixel, connected = pixel.status === "ready") => {
    const owner = book?.dice?.[dieId(pixel)]?.owner ?? ctx.table.you?.participants?.[0];
    if (!owner) return;  // a page bound to no character
    const { ok, message } = await registry({ dice: { [dieId(pixel)]: {
      owner, name: (pixel.name || dieId(pixel)).slice(0, 40), phone: { connected,
        battery: connected ? pixel.batteryLevel : null, charging: !!pixel.isCharging } } } });
    if (!ok) said.textContent = `The GM's console does not show ${pixel.name}: ${message}`;
  };
  let telling = Promise.resolve();  // one report at a time, so the last kept is the latest
  const tell = (pixel) => {
    telling = telling.then(() => (book ? null : registry())).then(() => told(pixel));
  };
  window.addEventListener("pagehide", () => {
    for (const pixel of lines.keys()) if (pixel.status === "ready") told(pixel, false);
  });
  const own = () => new Set(ctx.table.you?.participants ?? []);
  const held = [];  // the dice of this roll so far (percentile.js's Rolled)
  let holding = null;  // what they are for: a pending roll, or a request
  /** A roll short of dice is dropped once the table no longer asks for it: the GM typed it,
   * or the request was answered or timed out. */
  const lapsed = () => {
    const asked = holding?.request ? holding.request in (book?.requests ?? {})
      : asking(pending(ctx.view, own())) === asking(holding);
    if (asked) return;
    held.length = 0;
    holding = null;
  };
  const rolled = async (pixel, face) => {
    if (!held.length) await registry();  // a request made since the last look
    // A d00 reads tens (its "00" is 100), and so does a d10 the table registered as its tens
    // die: either makes a d100 with a d10 (percentile.js).
    const d00 = pixel.dieType === "d00";
    const tens = d00 || (pixel.dieFaceCount === 10 && book?.dice?.[dieId(pixel)]?.tens === true);
    const die = { id: dieId(pixel), tens, ...reading(pixel, face) };
    const up = shown(die.number, die.sides);
    // A request this die answers comes first, then the table's own roll; else a request of
    // other faces, to say which die it wants.
    const ask = requested(book, own(), die) ?? pending(ctx.view, own())
      ?? requested(book, own());
    if (!ask) {
      said.textContent = `${pixel.name} rolled ${up}: no roll is asked of you, so it was not `
        + "entered.";
      return;
    }
    if (!fits(die, ask.sides)) {
      said.textContent = `${pixel.name} is a ${d00 ? "d00" : named(die.sides)}: `
        + `${some(1, ask.sides)} is asked.`;
      return;
    }
    if (asking(ask) !== asking(holding)) held.length = 0;  // a roll short of dice for another
    holding = ask;
    held.push(die);
    const made = filled(held, ask.sides, ask.count);
    if (!made) {
      said.textContent = ask.sides === PERCENT ? `${up}: now the other die of the d100.`
        : `${up}: roll again for the other ${ask.count - held.length}.`;
      return;
    }
    const { faces, ids: dice } = made;
    held.length = 0;
    holding = null;
    if (ask.request) {
      const { ok, message } = await registry({ answers: { [ask.request]: { faces, dice } } });
      const rolledUp = faces.map((one) => shown(one, ask.sides)).join(" and ");
      said.textContent = ok ? `Your ${named(ask.sides)} rolled ${rolledUp}, for the roll asked of `
        + "you." : `Not handed over: ${message}`;
      return;
    }
    const rolledWith = ask.type === "enter_roll" ? { dice: faces } : { die: faces[0] };
    const { ok, body } = await ctx.table.send({ type: ask.type, character: ask.character,
      ...rolledWith, source: "device", dice_ids: [...new Set(dice)] });
    said.textContent = ok ? `Entered: ${faces.join(" and ")}.` : `Not entered: ${body.message}`;
  };
  /** Every die connected here blinks, if the table allows (``blink``, as last read). */
  const flash = (colour, options) => {
    if (book?.blink === false) return;
    for (const pixel of lines.keys()) {
      if (pixel.status !== "ready") continue;
      pixel.blink(window.pixelsWebConnect.Color[colour], options)
        .catch(() => {});  // a die that does not answer has only missed a blink
    }
  };
  // The dice requests, looked for while a die is connected: each new one is said, and the dice
  // blink twice in cyan, told apart from the turn's three blue flashes and on deck's one orange.
  const called = new Set();  // the requests already said
  const look = async () => {
    await registry();
    lapsed();
    const open = Object.entries(book?.requests ?? {}).filter(([, one]) => own().has(one.owner));
    for (const rid of called) if (!open.some(([id]) => id === rid)) called.delete(rid);
    const fresh = open.filter(([rid]) => !called.has(rid));
    for (const [rid, one] of fresh) {
      called.add(rid);
      said.textContent = `A roll is asked of ${ctx.names?.[one.owner] ?? "you"}: `
        + `${some(one.count, one.sides)}. Roll ${one.count === 1 ? "it" : "them"}.`;
    }
    if (fresh.length) flash("brightCyan", { count: 2, duration: 1500 });
  };
  let looking = null;
  const watch = () => {
    const connected = [...lines.keys()].some((pixel) => pixel.status === "ready");
    if (connected && !looking) {
      looking = setInterval(look, REQUESTS_EVERY * 1000);
      look();
    } else if (!connected && looking) {
      clearInterval(looking);
      looking = null;
    }
  };
  const connect = async () => {
    said.textContent = "";
    try {
      const { requestPixel, repeatConnect } = await library();
      const pixel = await requestPixel();  // the same die chosen again is the same Pixel
      let line = lines.get(pixel);
      const drawn = () => line.replaceChildren(`${pixel.name} · ${pixel.status}`
        + (pixel.status === "ready" ? ` · battery ${pixel.batteryLevel}%` : ""));
      if (!line) {
        line = h("li", { "data-die": "" }, pixel.name);
        lines.set(pixel, line);
        // A die that drops once ready is reached for again (the library retries with growing
        // pauses); one still away after that is for the player to connect again.
        let wasReady = false;
        pixel.addPropertyListener("status", () => {
          drawn();
          watch();
          if (pixel.status === "ready" || pixel.status === "disconnected") tell(pixel);
          if (pixel.status === "ready") wasReady = true;
          if (pixel.status !== "disconnected" || !wasReady) return;
          wasReady = false;
          repeatConnect(pixel).catch((error) => {
            said.textContent = `${pixel.name} is away (${error?.message ?? error}): connect it `
              + "again.";
          });
        });
        for (const property of ["batteryLevel", "isCharging"]) {
          pixel.addPropertyListener(property, () => {
            if (pixel.status !== "ready") return;
            drawn();
            tell(pixel);
          });
        }
        pixel.addEventListener("roll", (face) => rolled(pixel, face));
        list.append(line);
      }
      await repeatConnect(pixel);
      line.dataset.die = dieId(pixel);
      drawn();
    } catch (error) {
      said.textContent = `No die connected: ${error?.message ?? error}`;
    }
  };
  // The die says "your turn": when the turn reaches one of the player's characters, every die
  // connected here blinks, as the station blinks the registered dice of the table, if the
  // table allows (read then, so the GM's latest choice counts). "On deck" (the view's alert,
  // cut to what the player may see) is one slow orange blink, told apart from the turn's three
  // blue. ``data-turn-told`` and ``data-deck-told`` name the character the page has answered.
  const blinking = async (character, told, colour, options) => {
    if ([...lines.keys()].some((pixel) => pixel.status === "ready")) await registry();
    flash(colour, options);
    section.dataset[told] = character;
  };
  const yourTurn = (character) => blinking(character, "turnTold", "brightBlue",
    { count: 3, duration: 1500 });
  const onDeck = (character) => blinking(character, "deckTold", "brightOrange",
    { count: 1, duration: 1200 });
  let turn = null;
  let deck = null;
  ctx.onView = (view) => {
    lapsed();
    const next = (view.alerts ?? []).find((alert) => alert.kind === "on_deck")?.character ?? null;
    if (next !== deck) {
      deck = next;
      if (next) onDeck(next);
    }
    const now = acting(view);
    if (now === turn) return;
    turn = now;
    if (ctx.table.you?.participants?.includes(now)) yourTurn(now);
  };
  section.insertBefore(h("button", { "data-action": "connect-die", onclick: connect },
    "Connect my Pixels die"), list);
  return section;
}
