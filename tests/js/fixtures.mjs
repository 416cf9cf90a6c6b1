// What a real server served for each system (and for participants joined from Foundry tokens),
// written by tests/server/test_vtt_javascript.py.
import { readFileSync } from "node:fs";

export const fixtures = JSON.parse(readFileSync(process.env.SEIZE_FIXTURES, "utf8"));
export const SYSTEMS = ["four-color", "megatraveller-rcs", "awareness"];

/** Wait until ``condition`` holds, polling between turns of the event loop: never a length of
 * time, so a loaded machine makes a test slower, not red. A condition that never comes fails
 * with ``what`` after a minute, the Python tests' shared patience. */
export async function until(condition, what) {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
