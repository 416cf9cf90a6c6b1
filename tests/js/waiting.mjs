// Waiting for a condition, never for a length of time, in Node's tests and in a browser's page
// alike (no Node-only API here).

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
