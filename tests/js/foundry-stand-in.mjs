// A stand-in for the part of Foundry VTT the Seize module calls: Foundry itself cannot run here.
// It behaves as Foundry does where the module depends on it: documents are written
// asynchronously and fire their hooks with the writer's options and user id, ``combat.turns`` is
// ``combatants`` sorted by the configured Combat class's ``_sortCombatants`` (called unbound, as
// Foundry calls it), settings are stored per scope, and ``window.prompt`` throws as Foundry's
// desktop app does. An update that changes nothing fires no hook, as Foundry diffs it first.
// The combat tracker (``ui.combat``) is made from ``CONFIG.ui.combat`` after ``init``, as
// Foundry makes it. Its WebSocket opens, answers and closes as a browser's does against Seize
// (``onopen`` before any message; a reply to each command message, after a turn of the event
// loop; ``close()`` ends in ``onclose``), and Seize behind it and behind ``fetch`` applies a
// command once per idempotency key, however it came. Each ``world()`` installs fresh globals and
// loads a fresh copy of the module.
//
// It runs in Node and in a browser's page alike (tests/pages/test_foundry_dice.py): a page keeps
// its own ``window``, ``document`` and elements, which cannot be replaced there, and Node is given
// the stand-in's. The module is imported from beside this file (``../../server/vtt/foundry``), so
// a page serves both from the same tree.

let loaded = 0;
let ids = 0;
const newId = () => `sid${String(++ids).padStart(13, "0")}`;
const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
/** A browser's page has a document of its own (read before any world installs Node's). */
const inPage = typeof globalThis.document === "object";

class Collection extends Map {
  get contents() { return [...this.values()]; }
  find(test) { return this.contents.find(test); }
  some(test) { return this.contents.some(test); }
  filter(test) { return this.contents.filter(test); }
  map(fn) { return this.contents.map(fn); }
}

/** Foundry's own Combatant. ``createDocuments(data, {parent})`` is where every creation of a
 * combatant ends up, as in Foundry (a Combat's ``createEmbeddedDocuments`` calls it); a system's
 * Combatant class may refuse one in ``_preCreate`` by returning false. */
export class CoreCombatant {
  constructor(data, parent) {
    Object.assign(this, { initiative: null, hidden: false, defeated: false, flags: {},
                          tokenId: null, actorId: null, sceneId: null }, structuredClone(data));
    this._id ??= newId();
    Object.defineProperty(this, "parent", { value: parent });
  }
  get id() { return this._id; }
  get actor() { return globalThis.game.actors.get(this.actorId) ?? null; }
  get token() { return globalThis.game.scenes.get(this.sceneId)?.tokens.get(this.tokenId) ?? null; }
  toObject() { return structuredClone({ ...this }); }
  _preCreate() { return undefined; }
  setFlag(scope, key, value) { return this.update({ [`flags.${scope}.${key}`]: value }); }
  update(changes, options = {}, userId = globalThis.game.user.id) {
    return this.parent.updateEmbeddedDocuments("Combatant", [{ _id: this.id, ...changes }], options,
                                               userId);
  }

  static async createDocuments(data, { parent, ...options } = {}, userId = globalThis.game.user.id) {
    await tick();
    const created = [];
    for (const datum of data) {
      const { _id, ...rest } = datum;
      const combatant = new this(options.keepId ? datum : rest, parent);
      if (combatant._preCreate(datum, options, userId) === false) continue;
      created.push(combatant);
    }
    for (const combatant of created) parent.combatants.set(combatant.id, combatant);
    parent.setupTurns();
    world.log.push({ combat: parent.id, what: "create", ids: created.map((c) => c.id), options });
    for (const combatant of created) world.call("createCombatant", combatant, options, userId);
    return created;
  }
}

function assignPaths(target, changes) {
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.split(".");
    const last = keys.pop();
    let at = target;
    for (const key of keys) at = at[key] ??= {};
    if (last.startsWith("-=")) {
      delete at[last.slice(2)]; // Foundry's deletion key
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      assignPaths(at[last] ??= {}, value); // Foundry merges an object into the one it updates
    } else {
      at[last] = structuredClone(value);
    }
  }
}

/** What a system's own workflow did: a test asserts that none of it ran on Seize's Combat. */
const ran = (what) => world.workflow.push(what);

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
  get started() { return this.round > 0 && this.turns.length > 0; }
  get combatant() { return this.turn === null ? undefined : this.turns[this.turn]; }

  createEmbeddedDocuments(type, data, options = {}, userId = globalThis.game.user.id) {
    return globalThis.CONFIG.Combatant.documentClass.createDocuments(data, { ...options, parent: this },
                                                                     userId);
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

  /** Foundry diffs an update against the document first: a field written with the value it
   * has is dropped, and an update that changes nothing is not made (no hook fires). */
  async update(data, options = {}, userId = globalThis.game.user.id) {
    await tick();
    const changes = Object.fromEntries(Object.entries(data).filter(
      ([key, value]) => (value !== null && typeof value === "object") || this[key] !== value));
    if (!Object.keys(changes).length) return;
    assignPaths(this, changes);
    world.log.push({ combat: this.id, what: "update combat", changes, options });
    this._onUpdate(changes, options, userId);
    world.call("updateCombat", this, changes, options, userId);
  }

  render() {}

  /** Foundry 12 and 13 run the turn events (``_onStartTurn`` and the rest) unless told not to. */
  _onUpdate(changes, options) {
    if (options.turnEvents !== false && ("turn" in changes || "round" in changes)) {
      world.log.push({ combat: this.id, what: "turn events", options });
    }
  }

  setupTurns() {
    this.turns = [...this.combatants.contents].sort(this._sortCombatants);
    return this.turns;
  }

  _sortCombatants(a, b) {
    return (b.initiative ?? -Infinity) - (a.initiative ?? -Infinity) || a.id.localeCompare(b.id);
  }

  // Foundry's own turn controls, much simplified: what the tracker's buttons call.
  async nextTurn() {
    const next = (this.turn ?? -1) + 1;
    if (next >= this.turns.length) return this.nextRound();
    await this.update({ turn: next }, { direction: 1 });
    return this;
  }
  async previousTurn() {
    await this.update({ turn: Math.max((this.turn ?? 0) - 1, 0) }, { direction: -1 });
    return this;
  }
  async nextRound() {
    await this.update({ round: this.round + 1, turn: 0 }, { direction: 1 });
    return this;
  }
  async previousRound() {
    await this.update({ round: Math.max(this.round - 1, 0), turn: 0 }, { direction: -1 });
    return this;
  }
  async startCombat() {
    await this.update({ round: 1, turn: 0 });
    return this;
  }
  async rollInitiative(ids) {
    await this.updateEmbeddedDocuments("Combatant", ids.map((_id) => ({ _id, initiative: 10 })));
    return this;
  }
  async resetAll() {
    await this.updateEmbeddedDocuments("Combatant",
                                       this.combatants.contents.map((c) => ({ _id: c.id, initiative: null })));
    return this;
  }
  async endCombat() {
    world.dialogs.push({ kind: "Dialog", title: "COMBAT.EndTitle" });
    globalThis.game.combats.delete(this.id);
    return this;
  }
}

/**
 * The real systems' Combat classes, as far as Seize meets them (each from the system's own
 * source: dnd5e's ``Combat5e``, pf2e's ``EncounterPF2e``, SWADE's ``SwadeCombat``), and one
 * that reads the actor in its sort.
 */
export const SYSTEMS = {
  /** dnd5e: initiative high to low; ties by the token's base actor (its name, then id), then
   * by the combatant's name. */
  dnd5e: class extends CoreCombat {
    _sortCombatants(a, b) {
      if (a.initiative !== b.initiative) return super._sortCombatants(a, b);
      const base = (c) => globalThis.game.actors.get(c.token?.actorId) ?? null;
      if (!base(a) || !base(b) || base(a) !== base(b)) {
        const name = (c) => `${base(c)?.name ?? ""}.${base(c)?.id ?? ""}`;
        return name(a).localeCompare(name(b));
      }
      return a.name.localeCompare(b.name);
    }
  },
  /** pf2e: creating combatants keeps only those whose token is on the canvas now (the scene
   * being viewed) and has an actor; every other is dropped without a word. Ties by the actor's
   * tie-break priority. Its ``_onUpdate`` starts and ends turns (effects, conditions) whenever
   * the round or turn changes, whoever changed it. */
  pf2e: class extends CoreCombat {
    createEmbeddedDocuments(type, data, options = {}, userId = globalThis.game.user.id) {
      const kept = data.filter((datum) => {
        const token = globalThis.canvas.tokens.placeables.find((t) => t.id === datum.tokenId);
        if (!token) return false;
        if (!token.actor) {
          globalThis.ui.notifications.warn(`${token.name} has no associated actor.`);
          return false;
        }
        return true;
      });
      return super.createEmbeddedDocuments(type, kept, options, userId);
    }
    /** ``EncounterPF2e._sortCombatants`` (github.com/foundryvtt/pf2e, src/module/encounter/
     * document.ts, its Foundry 13 release; the same at commit 582a9a05a3da): a tie goes by the
     * priority a drag and drop gave it at that initiative, else the actor's tie-break priority,
     * else the id. */
    _sortCombatants(a, b) {
      const priority = (c) => c.flags.pf2e?.overridePriority?.[c.initiative ?? 0]
        ?? c.actor?.system.tiebreakPriority ?? 3;
      if (typeof a.initiative === "number" && a.initiative === b.initiative) {
        return priority(a) - priority(b) || a.id.localeCompare(b.id);
      }
      return super._sortCombatants(a, b);
    }
    /** ``EncounterPF2e.getCombatantWithHigherInit`` (the same file): whichever sorts first. */
    getCombatantWithHigherInit(a, b) {
      const sorted = this._sortCombatants(a, b);
      return sorted > 0 ? b : sorted < 0 ? a : null;
    }
    /** ``EncounterPF2e.setMultipleInitiatives`` (the same file), where the tracker's drop and
     * pf2e's own initiative rolls end: every initiative written (with the priority it has at
     * that value), then, if there is a turn (the guard of the Foundry 13 release; commit
     * 582a9a05a3da writes it always), ``turn`` set to where the combatant that was
     * current is now, so that it stays current. A row dropped across the current one moves
     * that combatant by one, and so ``turn`` by one. */
    async setMultipleInitiatives(initiatives) {
      const currentId = this.combatant?.id;
      await this.updateEmbeddedDocuments("Combatant", initiatives.map((i) => ({
        _id: i.id, initiative: i.value,
        flags: { pf2e: { overridePriority: { [i.value]: i.overridePriority ?? null } } },
      })));
      if (this.turn !== null) {
        await this.update({ turn: this.turns.findIndex((c) => c.id === currentId) });
      }
    }
    _onUpdate(changes, options, userId) {
      super._onUpdate(changes, options, userId);
      if (!this.started || !("turn" in changes || "round" in changes)) return;
      ran("pf2e: end of turn for the previous combatant");
      ran("pf2e: start of turn for the current combatant");
    }
    async rollInitiative(ids) {
      ran("pf2e: roll initiative from the actors' perception");
      return super.rollInitiative(ids);
    }
  },
  /** SWADE: Next Round asks in a dialog, reshuffles the Action Deck, nulls every
   * initiative (``resetAll``) and posts to chat; Next Turn first expires the current
   * combatant's end-of-turn effects, reading it without a guard, so it throws with no turn. */
  swade: class extends CoreCombat {
    /** ``SwadeCombat._sortCombatants`` (src/module/documents/combat/SwadeCombat.ts, SWADE 5 for
     * Foundry 13, commit 297630686e4b): a combatant on Hold from another round than the active
     * combat's comes first; then initiative, as Foundry sorts it; a tie by name, then id. */
    _sortCombatants(a, b) {
      const round = globalThis.game.combat?.round ?? 0;
      const held = (c) => Boolean(c.flags.swade?.roundHeld);
      if ((held(a) && a.flags.swade.roundHeld !== round)
          || (held(b) && b.flags.swade.roundHeld !== round)) {
        if (held(a) && !held(b)) return -1;
        if (!held(a) && held(b)) return 1;
      }
      if (a.initiative === b.initiative) {
        if (a.name === b.name) return a.id > b.id ? 1 : -1;
        return a.name > b.name ? 1 : -1;
      }
      return super._sortCombatants(a, b);
    }
    /** Foundry's ``Combat.debounceSetup``, which SWADE's Hold calls: the turns sorted again. */
    async debounceSetup() {
      this.setupTurns();
    }
    async nextTurn() {
      ran("swade: end-of-turn expirations");
      const ending = this.combatant;
      void ending.actor?.effects; // a TypeError when the turn is null
      return super.nextTurn();
    }
    async nextRound() {
      ran("swade: advance round dialog");
      world.dialogs.push({ kind: "DialogV2", title: "SWADE.Combat.AdvanceRoundTitle" });
      ran("swade: reshuffle the Action Deck");
      await this.resetAll();
      ran("swade: chat cards");
      return this;
    }
    async previousRound() {
      ran("swade: revert round dialog");
      return super.previousRound();
    }
    async resetAll() {
      ran("swade: null every initiative");
      return super.resetAll();
    }
    async startCombat() {
      ran("swade: deal action cards");
      return super.startCombat();
    }
    async rollInitiative(ids) {
      ran("swade: deal action cards");
      return super.rollInitiative(ids);
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

/**
 * pf2e's ``CombatantPF2e`` (github.com/foundryvtt/pf2e, src/module/encounter/combatant.ts,
 * commit 909e7bdd79e5, unchanged in its Foundry 13 release): a party's token is never a
 * combatant; its members are added in its place, each by ``fromActor``, through the Combat's
 * ``createEmbeddedDocuments``, as any user's change.
 */
export class PF2eCombatant extends CoreCombatant {
  /** ``CombatantPF2e.fromActor``: the actor's combatant in the active encounter, else one made
   * from its last token on the canvas, else an error. */
  static async fromActor(actor, render = true, { combat } = {}) {
    const { game, ui } = globalThis;
    if (!game.combat) {
      ui.notifications.error("PF2E.Encounter.NoActiveEncounter");
      return null;
    }
    const token = actor.getActiveTokens().pop();
    const existing = game.combat.combatants.find((c) => c.actor === actor);
    if (existing) return existing;
    if (token) {
      const made = await (combat ?? game.combat).createEmbeddedDocuments("Combatant", [{
        tokenId: token.id, actorId: token.actor?.id, sceneId: token.scene.id,
        hidden: token.document.hidden,
      }], { render });
      return made.at(0) ?? null;
    }
    ui.notifications.error(`PF2E.Encounter.NoTokenInScene ${actor.name}`);
    return null;
  }

  /** ``CombatantPF2e.createDocuments``: a party token's data is dropped, after its members were
   * added by ``PartyPF2e.addToCombat``. */
  static async createDocuments(data, options = {}, userId = globalThis.game.user.id) {
    const tokenOf = (datum) => {
      const scene = datum.sceneId ? globalThis.game.scenes.get(datum.sceneId) : null;
      return scene?.tokens.get(datum.tokenId ?? "") ?? null;
    };
    for (const datum of data) {
      const actor = tokenOf(datum)?.actor;
      if (actor?.type === "party") await actor.addToCombat({ combat: options.parent });
    }
    const others = data.filter((datum) => tokenOf(datum)?.actor?.type !== "party");
    return super.createDocuments(others, options, userId);
  }
}

/**
 * SWADE's ``SwadeCombatant`` (SWADE's system, kept on GitLab as peginc/swade and read from its
 * GitHub copy EternalRider/swade-private: src/module/documents/combat/SwadeCombatant.ts, SWADE 5
 * for Foundry 13, commit 19a916eff4ab): the tracker's Hold, Act Now and Act After buttons
 * call these (``SwadeCombatTracker``), on whatever Combat is viewed.
 */
export class SwadeCombatant extends CoreCombatant {
  get roundHeld() { return this.flags.swade?.roundHeld; }

  /** ``toggleHold``: the round it holds in, in its flags (the holding status on its actor),
   * then the turns sorted again; no ``turn`` write. */
  async toggleHold() {
    if (!this.parent) return;
    if (!this.roundHeld) {
      await Promise.all([this.setFlag("swade", "roundHeld", Math.max(this.parent.round, 1)),
                         this.actor?.toggleActiveEffect("holding", { active: true })]);
    } else {
      await Promise.all([this.update({ "flags.swade.-=roundHeld": null }),
                         this.actor?.toggleActiveEffect("holding", { active: false })]);
    }
    await this.parent.debounceSetup();
  }

  /** ``actNow``: an initiative just above the current combatant's (the first not on Hold if it
   * is itself current), off Hold, its actor's holding status off, then ``turn`` set to where it
   * now is. */
  async actNow() {
    if (!this.parent || !globalThis.game.user?.isGM) return;
    let target = this.parent.combatant;
    if (this.id === target?.id) target = this.parent.turns.find((c) => !c.roundHeld);
    const above = target?.initiative ?? 0;
    let initiative = above + 0.0001;
    for (const t of this.parent.turns) {
      const at = t.initiative ?? 0;
      if (at < above + 1 && at > above && Math.abs(at - initiative) < Number.EPSILON) {
        initiative = at - 0.000001;
      }
    }
    await this.update({ initiative, "flags.swade": {
      cardValue: target?.flags.swade?.cardValue, suitValue: target?.flags.swade?.suitValue,
      cardString: "", "-=roundHeld": null,
    } });
    await this.actor?.toggleActiveEffect("holding", { active: false });
    await this.parent.update({ turn: this.parent.turns.findIndex((c) => c.id === this.id) });
    this.parent.render(false);
  }

  /** ``actAfterCurrentCombatant``: an initiative just below the current combatant's, off Hold,
   * then ``turn`` set to where the current combatant now is. */
  async actAfterCurrentCombatant() {
    if (!this.parent || !globalThis.game.user?.isGM) return;
    const current = this.parent.combatant;
    await this.update({ initiative: (current?.initiative ?? 0) - 0.0001, "flags.swade": {
      cardValue: current?.flags.swade?.cardValue, suitValue: current?.flags.swade?.suitValue,
      cardString: "", "-=roundHeld": null,
    } });
    await this.actor?.toggleActiveEffect("holding", { active: false });
    await this.parent.update({ turn: this.parent.turns.findIndex((c) => c.id === current?.id) });
    this.parent.render(false);
  }
}

/**
 * Foundry 13's ``CombatTracker`` (the sidebar's combat tab), as far as its combatant buttons go:
 * ``_onCombatantControl(event, target)`` finds the row's combatant in the viewed Combat and, for
 * the d20 (``data-action="rollInitiative"``), rolls through the Combat's ``rollInitiative``.
 */
export class CoreCombatTracker {
  get viewed() { return globalThis.game.combat ?? null; }
  render() {}

  async _onCombatantControl(event, target) {
    const button = target ?? event.currentTarget;
    const combatant = this.viewed?.combatants.get(
      button.closest("[data-combatant-id]")?.dataset.combatantId);
    if (!combatant) return undefined;
    if ((button.dataset.action ?? button.dataset.control) === "rollInitiative") {
      return this.viewed.rollInitiative([combatant.id]);
    }
    return undefined;
  }
}

/** The systems' trackers, from their own source. */
export const TRACKERS = {
  /** dnd5e's ``CombatTracker5e._onCombatantControl`` (module/applications/combat/
   * combat-tracker.mjs, dnd5e 5.3.3, commit 965ad2d0cf5d): the d20 of a combatant with an actor
   * opens the actor's initiative roll dialog (``rollInitiativeDialog``), on Foundry 12's
   * ``data-control`` and 13's ``data-action`` alike; Foundry's handler is never reached. */
  dnd5e: class extends CoreCombatTracker {
    async _onCombatantControl(event, target) {
      const button = target || event.currentTarget;
      const row = button.closest(".combatant");
      const combatant = this.viewed.combatants.get(row.dataset.combatantId);
      const action = button.dataset.control || button.dataset.action;
      if (action === "rollInitiative" && combatant?.actor) {
        return combatant.actor.rollInitiativeDialog();
      }
      return super._onCombatantControl(event, target);
    }
  },
  /** pf2e's ``EncounterTrackerPF2e`` (github.com/foundryvtt/pf2e, src/module/apps/sidebar/
   * encounter-tracker.ts, its Foundry 13 release, the drop as at commit 3947e6291187): a GM
   * drags rows (Sortable's ``onUpdate``, ``#onDropCombatant``). */
  pf2e: class extends CoreCombatTracker {
    /**
     * The row of ``id`` dropped at ``index`` among the rolled rows: nothing if the order is the
     * same; else the dropped combatant's initiative set from its new neighbours
     * (``#setInitiativeFromDrop``: one above the row below when it tops the list or was
     * dragged up between two that differ, one below the row above when it ends the list or was
     * dragged down, the row below's when the two are equal, a tie's priorities by position),
     * and the whole order saved by ``setMultipleInitiatives`` (``#saveNewOrder``).
     */
    async dropCombatant(id, index) {
      const encounter = this.viewed;
      const dropped = encounter.combatants.get(id);
      if (typeof dropped.initiative !== "number") {
        globalThis.ui.notifications.error(`PF2E.Encounter.HasNoInitiativeScore ${dropped.name}`);
        return;
      }
      const oldOrder = encounter.turns.filter((c) => c.initiative !== null);
      const newOrder = oldOrder.filter((c) => c !== dropped);
      newOrder.splice(index, 0, dropped);
      if (newOrder.every((c, n) => oldOrder[n] === c)) return;
      const [above, below] = [newOrder[index - 1], newOrder[index + 1]];
      const up = Boolean(below) && encounter.getCombatantWithHigherInit(dropped, below) === below;
      const value = new Map(newOrder.map((c) => [c, c.initiative]));
      const priority = new Map(newOrder.map(
        (c) => [c, c.flags.pf2e?.overridePriority?.[c.initiative] ?? null]));
      let initiative = dropped.initiative;
      if (!above && below) initiative = below.initiative + 1;
      else if (above && !below) initiative = above.initiative - 1;
      else if (above && below && below.initiative < above.initiative) {
        initiative = up ? below.initiative + 1 : above.initiative - 1;
      } else if (above && below) initiative = below.initiative;
      value.set(dropped, initiative);
      const tied = newOrder.filter((c) => value.get(c) === initiative);
      if (tied.length > 1) tied.forEach((c, n) => priority.set(c, n));
      await encounter.setMultipleInitiatives(newOrder.map(
        (c) => ({ id: c.id, value: value.get(c), overridePriority: priority.get(c) })));
    }
  },
};

/**
 * An actor, with what the systems call on it here: Foundry's ``getActiveTokens`` (its tokens on
 * the canvas) and ``rollInitiative`` (its combatants in the active combat rolled through that
 * Combat's ``rollInitiative``), dnd5e's ``rollInitiativeDialog`` (module/documents/actor/
 * actor.mjs, dnd5e 5.3.3: the roll configuration dialog, then ``rollInitiative``), SWADE's
 * ``toggleActiveEffect`` (a write on the actor: ``world.effectWrite``, one round trip unless a
 * test makes it another), and pf2e's party (``type: "party"``, src/module/actor/party/
 * document.ts): its ``members``, and ``addToCombat``, every member at once by
 * ``CombatantPF2e.fromActor``.
 */
class StandInActor {
  constructor(data) { Object.assign(this, data); }
  get members() {
    return (this.memberIds ?? []).map((id) => globalThis.game.actors.get(id));
  }
  getActiveTokens() {
    return globalThis.canvas.tokens.placeables.filter((token) => token.actorId === this.id);
  }
  async rollInitiative() {
    const combat = globalThis.game.combat;
    const ids = combat?.combatants.filter((c) => c.actorId === this.id).map((c) => c.id) ?? [];
    if (combat && ids.length) await combat.rollInitiative(ids);
  }
  async rollInitiativeDialog() {
    ran("dnd5e: the initiative roll dialog");
    world.dialogs.push({ kind: "D20Roll", title: "DND5E.InitiativeRoll" });
    return this.rollInitiative();
  }
  async toggleActiveEffect() { await world.effectWrite(); }
  async addToCombat({ combat }) {
    const made = await Promise.all(
      this.members.map((member) => PF2eCombatant.fromActor(member, true, { combat })));
    return made.filter(Boolean);
  }
}

/** A system whose Combatant class refuses some combatants itself (here: any named "Loot"). */
export class RefusingCombatant extends CoreCombatant {
  _preCreate(data) { return data.name?.startsWith("Loot") ? false : undefined; }
}

/** The world the module runs in: its globals, and what the module did there. ``commands`` are
 * the commands Seize applied, once each; ``via`` how each arrival came ("socket" or "post"),
 * and ``keys`` the idempotency key of each. */
export const world = {
  hooks: {},
  log: [],
  commands: [],
  via: [],
  keys: [],
  sockets: [],
  dialogs: [],
  notices: [],
  workflow: [],
  call(name, ...args) { for (const fn of world.hooks[name] ?? []) fn(...args); },
};

/** What Seize says when it refuses (``world.status``, when it is not a success). */
const problem = () => ({ error: "refused", message: `refused with ${world.status}` });

/**
 * Seize receiving a command, by POST or on the socket: applied once per idempotency key (a
 * resend is answered as the first was, and applies nothing), or refused with ``world.status``.
 * @returns {{ok: boolean, body: object}}
 */
function arrived(command, key, via) {
  world.via.push(via);
  world.keys.push(key);
  const ok = world.status >= 200 && world.status < 300;
  if (!ok) return { ok, body: problem() };
  if (world.keys.indexOf(key) === world.keys.length - 1) world.commands.push(command);
  return { ok, body: { seq: world.commands.length, events: [] } };
}

/** A browser's WebSocket to Seize's table socket. ``accept()`` is the server accepting the
 * connection; while ``world.silent``, command messages reach Seize and no reply comes back (a
 * connection dead without knowing it yet). */
class StandInSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;

  constructor(url) {
    this.url = url;
    this.readyState = StandInSocket.CONNECTING;
    world.sockets.push(this);
  }

  accept() {
    this.readyState = StandInSocket.OPEN;
    this.onopen?.();
  }

  send(text) {
    if (this.readyState !== StandInSocket.OPEN) {
      if (this.readyState === StandInSocket.CONNECTING) throw new Error("InvalidStateError");
      return; // a browser drops what is sent on a closing or closed socket
    }
    const message = JSON.parse(text);
    if (message.type === "dice") {
      this.asked(message);
      return;
    }
    const { id, command, idempotency_key: key } = message;
    const answer = arrived(command, key, "socket");
    if (world.silent) return;
    const reply = answer.ok ? { type: "answer", id, ...answer.body }
      : { type: "refused", id, status: world.status, problem: answer.body };
    setTimeout(() => {
      if (this.readyState === StandInSocket.OPEN) this.onmessage?.({ data: JSON.stringify(reply) });
    }, 1);
  }

  /** Seize given a dice request (docs/api.md, "Dice requests"): asked at once, then answered
   * with what ``world.dice`` says of it (a reply to send, or null for nothing yet). */
  asked(request) {
    world.diceRequests.push(request);
    const answer = world.dice(request);
    const replies = [{ type: "dice-asked", id: request.id, dice: [], claim: false },
                     ...(answer ? [{ id: request.id, ...answer }] : [])];
    setTimeout(() => {
      for (const reply of replies) {
        if (this.readyState === StandInSocket.OPEN) this.onmessage?.({ data: JSON.stringify(reply) });
      }
    }, 1);
  }

  /** Closed by the page (1005), or dropped on the way (1006): closing until the close event. */
  close(code = 1005) {
    if (this.readyState >= StandInSocket.CLOSING) return;
    this.readyState = StandInSocket.CLOSING;
    setTimeout(() => {
      this.readyState = StandInSocket.CLOSED;
      this.onclose?.({ code });
    }, 1);
  }
}

/**
 * Foundry's dice, as far as a roll filled by a dice fulfillment method goes (Foundry 12 and 13).
 * Foundry's own source is not public; each method below is written from its declaration and
 * doc comment in fvtt-types 13.345.1 (the types of Foundry 13.345, file by file as Foundry's
 * client ships them: ``src/foundry/client/dice/roll.d.mts``,
 * ``src/foundry/client/dice/terms/dice.d.mts``,
 * ``src/foundry/client/applications/dice/roll-resolver.d.mts``,
 * ``src/foundry/client/config.d.mts``), and from Foundry 13's API pages of the same names.
 * A term's method is the one the user set for its denomination in the core setting
 * ``diceConfiguration`` (a client setting of {d4…d100: method}), or
 * ``CONFIG.Dice.fulfillment.defaultMethod`` (blank: Foundry's own random roll). Formulas are
 * dice (``2d20kh``, ``1d8``, ``1d100``, ``d%``, ``4dF``) and numbers, added.
 */
export class Die {
  constructor({ number = 1, faces, modifiers = [] }) {
    Object.assign(this, { number, faces, modifiers, results: [], options: {} });
  }
  get denomination() { return `d${this.faces}`; }
  get method() { return this.options.method; }
  set method(method) { this.options.method = method; }
  /** dice.d.mts ``DiceTerm#mapRandomFace``: a uniform draw in [0, 1) onto the faces. */
  mapRandomFace(randomUniform) { return Math.ceil((1 - randomUniform) * this.faces); }
  /** dice.d.mts ``DiceTerm#randomFace``: "using the configured PRNG". */
  randomFace() { return this.mapRandomFace(globalThis.CONFIG.Dice.randomUniform()); }
  /** dice.d.mts ``DiceTerm#roll({minimize, maximize, ...options})``: the result of ``_roll``
   * (options passed on), or Foundry's own random face when that is undefined. */
  async roll({ minimize = false, maximize = false, ...options } = {}) {
    const roll = { result: undefined, active: true };
    roll.result = await this._roll(options);
    if (minimize) roll.result = 1;
    else if (maximize) roll.result = this.faces;
    else if (roll.result === undefined) roll.result = this.randomFace();
    this.results.push(roll);
    return roll;
  }
  /** dice.d.mts ``DiceTerm#_roll(options)``: "Generate a roll result value for this DiceTerm
   * based on its fulfillment method". An interactive method's die, while the roll has a
   * resolver (it was evaluated allowing interaction), is asked of the resolver
   * (roll-resolver.d.mts ``resolveResult(term, method)``: "a single extra result"); every
   * other die goes to ``#invokeFulfillmentHandler``, with the options (``allowInteractive``
   * among them). */
  async _roll(options = {}) {
    const config = globalThis.CONFIG.Dice.fulfillment.methods[this.method];
    if (config?.interactive && this.resolver) return this.resolver.resolveResult(this, this.method);
    return this.#invokeFulfillmentHandler(options);
  }
  /** dice.d.mts ``DiceTerm#invokeFulfillmentHandler(options)``: "Invoke the configured
   * fulfillment handler for this term ... Options forwarded to the fulfillment method handler";
   * the method's ``handler(term, options)`` is called whether the roll allows interaction or
   * not (config.d.mts ``FulfillmentHandler``: "called and awaited in order to produce the die
   * roll result ... undefined if it could not be fulfilled"). A method with no handler (the
   * manual method, out of its resolver) gives undefined. */
  async #invokeFulfillmentHandler(options) {
    const config = globalThis.CONFIG.Dice.fulfillment.methods[this.method];
    if (typeof config?.handler !== "function") return undefined;
    world.handled.push({ method: this.method, denomination: this.denomination, options });
    return config.handler(this, options);
  }
  /** term.d.mts ``RollTerm#resolver``: the RollResolver of the roll the term is in. */
  get resolver() { return this._root?._resolver; }
  /** dice.d.mts ``DiceTerm#_evaluateAsync``: each die not yet resolved is rolled, in turn
   * (a resolver's first pass may have filled some). */
  async evaluate(options = {}) {
    for (let n = this.results.length; n < this.number; n++) await this.roll(options);
    const keep = { kh: -1, kl: 1 }[this.modifiers[0]];
    if (keep) {
      const kept = [...this.results].sort((a, b) => keep * (a.result - b.result))[0];
      for (const result of this.results) result.active = result === kept;
    }
    return this;
  }
  get total() { return this.results.filter((r) => r.active).reduce((sum, r) => sum + r.result, 0); }
}

/**
 * Foundry's ``FateDie`` (``dF``): "a three-sided Fate/Fudge die. Mathematically behaves like
 * 1d3-2" (fvtt-types 13.345.1 ``src/foundry/client/dice/terms/fate.d.mts``), as Foundry 13's
 * ``client/dice/terms/fate.mjs`` rolls it: three faces, its denomination ``DENOMINATION`` ("f",
 * not ``d3``: the key of its dice configuration), a minimised die -1 and a maximised +1 without
 * asking its method, else the method's result or a random face (``mapRandomFace``: the uniform
 * draw times three, less two, rounded up); a -1 is marked a failure and a +1 a success.
 */
export class FateDie extends Die {
  static DENOMINATION = "f";
  constructor({ number = 1, modifiers = [] }) { super({ number, faces: 3, modifiers }); }
  get denomination() { return FateDie.DENOMINATION; }
  mapRandomFace(randomUniform) { return Math.ceil(randomUniform * this.faces - 2); }
  async roll({ minimize = false, maximize = false, ...options } = {}) {
    const result = minimize ? -1 : maximize ? 1 : await this._roll(options);
    const roll = { result: result ?? this.randomFace(), active: true };
    if (roll.result === -1) roll.failure = true;
    if (roll.result === 1) roll.success = true;
    this.results.push(roll);
    return roll;
  }
}

/**
 * roll-resolver.d.mts ``RollResolver``: "An application responsible for handling unfulfilled
 * dice terms in a roll". ``awaitFulfillment``: "Identify any terms in this Roll that should be
 * fulfilled externally, and prompt the user to do so", resolving "when the first pass of
 * fulfillment is complete"; the terms it identifies are those whose method is interactive
 * (a non-interactive method's dice are left to its handler). ``registerResult(method,
 * denomination, result)``: "Register a fulfilled die roll ... Whether the result was consumed"
 * (``Roll.registerResult`` hands it to the active resolvers, ``Roll.RESOLVERS``).
 * ``resolveResult``: a single extra result (an explosion, a reroll), prompted for alone. The
 * stand-in's prompt is ``world.resolvers``: a test registers results as a user would type them.
 */
export class RollResolver {
  constructor(roll) {
    this.roll = roll;
    this.fulfillable = new Map(); // term → the dice of it still to fulfil
    this.extra = null; // the prompt for one extra result: {term, method, resolve}
  }

  async awaitFulfillment() {
    const { methods } = globalThis.CONFIG.Dice.fulfillment;
    for (const term of this.roll.dice) {
      if (methods[term.method]?.interactive) this.fulfillable.set(term, term.number - term.results.length);
    }
    if (![...this.fulfillable.values()].some((left) => left > 0)) return;
    Roll.RESOLVERS.set(this.roll, this);
    world.resolvers.push(this);
    await new Promise((resolve) => { this.done = resolve; });
  }

  registerResult(method, denomination, result) {
    if (this.extra && this.extra.method === method && this.extra.term.denomination === denomination) {
      const { resolve } = this.extra;
      this.extra = null;
      resolve(result);
      return true;
    }
    for (const [term, left] of this.fulfillable) {
      if (left > 0 && term.method === method && term.denomination === denomination) {
        term.results.push({ result, active: true });
        this.fulfillable.set(term, left - 1);
        if (![...this.fulfillable.values()].some((n) => n > 0)) this.done?.();
        return true;
      }
    }
    return false;
  }

  resolveResult(term, method) {
    return new Promise((resolve) => { this.extra = { term, method, resolve }; });
  }

  close() { Roll.RESOLVERS.delete(this.roll); }
}

/** Foundry's CONST.DICE_ROLL_MODES (src/foundry/common/constants.d.mts). */
export const DICE_ROLL_MODES = { PUBLIC: "publicroll", PRIVATE: "gmroll", BLIND: "blindroll",
                                 SELF: "selfroll" };

export class Roll {
  /** roll.d.mts ``Roll.RESOLVERS``: the resolvers of the rolls being resolved. */
  static RESOLVERS = new Map();
  static get resolverImplementation() { return RollResolver; }

  /** roll.d.mts ``new Roll(formula, data, options)``: ``options.rollMode`` is the roll's own
   * mode, which a system's roll dialog sets and ``toMessage`` takes. */
  constructor(formula, data = {}, options = {}) {
    Object.assign(this, { formula, data, options });
    this.terms = formula.split("+").map((part) => {
      const dice = /^\s*(\d*)d(\d+|%|F)(kh|kl)?\s*$/.exec(part);
      if (!dice) return Number(part);
      const [number, modifiers] = [Number(dice[1] || 1), dice[3] ? [dice[3]] : []];
      // ``d%`` is a d100 and ``dF`` a Fate die, as Foundry's formula syntax has them.
      return dice[2] === "F" ? new FateDie({ number, modifiers })
        : new Die({ number, faces: dice[2] === "%" ? 100 : Number(dice[2]), modifiers });
    });
    for (const term of this.dice) term._root = this;
  }
  get dice() { return this.terms.filter((term) => term instanceof Die); }

  /** roll.d.mts ``Roll#evaluate({minimize, maximize, allowStrings, allowInteractive})``:
   * ``allowInteractive`` "If false, force the use of non-interactive rolls and do not prompt the
   * user to make manual rolls" (default true). Allowed, and not minimised or maximised, the
   * roll's resolver (``resolverImplementation``) is made and its first pass awaited, then the
   * terms are evaluated with the options, and the resolver closed. */
  async evaluate({ minimize = false, maximize = false, allowInteractive = true, ...rest } = {}) {
    if (this._evaluated) throw new Error("The Roll has already been evaluated");
    this._evaluated = true;
    const chosen = globalThis.game.settings.get("core", "diceConfiguration") ?? {};
    for (const term of this.dice) {
      term.method ??= chosen[term.denomination] || globalThis.CONFIG.Dice.fulfillment.defaultMethod;
    }
    const options = { minimize, maximize, allowInteractive, ...rest };
    if (allowInteractive !== false && !minimize && !maximize) {
      this._resolver = new this.constructor.resolverImplementation(this);
      await this._resolver.awaitFulfillment();
    }
    for (const term of this.dice) await term.evaluate(options);
    this._resolver?.close();
    this.total = this.terms.reduce((sum, term) => sum + (term instanceof Die ? term.total : term), 0);
    return this;
  }

  /** roll.d.mts ``Roll.registerResult(method, denomination, result)``: "Register an
   * externally-fulfilled result with an active RollResolver". */
  static registerResult(method, denomination, result) {
    for (const resolver of Roll.RESOLVERS.values()) {
      if (resolver.registerResult(method, denomination, result)) return true;
    }
    return undefined;
  }

  /** roll.d.mts ``Roll.simulate(formula, n)``: "Simulate a roll and evaluate the distribution
   * of returned results": n rolls evaluated with no interaction (never a player's dice). */
  static async simulate(formula, n = 10000) {
    const rolls = await Promise.all([...Array(n)].map(
      () => new this(formula).evaluate({ allowInteractive: false })));
    return rolls.map((roll) => roll.total);
  }

  /** roll.d.mts ``Roll#toMessage(messageData, {rollMode, create})``: an unevaluated roll is
   * evaluated first, allowing interaction unless the roll mode is blind (a blind roll's dice
   * are hidden from its roller: none is asked of them); the roll mode is the one given ("roll"
   * meaning none), else the core setting ``rollMode``. The message is ``world.messages``'. */
  async toMessage(messageData = {}, { rollMode, create = true } = {}) {
    if (rollMode === "roll") rollMode = undefined;
    rollMode ||= this.options.rollMode || globalThis.game.settings.get("core", "rollMode");
    if (!this._evaluated) await this.evaluate({ allowInteractive: rollMode !== DICE_ROLL_MODES.BLIND });
    const message = { ...messageData, rolls: [this], rollMode, blind: rollMode === DICE_ROLL_MODES.BLIND };
    if (create) world.messages.push(message);
    return message;
  }

  static get defaultImplementation() { return Roll; }
}

/** Foundry's module socket (``game.socket``, a module with ``"socket": true``): what this client
 * emits goes to every other client, never back to itself (``world.emitted``, and ``others`` if the
 * world's other clients are there: a BroadcastChannel between their pages, which delivers to every
 * page but the sender, as Foundry's server does); ``relay`` is a message from another client
 * arriving here, handed to each handler with the id of the user who sent it, as Foundry's server
 * hands it (socketlib's ``_onSocketReceived(message, senderId)`` reads it so). */
function moduleSocket(others, userId) {
  const listeners = {};
  world.relay = (name, message, sender) => {
    for (const fn of listeners[name] ?? []) fn(message, sender);
  };
  others?.addEventListener("message", ({ data }) => world.relay(data.name, data.message, data.sender));
  return {
    on: (name, fn) => (listeners[name] ??= []).push(fn),
    emit: (name, message) => {
      world.emitted.push({ name, message: structuredClone(message) });
      others?.postMessage({ name, message, sender: userId });
    },
  };
}

/** Seize behind ``fetch``: a command POSTed is applied once per idempotency key; the combat
 * read is what ``world.served`` says. */
async function standInFetch(url, init = {}) {
  if (init.method === "POST") {
    const answer = arrived(JSON.parse(init.body), init.headers?.["Idempotency-Key"], "post");
    return { ok: answer.ok, status: world.status, json: async () => answer.body };
  }
  const ok = world.status >= 200 && world.status < 300;
  const body = !ok ? problem() : String(url).includes("/foundry/combat") ? world.served : {};
  return { ok, status: world.status, json: async () => structuredClone(body) };
}

/** A browser: what client-scope settings are kept in (localStorage), across worlds. */
export const browser = () => ({ client: {} });

/**
 * Install a fresh Foundry and load the module into it.
 * @param {object} options generation (12 or 13), worldId, system (a Combat class), combatant
 *   (a Combatant class), tracker (the combat tracker's class), user ({id, isActiveGM, isGM}),
 *   users (the world's other users: {id, isGM, characterId}), combats
 *   (Combat classes' instances already in the world), scenes ({id, tokens: [{id, actorId,
 *   name, hidden}]}), viewing (the id of the scene on the canvas), actors ({id, name, system,
 *   type, memberIds}), served (the dialect Seize serves),
 *   status (the HTTP status Seize answers with), answers (what the GM types into a dialog),
 *   storage (the browser's and the world database's settings, to load again with), seize (a
 *   real Seize's reach: the runtime's own {WebSocket, fetch}), others (the world's other clients,
 *   a BroadcastChannel: see ``moduleSocket``)
 */
export async function load({ generation = 13, worldId = "world-a", system = CoreCombat,
                             combatant = CoreCombatant, tracker = CoreCombatTracker,
                             user = { id: "gm1", isActiveGM: true }, users = [],
                             combats = [], scenes = [], viewing = null, actors = [], served,
                             status = 200, answers = {}, storage = undefined,
                             seize = null, others = null } = {}) {
  // A real Seize on loopback in place of the stand-in's: the module reaches it with the
  // runtime's own WebSocket and fetch.
  const reach = seize ?? { WebSocket: StandInSocket, fetch: standInFetch };
  Object.assign(world, { hooks: {}, log: [], commands: [], via: [], keys: [], sockets: [],
                         dialogs: [], notices: [], workflow: [], served, status, silent: false,
                         effectWrite: tick, diceRequests: [], emitted: [], dice: () => null,
                         handled: [], resolvers: [], messages: [] });
  Roll.RESOLVERS.clear();
  const registered = { diceConfiguration: { scope: "client", default: {} }, // Foundry's own
                       rollMode: { scope: "client", default: DICE_ROLL_MODES.PUBLIC } };
  // World settings live in the world's database; user settings there too, one set per user
  // (Foundry 13); client settings in the browser, whatever the world.
  const stored = storage ?? { browser: browser(), worlds: {} };
  const database = (stored.worlds[worldId] ??= { world: {}, users: {} });
  const scopes = {
    world: () => database.world,
    client: () => stored.browser.client,
    user: () => (database.users[globalThis.game.user.id] ??= {}),
  };
  const collection = (items) => new Collection(items.map((item) => [item.id, item]));
  const form = (content) => ({
    querySelector: (selector) => {
      const name = /name="([^"]+)"/.exec(selector)?.[1];
      return content.includes(`name="${name}"`) ? { value: answers[name] ?? "" } : null;
    },
  });
  const notify = (level) => (message, options) => { world.notices.push({ level, message, options }); };
  const actorDocs = actors.map((actor) => new StandInActor(actor));
  const tokenDoc = (token) => ({
    ...token, get actor() { return globalThis.game.actors.get(this.actorId) ?? null; },
  });
  const sceneDocs = scenes.map((scene) => ({ ...scene,
                                             tokens: collection(scene.tokens.map(tokenDoc)) }));
  const viewed = sceneDocs.find((scene) => scene.id === viewing);
  Object.assign(globalThis, {
    Hooks: {
      on: (name, fn) => (world.hooks[name] ??= []).push(fn),
      once: (name, fn) => (world.hooks[name] ??= []).push(fn),
    },
    CONFIG: { Combat: { documentClass: system }, Combatant: { documentClass: combatant },
              ui: { combat: tracker },
              Dice: { randomUniform: () => world.uniform ?? 0.5, fulfillment: {
                dice: Object.fromEntries([4, 6, 8, 10, 12, 20, 100].map((faces) => [
                  `d${faces}`, { label: `d${faces}`, icon: `<i class="fas fa-dice-d${faces}"></i>` }])),
                methods: { manual: { label: "DICE.FULFILLMENT.Manual", interactive: true } },
                defaultMethod: "" } } },
    Roll,
    CONST: { DICE_ROLL_MODES },
    Combat: CoreCombat,
    game: {
      release: { generation },
      world: { id: worldId },
      settings: {
        register: (namespace, key, data) => { registered[key] = data; },
        get: (namespace, key) => scopes[registered[key].scope]()[key] ?? registered[key].default,
        set: async (namespace, key, value) => {
          scopes[registered[key].scope]()[key] = value;
          registered[key].onChange?.(value);
        },
      },
      i18n: {
        localize: (key) => key,
        format: (key, data) => `${key} ${JSON.stringify(data)}`,
      },
      user: { isGM: true, ...user },
      users: Object.assign(collection([{ isGM: true, ...user }, ...users].map((one) => ({
        ...one, get character() { return globalThis.game.actors.get(one.characterId) ?? null; },
      }))), { activeGM: user.isActiveGM ? user : { id: "anotherGm", isGM: true } }),
      socket: moduleSocket(others, user.id),
      combats: collection(combats),
      scenes: collection(sceneDocs),
      actors: collection(actorDocs),
      /** The active combat (Foundry's ``game.combat``), or the one a test views. */
      get combat() { return this.viewing ?? this.combats.find((c) => c.active); },
      set combat(combat) { this.viewing = combat; },
    },
    canvas: {
      tokens: {
        controlled: [],
        placeables: (viewed?.tokens.contents ?? []).map((token) => ({
          ...token, actor: actorDocs.find((actor) => actor.id === token.actorId) ?? null,
          scene: { id: viewed.id }, document: { hidden: Boolean(token.hidden) },
        })),
      },
    },
    ui: { combat: { render() {} },
          notifications: { warn: notify("warn"), info: notify("info"), error: notify("error") } },
    foundry: {
      utils: { randomID: () => newId(), escapeHTML: (text) => text },
      applications: { api: { DialogV2: {
        confirm: async (config) => {
          world.dialogs.push({ kind: "DialogV2", title: config.window.title });
          return answers.confirm ?? true;
        },
        prompt: async (config) => {
          world.dialogs.push({ kind: "DialogV2", title: config.window.title });
          return config.ok.callback({}, { form: form(config.content) });
        },
      } } },
    },
    Dialog: {
      confirm: async (config) => {
        world.dialogs.push({ kind: "Dialog", title: config.title });
        return answers.confirm ?? true;
      },
      prompt: async (config) => {
        world.dialogs.push({ kind: "Dialog", title: config.title });
        return config.callback([form(config.content)]);
      },
    },
    ...(inPage ? {} : {
      window: {},
      HTMLElement: class {},
      document: {
        createElement: () => ({
          listeners: [], children: [],
          addEventListener(type, fn) { this.listeners.push(fn); },
          append(child) { this.children.push(child); },
        }),
      },
    }),
    WebSocket: reach.WebSocket,
    fetch: reach.fetch,
  });
  globalThis.window.prompt = () => { throw new Error("prompt() is and will not be supported."); };
  loaded += 1;
  await import(`../../server/vtt/foundry/scripts/seize.mjs?world=${loaded}`);
  world.call("init");
  globalThis.ui.combat = new globalThis.CONFIG.ui.combat();
  world.call("ready");
  return { registered, stored, settings: globalThis.game.settings };
}

/** Link the world to a table, as a GM does in Configure Settings. */
export async function configure(token = "gm-token", server = "http://seize.test:8080",
                                table = "t1") {
  const { settings } = globalThis.game;
  await settings.set("seize", "server", server);
  await settings.set("seize", "table", table);
  await settings.set("seize", `token-${globalThis.game.world.id}`, token);
  world.notices = []; // "no token" while the settings were being filled in
}

/** Seize sends a view on the socket, which opened first: the module syncs; wait until its
 * writes have settled. */
export async function receive(view, seq = 1) {
  const socket = world.sockets.at(-1);
  if (socket.readyState === StandInSocket.CONNECTING) socket.accept();
  socket.onmessage({ data: JSON.stringify({ type: "view", seq, view }) });
  await settle();
}

export async function settle() {
  for (let idle = 0; idle < 5;) {
    const before = world.log.length + world.via.length;
    await new Promise((resolve) => setTimeout(resolve, 10));
    idle = world.log.length + world.via.length === before ? idle + 1 : 0;
  }
}

/**
 * A combatant's d20 in the tracker pressed: Foundry 13's button (``data-action``, passed as the
 * handler's target) or Foundry 12's (``data-control``, the event's current target).
 */
export async function d20(combatantId, generation = 13) {
  const row = { dataset: { combatantId } };
  const button = { dataset: generation >= 13 ? { action: "rollInitiative" }
                                             : { control: "rollInitiative" },
                   closest: () => row };
  await (generation >= 13 ? globalThis.ui.combat._onCombatantControl({}, button)
    : globalThis.ui.combat._onCombatantControl({ currentTarget: button }));
  await settle();
}

/** The tracker's rendering, with the module's bar in it; ``click`` presses one of its buttons.
 * In Node, whose elements are the stand-in's. */
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
