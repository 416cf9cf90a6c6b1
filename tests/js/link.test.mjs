import assert from "node:assert/strict";
import { test } from "node:test";

import { ANSWER_WAIT, Link, socketUrl } from "../../server/vtt/foundry/scripts/link.mjs";

const tick = () => new Promise((resolve) => setImmediate(resolve));

class FakeSocket {
  static opened = [];
  constructor(url) {
    this.url = url;
    FakeSocket.opened.push(this);
  }
  receive(data) { this.onmessage({ data: JSON.stringify(data) }); }
  drop() { this.onclose({ code: 1006 }); }
  close() { this.onclose?.({ code: 1005 }); }
}

function link(received, options = {}) {
  FakeSocket.opened = [];
  const timers = [];
  const made = new Link({
    server: "http://127.0.0.1:8080", table: "t1", token: "secret",
    onMessage: (message) => received.push(message.seq),
    WebSocket: FakeSocket, setTimeout: (fn, ms) => timers.push({ fn, ms }), maxDelay: 4000,
    probe: async () => 200, ...options,
  });
  return { made, timers };
}

test("wss when the server is https, ws otherwise", () => {
  assert.match(socketUrl("https://seize.example/", "t", "k", 0), /^wss:\/\/seize\.example\/api\/tables\/t\/ws\?token=k$/);
  assert.match(socketUrl("http://127.0.0.1:8080", "t", "k", 7), /^ws:\/\/127\.0\.0\.1:8080\/api\/tables\/t\/ws\?token=k&after=7$/);
});

test("a dropped link reconnects with growing pauses and resumes from the last sequence", async () => {
  const received = [];
  const { made, timers } = link(received);
  made.open();
  const first = FakeSocket.opened[0];
  first.receive({ type: "view", seq: 4 });
  first.receive({ type: "event", seq: 5 });
  first.drop();
  await tick();
  assert.equal(timers[0].ms, 500);
  timers[0].fn();
  const second = FakeSocket.opened[1];
  assert.match(second.url, /after=5$/);
  second.receive({ type: "event", seq: 5 }); // already seen: not passed on again
  second.receive({ type: "event", seq: 6 });
  assert.deepEqual(received, [4, 5, 6]);
  second.drop();
  await tick();
  timers[1].fn();
  FakeSocket.opened[2].drop();
  await tick();
  timers[2].fn();
  FakeSocket.opened[3].drop();
  await tick();
  assert.deepEqual(timers.map((t) => t.ms), [500, 1000, 2000, 4000]);
});

test("an open link resets the pause, a goodbye is not a message, and close stops it", async () => {
  const received = [];
  const { made, timers } = link(received);
  made.open();
  FakeSocket.opened[0].drop();
  await tick();
  timers[0].fn();
  FakeSocket.opened[1].onopen();
  FakeSocket.opened[1].receive({ type: "bye", seq: 0, reason: "too slow" });
  assert.deepEqual(received, []);
  made.close();
  assert.equal(timers.length, 1); // closed on purpose: no reconnect
  assert.equal(made.delay, 500);
});

test("a closed link stays closed: a reconnection already planned does not reopen it", () => {
  const { made, timers } = link([]);
  made.open();
  FakeSocket.opened[0].onopen?.();
  FakeSocket.opened[0].drop(); // a server restart: a reconnection is planned
  assert.equal(timers.length, 1);
  made.close(); // then the settings change, or another GM becomes the active one
  timers[0].fn();
  assert.equal(FakeSocket.opened.length, 1, "no second socket");
});

test("a revoked token (1008) stops the link for good and says why", () => {
  const stops = [];
  const { made, timers } = link([], { onStop: (reason) => stops.push(reason) });
  made.open();
  FakeSocket.opened[0].onopen?.();
  FakeSocket.opened[0].onclose({ code: 1008 });
  assert.deepEqual(timers, []);
  assert.deepEqual(stops, ["revoked"]);
});

for (const [status, reason] of [[401, "unauthorized"], [404, "unknown-table"]]) {
  test(`a link refused before it opens asks the table: ${status} stops it`, async () => {
    const stops = [];
    const { made, timers } = link([], { onStop: (r) => stops.push(r), probe: async () => status });
    made.open();
    FakeSocket.opened[0].onclose({ code: 1006 });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(timers, []);
    assert.deepEqual(stops, [reason]);
  });
}

test("a server that is down is tried again: only a refused token or table stops the link", async () => {
  const stops = [];
  const { made, timers } = link([], { onStop: (r) => stops.push(r), probe: async () => 502 });
  made.open();
  FakeSocket.opened[0].onclose({ code: 1006 });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(timers.length, 1);
  assert.deepEqual(stops, []);
});

/** A link whose socket is open, and whose POSTs are recorded (and answered ``status``). */
function commanding(status = 200) {
  const posted = [];
  const post = async (command, key) => {
    posted.push({ command, key });
    return { ok: status === 200, status, body: status === 200 ? { seq: 9 } : { message: "no" } };
  };
  const { made, timers } = link([], { post });
  made.open();
  const socket = FakeSocket.opened[0];
  socket.sent = [];
  socket.send = (text) => socket.sent.push(JSON.parse(text));
  socket.onopen();
  return { made, timers, socket, posted };
}

test("a command goes on the open socket, and its answer there is the command's", async () => {
  const { made, socket, posted } = commanding();
  const first = made.send({ type: "next_panel" }, "key-1");
  const second = made.send({ type: "deal" }, "key-2");
  assert.deepEqual(socket.sent, [
    { type: "command", id: "1", command: { type: "next_panel" }, idempotency_key: "key-1" },
    { type: "command", id: "2", command: { type: "deal" }, idempotency_key: "key-2" },
  ]);
  socket.receive({ type: "event", seq: 7, event: {} }); // news, not an answer
  socket.receive({ type: "refused", id: "2", status: 409,
                   problem: { error: "stale", message: "the table moved on" } });
  socket.receive({ type: "answer", id: "1", seq: 8, events: [] });
  assert.deepEqual(await first, { ok: true, status: 200, body: { seq: 8, events: [] } });
  assert.deepEqual(await second, { ok: false, status: 409,
                                   body: { error: "stale", message: "the table moved on" } });
  assert.deepEqual(posted, []);
  assert.equal(made.seq, 7, "an answer's seq is not news: the events before it bring it");
});

test("a command sent while the socket is not open goes as a POST", async () => {
  const posted = [];
  const { made } = link([], { post: async (command, key) => {
    posted.push({ command, key });
    return { ok: true, status: 200, body: {} };
  } });
  made.open(); // connecting, not open yet
  assert.deepEqual(await made.send({ type: "deal" }, "k"), { ok: true, status: 200, body: {} });
  assert.deepEqual(posted, [{ command: { type: "deal" }, key: "k" }]);
});

test("a socket that closes before the answer sends the command again as a POST, same key", async () => {
  const { made, socket, posted } = commanding();
  const sending = made.send({ type: "next_panel" }, "key-1");
  socket.drop();
  assert.deepEqual(await sending, { ok: true, status: 200, body: { seq: 9 } });
  assert.deepEqual(posted, [{ command: { type: "next_panel" }, key: "key-1" }]);
  assert.equal(made.live, null);
  assert.deepEqual(await made.send({ type: "deal" }, "key-2"), { ok: true, status: 200,
                                                                 body: { seq: 9 } });
  assert.equal(socket.sent.length, 1, "nothing more on a closed socket");
});

test("a silent socket: after the wait the command goes as a POST, and the socket is renewed", async () => {
  const { made, timers, socket, posted } = commanding(422);
  const sending = made.send({ type: "next_panel" }, "key-1");
  const wait = timers.find((timer) => timer.ms === ANSWER_WAIT);
  wait.fn();
  assert.deepEqual(await sending, { ok: false, status: 422, body: { message: "no" } });
  assert.deepEqual(posted, [{ command: { type: "next_panel" }, key: "key-1" }]);
  socket.receive({ type: "answer", id: "1", seq: 8 }); // too late: answered once, by the POST
  assert.equal(FakeSocket.opened.length, 1);
  timers.find((timer) => timer.ms === 500).fn(); // the link reconnects, as after any drop
  assert.equal(FakeSocket.opened.length, 2);
});

test("an answer in time leaves nothing for the wait to resend", async () => {
  const { made, timers, socket, posted } = commanding();
  const sending = made.send({ type: "next_panel" }, "key-1");
  socket.receive({ type: "answer", id: "1", seq: 8 });
  await sending;
  timers.find((timer) => timer.ms === ANSWER_WAIT).fn();
  assert.deepEqual(posted, []);
  assert.equal(made.live, socket, "the socket stays");
});

test("a link closed on purpose sends what its socket still held as a POST", async () => {
  const { made, socket, posted } = commanding();
  const sending = made.send({ type: "next_panel" }, "key-1");
  made.close();
  assert.deepEqual(await sending, { ok: true, status: 200, body: { seq: 9 } });
  assert.deepEqual(posted, [{ command: { type: "next_panel" }, key: "key-1" }]);
  assert.equal(FakeSocket.opened.length, 1);
  assert.equal(socket.sent.length, 1);
});

test("a dice request is answered on the socket it went on, and a socket lost answers it with why", async () => {
  const received = [];
  const { made } = link(received);
  made.open();
  const socket = FakeSocket.opened[0];
  const sent = [];
  socket.send = (text) => sent.push(JSON.parse(text));
  assert.deepEqual(await made.roll({ owner: "jena", sides: 20, count: 1 }),
                   { faces: null, why: "offline" }, "no socket open: nothing sent");
  socket.onopen();
  const rolled = made.roll({ owner: "jena", sides: 20, count: 2, wait: 60 });
  const refused = made.roll({ owner: "guard", sides: 20, count: 1 });
  const lost = made.roll({ owner: "gm", sides: 6, count: 1 });
  assert.deepEqual(sent.map(({ id, ...request }) => request), [
    { type: "dice", owner: "jena", sides: 20, count: 2, wait: 60 },
    { type: "dice", owner: "guard", sides: 20, count: 1 },
    { type: "dice", owner: "gm", sides: 6, count: 1 }]);
  socket.receive({ type: "dice-asked", id: sent[0].id, dice: ["Jena's d20"], claim: false });
  socket.receive({ type: "refused", id: sent[1].id, status: 403, problem: { message: "not yours" } });
  socket.receive({ type: "dice-rolled", id: sent[0].id, faces: [17, 4], dice: ["a", "a"] });
  assert.deepEqual(await rolled, { faces: [17, 4], dice: ["a", "a"] });
  assert.deepEqual(await refused, { faces: null, why: "refused", message: "not yours" });
  socket.drop();
  assert.deepEqual(await lost, { faces: null, why: "lost" });
  assert.deepEqual(received, [], "none of it is a view or an event");
});
