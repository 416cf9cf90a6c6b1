// A stand-in for the part of Foundry VTT the Seize module calls: Foundry itself cannot run here.
// It behaves as Foundry does where the module depends on it: documents are written
// asynchronously and fire their hooks with the writer's options and user id, ``combat.turns`` is
// ``combatants`` sorted by the configured Combat class's ``_sortCombatants`` (called unbound, as
// Foundry calls it), settings are stored per scope, and ``window.prompt`` throws as Foundry's
// desktop app does. Each ``world()`` installs fresh globals and loads a fresh copy of the module.

let loaded = 0;
let ids = 0;
const newId = () => `sid${String(++ids).padStart(13, "0")}`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

class Collection extends Map {
  get contents() { return [...this.values()]; }
  find(test) { return this.contents.find(test); }
  some(test) { return this.contents.some(test); }
  filter(test) { return this.contents.filter(test); }
}

class Combatant {
  constructor(data, parent) {
    Object.assign(this, { initiative: null, hidden: false, defeated: false, flags: {},
                          tokenId: null, actorId: null, sceneId: null }, structuredClone(data));
    this._id ??= newId();
    Object.defineProperty(this, "parent", { value: parent });
  }
  get id() { return this._id; }
  get actor() { return globalThis.game.actors.get(this.actorId) ?? null; }
  toObject() { return structuredClone({ ...this }); }
}

function assignPaths(target, changes) {
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split(".");
    const last = keys.pop();
    let at = target;
    for (const key of keys) at = at[key] ??= {};
    at[last] = structuredClone(value);
  }
}

/** Foundry's own Combat: what a system's Combat class extends. */
export class CoreCombat {
  static async create(data, options = {}) {
    await tick();
    const combat = new this(data);
    const { game } = globalThis;
    game.combats.set(combat.id, combat);
    world.log.push({ combat: combat.id, what: "create combat", options });
    return combat;
  }

  constructor(data = {}) {
    Object.assign(this, { _id: newId(), round: 0, turn: null, active: false, scene: null,
                          flags: {} }, structuredClone(data));
    this.combatants = new Collection();
    this.turns = [];
  }

  get id() { return this._id; }

  async createEmbeddedDocuments(type, data, options = {}, userId = globalThis.game.user.id) {
    await tick();
    const created = data.map((d) => {
      const { _id, ...rest } = d;
      return new Combatant(options.keepId ? d : rest, this);
    });
    for (const combatant of created) this.combatants.set(combatant.id, combatant);
    this.setupTurns();
    world.log.push({ combat: this.id, what: "create", ids: created.map((c) => c.id), options });
    for (const combatant of created) world.call("createCombatant", combatant, options, userId);
    return created;
  }

  async updateEmbeddedDocuments(type, updates, options = {}, userId = globalThis.game.user.id) {
    await tick();
    for (const { _id, ...changes } of updates) assignPaths(this.combatants.get(_id), changes);
    this.setupTurns();
    world.log.push({ combat: this.id, what: "update", ids: updates.map((u) => u._id), options });
    for (const { _id, ...changes } of updates) {
      world.call("updateCombatant", this.combatants.get(_id), changes, options, userId);
    }
  }

  async deleteEmbeddedDocuments(type, deleted, options = {}, userId = globalThis.game.user.id) {
    await tick();
    const gone = deleted.map((id) => this.combatants.get(id));
    for (const id of deleted) this.combatants.delete(id);
    this.setupTurns();
    world.log.push({ combat: this.id, what: "delete", ids: deleted, options });
    for (const combatant of gone) world.call("deleteCombatant", combatant, options, userId);
  }

  async update(changes, options = {}, userId = globalThis.game.user.id) {
    await tick();
    Object.assign(this, structuredClone(changes));
    world.log.push({ combat: this.id, what: "update combat", changes, options });
    world.call("updateCombat", this, changes, options, userId);
  }

  setupTurns() {
    this.turns = [...this.combatants.contents].sort(this._sortCombatants);
    return this.turns;
  }

  _sortCombatants(a, b) {
    return (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || a.id.localeCompare(b.id);
  }
}

/** Systems that sort the tracker their own way, as real ones do. */
export const SYSTEMS = {
  /** dnd5e: initiative high to low; ties by name. */
  initiative: class extends CoreCombat {
    _sortCombatants(a, b) {
      return (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity)
        || a.name.localeCompare(b.name);
    }
  },
  /** SWADE-like: by the action card's value and suit in the combatant's flags; no card last,
   * by name. */
  cards: class extends CoreCombat {
    _sortCombatants(a, b) {
      const card = (c) => c.flags.swade?.cardValue ?? -1;
      const suit = (c) => c.flags.swade?.suitValue ?? -1;
      return card(b) - card(a) || suit(b) - suit(a) || a.name.localeCompare(b.name);
    }
  },
  /** A system that reads the actor in its sort: its dexterity breaks initiative ties, lowest
   * first. It throws on a combatant with no actor, as such systems do. */
  actor: class extends CoreCombat {
    _sortCombatants(a, b) {
      return (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity)
        || a.actor.system.dex - b.actor.system.dex;
    }
  },
};

/** The world the module runs in: its globals, and what the module did there. */
export const world = {
  hooks: {},
  log: [],
  posted: [],
  sockets: [],
  dialogs: [],
  call(name, ...args) { for (const fn of world.hooks[name] ?? []) fn(...args); },
};

/**
 * Install a fresh Foundry and load the module into it.
 * @param {object} options generation (12 or 13), system (a Combat class), user ({id,
 *   isActiveGM}), combats (Combat classes' instances already in the world), scenes ({id,
 *   tokens: [{id, actorId}]}), actors ({id, system}), served (the dialect Seize serves),
 *   answers (what the GM types into a dialog)
 */
export async function load({ generation = 13, system = CoreCombat, user = { id: "gm1", isActiveGM: true },
                             combats = [], scenes = [], actors = [], served, answers = {} } = {}) {
  Object.assign(world, { hooks: {}, log: [], posted: [], sockets: [], dialogs: [], served });
  const registered = {};
  const stored = { world: {}, client: {}, user: {} };
  const collection = (items) => new Collection(items.map((item) => [item.id, item]));
  const form = (content) => ({
    querySelector: (selector) => {
      const name = /name="([^"]+)"/.exec(selector)?.[1];
      return content.includes(`name="${name}"`) ? { value: answers[name] ?? "" } : null;
    },
  });
  Object.assign(globalThis, {
    Hooks: {
      on: (name, fn) => (world.hooks[name] ??= []).push(fn),
      once: (name, fn) => (world.hooks[name] ??= []).push(fn),
    },
    CONFIG: { Combat: { documentClass: system } },
    Combat: CoreCombat,
    game: {
      release: { generation },
      settings: {
        register: (namespace, key, data) => { registered[key] = data; },
        get: (namespace, key) => stored[registered[key].scope][key] ?? registered[key].default,
        set: async (namespace, key, value) => {
          stored[registered[key].scope][key] = value;
          registered[key].onChange?.(value);
        },
      },
      i18n: { localize: (key) => key },
      user: { isGM: true, ...user },
      users: { activeGM: user.isActiveGM ? user : { id: "anotherGm", isGM: true } },
      combats: collection(combats),
      scenes: collection(scenes.map((scene) => ({ ...scene, tokens: collection(scene.tokens) }))),
      actors: collection(actors),
    },
    canvas: { tokens: { controlled: [] } },
    ui: { combat: { render() {} }, notifications: { warn() {} } },
    foundry: {
      utils: { randomID: () => newId(), escapeHTML: (text) => text },
      applications: { api: { DialogV2: {
        prompt: async (config) => {
          world.dialogs.push({ kind: "DialogV2", title: config.window.title });
          return config.ok.callback({}, { form: form(config.content) });
        },
      } } },
    },
    Dialog: {
      prompt: async (config) => {
        world.dialogs.push({ kind: "Dialog", title: config.title });
        return config.callback([form(config.content)]);
      },
    },
    window: { prompt: () => { throw new Error("prompt() is and will not be supported."); } },
    HTMLElement: class {},
    document: {
      createElement: () => ({
        listeners: [], children: [],
        addEventListener(type, fn) { this.listeners.push(fn); },
        append(child) { this.children.push(child); },
      }),
    },
    WebSocket: class {
      constructor(url) { this.url = url; world.sockets.push(this); }
      close() {}
    },
    fetch: async (url, init = {}) => {
      if (init.method === "POST") world.posted.push(JSON.parse(init.body));
      const body = String(url).includes("/foundry/combat") ? world.served : {};
      return { ok: true, json: async () => structuredClone(body) };
    },
  });
  loaded += 1;
  await import(`../../server/vtt/foundry/scripts/seize.mjs?world=${loaded}`);
  world.call("init");
  world.call("ready");
  return { registered, stored, settings: globalThis.game.settings };
}

/** Link the world to a table, as a GM does in Configure Settings. */
export async function configure(token = "gm-token") {
  const { settings } = globalThis.game;
  await settings.set("seize", "server", "http://seize.test:8080");
  await settings.set("seize", "table", "t1");
  await settings.set("seize", "token", token);
}

/** Seize sends a view: the module syncs; wait until its writes have settled. */
export async function receive(view, seq = 1) {
  world.sockets.at(-1).onmessage({ data: JSON.stringify({ type: "view", seq, view }) });
  await settle();
}

export async function settle() {
  for (let idle = 0; idle < 5;) {
    const before = world.log.length + world.posted.length;
    await new Promise((resolve) => setTimeout(resolve, 10));
    idle = world.log.length + world.posted.length === before ? idle + 1 : 0;
  }
}

/** The tracker's rendering, with the module's bar in it; ``click`` presses one of its buttons. */
export function tracker() {
  const root = Object.assign(new globalThis.HTMLElement(), {
    bar: null, querySelector: () => null, prepend(bar) { this.bar = bar; },
  });
  world.call("renderCombatTracker", {}, root);
  const buttons = root.bar?.children ?? [];
  return {
    click: async (label) => {
      const button = buttons.find((b) => b.textContent === label);
      for (const listener of button.listeners) listener();
      await settle();
    },
  };
}
