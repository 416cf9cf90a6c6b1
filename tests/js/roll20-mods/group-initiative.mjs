// A stand-in for Roll20's GroupInitiative Mod script, written for the bridge's tests: what the
// script does to the turn order, modelled from its source, not a copy of it.
//   Source: github.com/Roll20/roll20-api-scripts, GroupInitiative/GroupInitiative.js,
//   version 0.9.41 (state schema 1.3), commit 9d634d3149985dcf10333920b3f4c41f215f39fc,
//   by The Aaron, MIT licence.
// Modelled: the state an install gets (a new one, and one upgraded from schema 1.2), the
// Individual-Roll roller with no bonus stat groups (the dice alone), and the chat commands
// `!group-init` (roll for the selected tokens), `!group-init --reroll [bonus]` and
// `!group-init --sort`, each writing the whole turn order back sorted, then telling the
// scripts that watch it (TurnMarker1). Not modelled: its chat output, help handout, stacks,
// bonus stat groups and other rollers and commands; a command it does not model throws, so a
// test never relies on it unawares.

/** Its state's schema: GroupInitiative.js, `schemaVersion`. */
const SCHEMA = 1.3;

/**
 * The sort options. Each compares `pr` as numbers, so an entry whose `pr` is no number (Seize
 * writes its values with a trailing U+2060) compares as NaN, which Array.prototype.sort takes
 * as "equal": its stable sort leaves such entries in their order. With `preserveFirst`, the
 * entry first before the sort is first after it, the rest following round in sorted order.
 * GroupInitiative.js, `sorters` ('None', 'Ascending', 'Descending'); their `func`s sort the
 * array given in place, and so does this.
 */
const SORTS = {
  None: null,
  Ascending: (a, b) => Number(a.pr) - Number(b.pr),
  Descending: (a, b) => Number(b.pr) - Number(a.pr),
};

/**
 * The turn order sorted by a sort option. GroupInitiative.js, `sorters[...].func`.
 * @param {object[]} entries
 * @param {string} option
 * @param {boolean} preserveFirst
 */
export function sorted(entries, option, preserveFirst) {
  if (!(option in SORTS)) throw new Error(`GroupInitiative has no sort option ${option}`);
  const compare = SORTS[option];
  if (!compare) return entries;
  const wasFirst = entries[0];
  entries.sort(compare);
  if (!preserveFirst) return entries;
  const at = entries.indexOf(wasFirst);
  return [...entries.slice(at), ...entries.slice(0, at)];
}

/**
 * GroupInitiative in the Mod sandbox ``mod`` (its globals): sets ``mod.GroupInitiative`` as
 * the script's global does, for TurnMarker1 to find.
 */
export function groupInitiative(mod) {
  const watchers = [];

  /**
   * A new install's state, or an upgrade of an older one. GroupInitiative.js, `checkInstall`:
   * a schema 1.2 state gets `lastHelpVersion` and `checkForNoConfig`, then, as every state from
   * before 1.3, `preserveFirst: false`; a new one gets `preserveFirst: true`.
   */
  function install() {
    const mine = mod.state.GroupInitiative;
    if (mine?.version === SCHEMA) return;
    if (mine?.version === 1.2) {
      Object.assign(mine, { lastHelpVersion: "0.9.41", version: SCHEMA });
      Object.assign(mine.config, { checkForNoConfig: true, preserveFirst: false });
      return;
    }
    if (mine) throw new Error(`the stand-in upgrades GroupInitiative's schema 1.2 only, not ${mine.version}`);
    mod.state.GroupInitiative = {
      version: SCHEMA, lastHelpVersion: "0.9.41", bonusStatGroups: [], savedTurnOrders: [],
      config: {
        rollType: "Individual-Roll", replaceRoll: false, dieSize: 20, diceCount: 1, maxDecimal: 2,
        diceCountAttribute: "", diceMod: "", checkForNoConfig: true, autoOpenInit: true,
        sortOption: "Descending", preserveFirst: true, announcer: "Partial",
      },
    };
  }

  const config = () => mod.state.GroupInitiative.config;
  const current = () => JSON.parse(mod.Campaign().get("turnorder") || "[]");

  /** Write the turn order, then tell the watchers. GroupInitiative.js, `notifyObservers`. */
  function write(entries, before) {
    mod.Campaign().set({ turnorder: JSON.stringify(entries) });
    for (const watcher of watchers) watcher(mod.Campaign().get("turnorder"), before);
  }

  /** One token's roll, through Roll20's inline rolls (GroupInitiative.js, `makeRollsForIDs`'s
   * `sendChat` callback): the total, rounded to `maxDecimal` places when it has a fraction. */
  function roll(bonus) {
    const { rollType, diceCount, dieSize, diceMod, maxDecimal } = config();
    if (rollType !== "Individual-Roll") throw new Error(`the stand-in rolls Individual-Roll only, not ${rollType}`);
    const terms = ["0", ...(bonus ? [String(bonus)] : []), `${diceCount}d${dieSize}${diceMod}`];
    return new Promise((resolve) => {
      mod.sendChat("", `[[(${terms.join(") + (")})]]`, ([message]) => {
        const { total } = message.inlinerolls[0].results;
        resolve(Number.isInteger(total) ? total : parseFloat(total.toFixed(maxDecimal)));
      });
    });
  }

  /**
   * Roll for tokens: GroupInitiative.js, `makeRollsForIDs`. A reroll (or the Replace Roll
   * option) first drops the tokens' entries; tokens still in the order are not rolled for.
   * Every other entry is kept whole, whatever its fields (Seize's `seize` key among them); the
   * new ones are {id, pr, _pageid, custom: ""} with the total as a number, added at the end,
   * and the whole order is sorted by the sort option with `preserveFirst` as configured.
   * Nothing to roll for, nothing is written. It opens the turn order window on every roll:
   * the script checks a misspelt attribute ("initativepage") that is never set.
   */
  async function rollFor(ids, { reroll = false, bonus = 0, before = "" } = {}) {
    let entries = current();
    if (reroll || config().replaceRoll) entries = entries.filter((e) => !ids.includes(e.id));
    const tokens = ids
      .filter((id) => !entries.some((e) => e.id === id))
      .map((id) => mod.getObj("graphic", id))
      .filter(Boolean);
    if (!tokens.length) return;
    const totals = await Promise.all(tokens.map(() => roll(bonus)));
    const rolled = tokens.map((token, n) => (
      { id: token.id, pr: totals[n], _pageid: token.get("pageid"), custom: "" }));
    write(sorted([...entries, ...rolled], config().sortOption, config().preserveFirst), before);
    if (config().autoOpenInit) mod.Campaign().set({ initiativepage: tokens[0].get("pageid") });
  }

  /**
   * The chat commands modelled: GroupInitiative.js, `handleInput`, case '!group-init' with no
   * option, 'reroll' (every token in the turn order, custom entries aside, any player) and
   * 'sort' (the GM's only, always with `preserveFirst` off).
   */
  async function heard(message) {
    if (message.type !== "api") return;
    const [command, ...options] = message.content.split(/\s+--/);
    if (command !== "!group-init") return;
    const before = mod.Campaign().get("turnorder");
    const selected = (message.selected ?? []).map((s) => s._id);
    const [option, argument] = (options[0] ?? "").split(/\s+/);
    if (!option) {
      await rollFor(selected, { before });
    } else if (option === "reroll") {
      const bonus = /^[-+]?\d+(\.\d+)?$/.test(argument ?? "") ? parseFloat(argument) || 0 : 0;
      const tokens = current().filter((e) => e.id !== "-1").map((e) => e.id);
      await rollFor(tokens, { reroll: true, bonus, before });
    } else if (option === "sort") {
      if (!mod.playerIsGM(message.playerid)) return;
      write(sorted(current(), config().sortOption, false), before);
    } else {
      throw new Error(`the stand-in does not model !group-init --${option}`);
    }
  }

  mod.GroupInitiative = {
    ObserveTurnOrderChange: (watcher) => {
      if (typeof watcher === "function") watchers.push(watcher);
    },
  };
  mod.on("ready", () => {
    install();
    mod.on("chat:message", heard);
  });
}
