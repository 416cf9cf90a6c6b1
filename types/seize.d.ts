// What the Seize module adds to Foundry's configuration, declared for the type check: its
// settings (the GM token under one key per world) and the flags it writes on its own Combat
// (the table, and a GM's request to the active GM) and Combatants.
import type { SeizeFlags } from "../server/vtt/foundry/scripts/sync.mjs";

declare global {
  interface SettingConfig {
    "seize.server": string;
    "seize.table": string;
    [world: `seize.token-${string}`]: string;
  }

  interface FlagConfig {
    Combat: { seize?: { table?: string; request?: { what: string; id: string } } };
    Combatant: { seize?: SeizeFlags };
  }
}
