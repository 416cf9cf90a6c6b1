// A Roll20 game for the bridge's tests: Roll20's Mod (API) sandbox running Mod scripts (the
// stand-ins for GroupInitiative and TurnMarker1 beside this file, modelled from their source),
// and the GM's browser page with its Campaign model, where the bridge runs. Roll20 cannot run
// here; this models what the scripts and the bridge touch, from Roll20's documentation (Roll20
// Wiki and Help Center, "Mod:Sandbox Model", "Mod:Objects", "Mod:Events", "Mod:Chat",
// "Mod:Utility Functions"):
// - Scripts run in one shared global scope (Mod:Sandbox Model): here each script is a function
//   given that scope, an object of the sandbox's functions and `state`, on which a script may
//   set its own global for the others (GroupInitiative's, which TurnMarker1 looks for).
//   `on("ready")` fires once every script is loaded (Mod:Events).
// - Roll20 objects have `id`, `get` (a read-only property may be read without its leading
//   underscore: get("pageid") for _pageid), `set` (one property or an object of them) and
//   `remove`; `Campaign()` is the campaign object; `getObj(type, id)`, `findObjs(attrs)`,
//   `createObj(type, attrs)` (Mod:Objects, Mod:Utility Functions).
// - The turn order is the Campaign's `turnorder`, a JSON string of entries {id, pr, custom,
//   _pageid}, id "-1" for a custom entry (Mod:Objects, "Campaign").
// - `change:campaign:turnorder` handlers get the campaign object and its attributes before the
//   change; a change a script makes itself fires no script's handler, only other clients see it
//   (Mod:Events). So here a script's `set` reaches the GM's page, and the page's `save` reaches
//   the scripts' handlers, each on a later turn of the event loop, as over Roll20's network.
// - `sendChat(as, text, callback)` with a callback delivers the message to the callback instead
//   of the chat, its inline rolls `[[...]]` rolled: content "$[[0]]", and `inlinerolls` with
//   each roll's `expression` and `results` (`total`, `rolls` of type "R" with `sides` and
//   `results` [{v}]) (Mod:Chat). Dice come from a seeded generator, so a run can be replayed.
// - `chat:message` handlers get {type: "api", content, playerid, selected: [{_id, _type}]} for
//   a "!" command (Mod:Chat).

/** A seeded generator (mulberry32): the same seed, the same dice and the same orders. */
export function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const later = () => new Promise((resolve) => setImmediate(resolve));

/** One Roll20 object: an id, its attributes, get and set. */
class Obj {
  constructor(game, type, attrs) {
    this.game = game;
    this.attrs = { _type: type, ...attrs };
    this.id = this.attrs._id;
  }
  get(key) { return key in this.attrs ? this.attrs[key] : this.attrs[`_${key}`]; }
  set(key, value) {
    const changes = typeof key === "object" ? key : { [key]: value };
    Object.assign(this.attrs, changes);
    if (this.attrs._type === "campaign" && "turnorder" in changes) this.game.scriptChanged();
    return this;
  }
  remove() { this.game.objects = this.game.objects.filter((o) => o !== this); }
}

/**
 * A Roll20 game: its objects, the Mod sandbox with the given scripts loaded, and the GM's page
 * (``page``: get, save, on "change:turnorder", as Roll20's Campaign model in the browser).
 */
export class Game {
  /**
   * @param {object} options
   * @param {((mod: Record<string, unknown>) => void)[]} options.scripts loaded in this order
   * @param {Record<string, unknown>} [options.state] the scripts' persisted `state`
   * @param {number} [options.seed] for the dice
   */
  constructor({ scripts, state = {}, seed = 1 }) {
    this.dice = random(seed);
    this.serial = 0;
    this.chat = [];
    this.handlers = [];
    this.pending = 0;
    this.errors = [];
    this.campaign = new Obj(this, "campaign", {
      _id: "root", turnorder: "", initiativepage: false, playerpageid: "page-1",
    });
    this.objects = [
      this.campaign,
      new Obj(this, "player", { _id: "gm", _displayname: "GM", _lastpage: "page-1" }),
      new Obj(this, "page", { _id: "page-1", name: "Battle" }),
    ];
    this.listeners = []; // the page's change:turnorder listeners
    this.shown = this.campaign.attrs.turnorder; // the turn order as the GM's page has it
    this.page = {
      get: (key) => (key === "turnorder" ? this.shown : this.campaign.attrs[key]),
      save: (changes) => this.pageSaved(changes),
      on: (event, listener) => { if (event === "change:turnorder") this.listeners.push(listener); },
    };
    /** The scripts' shared scope. */
    this.context = {
      state,
      on: (event, handler) => this.handlers.push({ event, handler }),
      Campaign: () => this.campaign,
      getObj: (type, id) => this.objects.find((o) => o.get("type") === type && o.id === id),
      findObjs: (attrs) => this.objects.filter(
        (o) => Object.entries(attrs).every(([k, v]) => o.get(k) === v)),
      createObj: (type, attrs) => this.create(type, attrs),
      sendChat: (as, text, callback) => this.sendChat(as, text, callback),
      playerIsGM: (id) => id === "gm",
      toFront: () => {},
      setTimeout: (fn, _ms, ...args) => this.track(later().then(() => fn(...args))),
    };
    for (const script of scripts) script(this.context);
    this.fire("ready");
  }

  /** Run a promise to its end before the game is settled; what it throws is kept. */
  track(promise) {
    this.pending += 1;
    promise.catch((error) => { this.errors.push(error); }).finally(() => { this.pending -= 1; });
    return 0;
  }

  create(type, attrs, id = "") {
    this.serial += 1;
    const made = new Obj(this, type, { _id: id || `-obj${this.serial}`, ...attrs });
    this.objects.push(made);
    return made;
  }

  /**
   * A token on the page: on the objects layer, or the GM's ("gmlayer"), which players never see.
   * @returns {string} its id
   */
  token(name, layer = "objects", id = "") {
    return this.create("graphic", {
      _subtype: "token", _pageid: "page-1", name, layer, imgsrc: "https://example.invalid/t.png",
      represents: "", controlledby: "", left: 70, top: 70, width: 70, height: 70,
      lastmove: "", bar2_value: "", showplayers_name: true,
    }, id).id;
  }

  fire(event, ...args) {
    for (const { event: name, handler } of this.handlers) {
      if (name === event) this.track(Promise.resolve().then(() => handler(...args)));
    }
  }

  /** A script set the turn order: the GM's page sees it, a moment later. */
  scriptChanged() {
    const sent = this.campaign.attrs.turnorder;
    this.track(later().then(() => {
      if (this.shown === sent) return;
      this.shown = sent;
      for (const listener of this.listeners) listener();
    }));
  }

  /** The GM's page saved: its own listeners at once, the scripts' handlers a moment later. */
  pageSaved(changes) {
    const before = { ...this.campaign.attrs, turnorder: this.shown };
    if ("turnorder" in changes) this.shown = changes.turnorder;
    Object.assign(this.campaign.attrs, changes);
    if ("turnorder" in changes) for (const listener of this.listeners) listener();
    this.track(later().then(() => {
      for (const key of Object.keys(changes)) {
        if (before[key] !== changes[key]) this.fire(`change:campaign:${key}`, this.campaign, before);
      }
    }));
  }

  /** Roll20's Next in the GM's turn order window: the first entry moves to the end. */
  pressNext() {
    const order = JSON.parse(this.page.get("turnorder") || "[]");
    this.page.save({ turnorder: JSON.stringify([...order.slice(1), order[0]]) });
  }

  /** The GM types a command in the chat, with these tokens selected. */
  command(content, selected = []) {
    this.fire("chat:message", {
      type: "api", who: "GM", playerid: "gm", content,
      selected: selected.map((id) => ({ _id: id, _type: "graphic" })),
    });
  }

  /** Roll20's inline rolls: NdS rolled with the game's dice, then the arithmetic. */
  sendChat(as, text, callback) {
    if (!callback) {
      this.chat.push({ as, text });
      return;
    }
    const inlinerolls = [];
    const content = text.replace(/\[\[(.*?)\]\]/g, (_whole, expression) => {
      const rolls = [];
      const arithmetic = expression.replace(/(\d*)d(\d+)/g, (_d, count, sides) => {
        const results = Array.from({ length: Number(count || 1) },
                                   () => ({ v: 1 + Math.floor(this.dice() * Number(sides)) }));
        rolls.push({ type: "R", sides: Number(sides), results });
        return `(${results.reduce((sum, r) => sum + r.v, 0)})`;
      });
      if (!/^[\d\s+\-*/().]*$/.test(arithmetic)) throw new Error(`not a roll: ${expression}`);
      const total = Function(`"use strict"; return (${arithmetic});`)();
      inlinerolls.push({ expression, results: { total, rolls } });
      return `$[[${inlinerolls.length - 1}]]`;
    });
    this.track(later().then(() => callback([{ who: as, type: "general", content, inlinerolls }])));
  }

  /**
   * Wait until nothing is left to happen: no message on its way, no script or bridge busy. A
   * game that is still busy after ``turns`` turns of the event loop never settles: it throws.
   */
  async settle(busy = () => 0, turns = 3000) {
    for (let quiet = 0, turn = 0; quiet < 3; turn += 1) {
      if (turn > turns) throw new Error("the turn order never settles: a script and the bridge undo each other");
      await new Promise((resolve) => setTimeout(resolve, 0));
      quiet = this.pending === 0 && busy() === 0 ? quiet + 1 : 0;
    }
    if (this.errors.length) throw this.errors[0];
  }

  /** The turn order as the GM's page shows it. */
  order() { return JSON.parse(this.page.get("turnorder") || "[]"); }
}
