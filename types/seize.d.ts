// What the Seize module adds to Foundry's configuration, declared for the type check: its
// settings and the flags it writes on its own Combat and Combatants.
import type { SeizeFlags } from "../server/vtt/foundry/scripts/sync.mjs";

declare global {
  interface SettingConfig {
    "seize.server": string;
    "seize.table": string;
    "seize.token": string;
  }

  interface FlagConfig {
    Combat: { seize?: { table?: string } };
    Combatant: { seize?: SeizeFlags };
  }
}
