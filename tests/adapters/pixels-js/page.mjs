// The Pixel of the library the player page serves (the vendored pixels-web-connect bundle,
// its path the first argument), connected as the page connects it to the die named by the
// second argument, over a session whose radio is this process's stdin and stdout, one JSON
// object a line:
//   out {"write": hex}        what the library writes to the die
//   in  {"notify": hex}       what the die notifies
//   out {"ready": {...}}      the die as the library knows it once connected
//   out {"roll": face}        the library's "roll" event, which the page enters
//   out {"battery": {...}}    a change of battery level or charging
//   in  {"blink": true}       blink as the page does when the turn comes; out {"blinked": true}
//   in  {"quit": true}

import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const require = createRequire(import.meta.url);
const library = require(process.argv[2]);
const { Pixel, PixelSession, Color, repeatConnect } = library;

const say = (line) => process.stdout.write(`${JSON.stringify(line)}\n`);
const hex = (data) => Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data)
  .toString("hex");

class LineSession extends PixelSession {
  listener = null;

  async connect() {
    this._notifyConnectionEvent("connecting");
    this._notifyConnectionEvent("connected");
  }

  async disconnect() {
    this._notifyConnectionEvent("disconnected");
  }

  dispose() {}

  async subscribe(listener) {
    this.listener = listener;
    return () => { this.listener = null; };
  }

  async writeValue(data) {
    say({ write: hex(data) });
  }

  notify(text) {
    this.listener?.(new DataView(Uint8Array.from(Buffer.from(text, "hex")).buffer));
  }
}

const session = new LineSession("simulated-die", process.argv[3]);
const pixel = new Pixel(session);
const known = () => ({ pixelId: pixel.pixelId, name: pixel.name, dieType: pixel.dieType,
  dieFaceCount: pixel.dieFaceCount, ledCount: pixel.ledCount,
  firmwareDate: pixel.firmwareDate.getTime() / 1000, batteryLevel: pixel.batteryLevel,
  isCharging: pixel.isCharging, rollState: pixel.rollState,
  currentFaceIndex: pixel.currentFaceIndex, status: pixel.status });

for await (const line of createInterface({ input: process.stdin })) {
  const told = JSON.parse(line);
  if (told.start) {
    pixel.addEventListener("roll", (face) => say({ roll: face }));
    pixel.addEventListener("battery", (battery) => say({ battery }));
    repeatConnect(pixel).then(() => say({ ready: known() }),
      (error) => say({ failed: String(error) }));
  } else if (told.notify) {
    session.notify(told.notify);
  } else if (told.blink) {
    // As server/static/play/dice.js blinks a die when the player's turn comes.
    pixel.blink(Color.brightBlue, { count: 3, duration: 1500 })
      .then(() => say({ blinked: true }), (error) => say({ failed: String(error) }));
  } else if (told.quit) {
    break;
  }
}
process.exit(0);
