// What a real server served for each system (and for participants joined from Foundry tokens),
// written by tests/server/vtt/test_vtt_javascript.py.
import { readFileSync } from "node:fs";

export { until } from "./waiting.mjs";

export const fixtures = JSON.parse(readFileSync(process.env.SEIZE_FIXTURES, "utf8"));
export const SYSTEMS = ["four-color", "megatraveller-rcs", "awareness"];
