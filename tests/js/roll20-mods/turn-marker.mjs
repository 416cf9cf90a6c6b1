// A stand-in for Roll20's TurnMarker1 Mod script, written for the bridge's tests: what the
// script does to the turn order, modelled from its source, not a copy of it.
//   Source: github.com/Roll20/roll20-api-scripts, TurnMarker1/TurnMarker1.js, version 1.3.12
//   (state schema 1.18), commit 9d634d3149985dcf10333920b3f4c41f215f39fc, by The Aaron,
//   MIT licence.
// Modelled: its state, its marker (a "Round N" token on the GM's layer with an entry of its own
// in the turn order, pr -1), what it does when the first entry of the turn order changes or the
// turn order window opens or closes (the round count when the marker comes up, Auto Skip
// Hidden, the marker moving to the current token), its answer to GroupInitiative's rewrites,
// and the chat commands `!eot`, `!pot` and `!tm toggle-skip-hidden`. Not modelled: animations
// (off by default), pings, its help, and other `!tm` commands, which throw here so that a test
// never relies on them unawares. Its chat announcements are short texts, not its HTML.

/** Its state's schema: TurnMarker1.js, `schemaVersion`. */
const SCHEMA = 1.18;

/**
 * ``entries`` turned round by ``by``: the first ``by`` moved to the end (a negative ``by``: the
 * last moved to the front). TurnMarker1.js, `Array.prototype.rotate`.
 */
export function turned(entries, by) {
  if (!entries.length) return entries;
  const from = ((by % entries.length) + entries.length) % entries.length;
  return [...entries.slice(from), ...entries.slice(0, from)];
}

/** TurnMarker1 in the Mod sandbox ``mod`` (its globals). */
export function turnMarker(mod) {
  let active = false; // the turn order window is open and the marker follows the current turn

  const settings = () => mod.state.TurnMarker;
  const order = () => JSON.parse(mod.Campaign().get("turnorder") || "[]");
  const setOrder = (entries) => mod.Campaign().set({ turnorder: JSON.stringify(entries) });
  const token = (entry) => mod.getObj("graphic", entry?.id);

  /**
   * A new install's state; one from schema 1.16 gets `autoPull`; any other older one starts
   * anew. TurnMarker1.js, `checkInstall`. An empty turn order is written as "[]".
   */
  function install() {
    const mine = mod.state.TurnMarker;
    if (mine?.version === 1.16) Object.assign(mine, { autoPull: "none", version: SCHEMA });
    if (mod.state.TurnMarker?.version !== SCHEMA) {
      mod.state.TurnMarker = {
        version: SCHEMA, announceRounds: true, announceTurnChange: true,
        announcePlayerInTurnAnnounce: true, announcePlayerInTurnAnnounceSize: "100%",
        autoPull: "none", autoskipHidden: true, tokenName: "Round",
        tokenURL: "https://s3.amazonaws.com/files.d20.io/images/4095816/086YSl3v0Kz3SlDAu245Vg/thumb.png?1400535580",
        playAnimations: false, rotation: false, animationSpeed: 5, scale: 1.7,
        aura1: { pulse: false, size: 5, color: "#ff00ff" },
        aura2: { pulse: false, size: 5, color: "#00ff00" },
      };
    }
    if (mod.Campaign().get("turnorder") === "") setOrder([]);
    mod.GroupInitiative?.ObserveTurnOrderChange?.(afterGroupInitiative);
  }

  /**
   * The marker: found by its image on the players' page, else made on the GM's layer; given an
   * entry at the end of the turn order (pr -1) when it has none. TurnMarker1.js, `getMarker`.
   */
  function marker() {
    const page = mod.Campaign().get("playerpageid");
    let found = mod.findObjs({ imgsrc: settings().tokenURL, pageid: page })[0];
    found ??= mod.createObj("graphic", {
      name: `${settings().tokenName} 0`, pageid: page, layer: "gmlayer", imgsrc: settings().tokenURL,
      left: 0, top: 0, lastmove: "0,0", width: 70, height: 70, bar2_value: 0,
      showplayers_name: true, showplayers_aura1: true, showplayers_aura2: true,
    });
    if (!order().some((e) => e.id === found.id)) {
      setOrder([...order(), { id: found.id, pr: -1, custom: "", _pageid: found.get("pageid") }]);
    }
    return found;
  }

  /**
   * The marker's turn came up: a new round (or, going back, the last one again) is counted and
   * announced, and the order turned past the marker. TurnMarker1.js, `handleMarkerTurn`.
   */
  function passMarker(backwards) {
    const round = marker();
    if (order()[0]?.id !== round.id) return;
    const count = (parseInt(round.get("bar2_value"), 10) || 0) + (backwards ? -1 : 1);
    round.set({ name: `${settings().tokenName} ${count}`, bar2_value: count });
    if (settings().announceRounds) mod.sendChat("", `/direct Round ${count}`);
    setOrder(turned(order(), backwards ? -1 : 1));
  }

  /**
   * Auto Skip Hidden: every entry at the top that has no token (a custom entry among them) or
   * whose token is on the GM's layer is skipped at once, the order turned round past all of
   * them, provided some entry further on is visible. TurnMarker1.js, `TurnOrder.NextVisible`.
   */
  function skipHidden() {
    const entries = order();
    const visible = entries.findIndex((e) => token(e) && token(e).get("layer") !== "gmlayer");
    if (visible > 0) setOrder(turned(entries, visible));
  }

  /**
   * Whose turn it now is, when the first entry changed: TurnMarker1.js, `turnOrderChange`.
   * Nothing while the window is closed or when a custom entry is first; else the marker's turn
   * is passed, hidden entries skipped (Auto Skip Hidden), the turn announced and the marker
   * moved onto the current token, taking its layer (half a second later when it comes up from
   * the GM's layer).
   */
  function turnChanged(announce, backwards = false) {
    const round = marker();
    if (!mod.Campaign().get("initiativepage") || !order().length) return;
    if (order()[0].id === "-1") return;
    passMarker(backwards);
    if (settings().autoskipHidden) {
      skipHidden();
      passMarker(backwards);
    }
    const first = order()[0];
    if (first.id === round.id) return;
    const current = token(first);
    if (!current) return;
    if (announce) announceTurn(current, round);
    const size = Math.max(current.get("height"), current.get("width")) * settings().scale;
    const onto = { lastmove: `${round.get("left")},${round.get("top")}`, top: current.get("top"),
                   left: current.get("left"), height: size, width: size };
    if (round.get("layer") === "gmlayer" && current.get("layer") !== "gmlayer") {
      round.set(onto);
      mod.setTimeout(() => round.set({ layer: current.get("layer") }), 500);
    } else {
      round.set({ ...onto, layer: current.get("layer") });
    }
    mod.toFront(current);
  }

  /**
   * The turn's announcement, for a visible token: whose turn is done (the last visible token in
   * the order) and whose begins. TurnMarker1.js, `handleAnnounceTurnChange`.
   */
  function announceTurn(current, round) {
    if (!settings().announceTurnChange || current.get("layer") === "gmlayer") return;
    const visible = (e) => e.id !== round.id && token(e) && token(e).get("layer") !== "gmlayer";
    const previous = token(order().filter(visible).at(-1));
    mod.sendChat("", `/direct ${previous.get("name")}'s turn is done. ${current.get("name")}, it's now your turn!`);
  }

  /** The window opened (the marker starts) or closed (back to the GM's layer, at rest).
   * TurnMarker1.js, `dispatchInitiativePage`, `startMarker`, `resetMarker`. */
  function windowChanged() {
    if (mod.Campaign().get("initiativepage")) {
      active = true;
      turnChanged(true);
      return;
    }
    active = false;
    marker().set({ layer: "gmlayer", left: 35, top: 35, width: 70, height: 70, rotation: 0,
                   aura1_radius: "", aura2_radius: "", bar1_value: 0 });
  }

  /** A change of the turn order by someone else: only a new first entry counts.
   * TurnMarker1.js, `handleTurnOrderChange`. */
  function orderChanged(campaign, before) {
    const was = JSON.parse(before.turnorder || "[]");
    const now = JSON.parse(campaign.get("turnorder") || "[]");
    if (was.length && now.length && was[0].id !== now[0].id) turnChanged(true);
  }

  /**
   * GroupInitiative rewrote the turn order: a marker entry it rolled for (a reroll) gets
   * pr -1 and goes first; the window's state is looked at again on the next turn of the loop.
   * TurnMarker1.js, `handleExternalTurnOrderChange`.
   */
  function afterGroupInitiative() {
    const round = marker();
    const entries = order();
    const mine = entries.find((e) => e.id === round.id);
    if (mine.pr !== -1) {
      const others = entries.filter((e) => e.id !== round.id
                                           && token(e)?.get("imgsrc") !== settings().tokenURL);
      setOrder([{ ...mine, pr: -1 }, ...others]);
    }
    mod.setTimeout(windowChanged, 0);
  }

  /** Whether a player may end or go back on the current token's turn: the GM, or one who
   * controls the token or its character. TurnMarker1.js, `requestTurnAdvancement`. */
  function mayMove(playerid, entry) {
    if (mod.playerIsGM(playerid)) return true;
    const piece = token(entry);
    const character = piece && mod.getObj("character", piece.get("represents"));
    return [piece, character].some((o) => o && String(o.get("controlledby") ?? "").split(",")
      .some((who) => who === playerid || who === "all"));
  }

  /**
   * The chat commands modelled: `!eot` (the current turn ends: the order turned by one) and
   * `!pot` (back by one), while the window is open, and the GM's `!tm toggle-skip-hidden`.
   * TurnMarker1.js, `handleInput`, `requestTurnAdvancement`, `requestTurnRetreat`.
   */
  function heard(message) {
    if (message.type !== "api") return;
    const [command, option] = message.content.split(/\s+/);
    if (command === "!eot" || command === "!pot") {
      const back = command === "!pot";
      const entries = order();
      if (!active || !mayMove(message.playerid, back ? entries.at(-1) : entries[0])) return;
      setOrder(turned(entries, back ? -1 : 1));
      turnChanged(true, back);
    } else if (command === "!tm" || command === "!turnmarker") {
      if (option !== "toggle-skip-hidden") throw new Error(`the stand-in does not model !tm ${option}`);
      if (mod.playerIsGM(message.playerid)) settings().autoskipHidden = !settings().autoskipHidden;
    }
  }

  mod.on("ready", () => {
    install();
    mod.on("change:campaign:initiativepage", windowChanged);
    mod.on("change:campaign:turnorder", orderChanged);
    mod.on("chat:message", heard);
    windowChanged();
  });
}
