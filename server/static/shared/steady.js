// A press means what the presser saw. When a press goes in, the page draws the next step's
// buttons, often where the last ones were and before the finger has lifted for a second tap:
// that tap, or one already on its way, lands on a button its presser has not seen yet, and
// would send a new, valid command ("Next Panel" pressed twice plays two Panels). So a button
// that was not on screen a moment ago takes no tap or click for a short while. The keyboard is
// not held back: a key goes to what has the focus, never to whatever a finger was over; but the
// console's Space and Enter, which press its step's primary button, hold back as a tap does.

/** How long a newly drawn button takes no press: longer than the gap between the taps of a
 * double tap, shorter than anyone takes to read a new label and press it. */
export const SETTLING_MS = 400;

const until = new WeakMap(); // a button drawn lately → when it takes presses
const drawn = new WeakSet(); // the containers drawn once already

/** What a button does, as its presser knows it: its action and its words. */
const said = (button) => `${button.dataset.action ?? ""}\n${button.textContent}`;

/** Hold ``button`` from presses until ``time``. Marked aria-disabled meanwhile: a screen reader
 * says why a tap did nothing, and a script waits for it as it would for any disabled button. */
function settle(button, time) {
  until.set(button, time);
  button.setAttribute("aria-disabled", "true");
  setTimeout(() => button.removeAttribute("aria-disabled"), time - performance.now());
}

/**
 * Run ``draw``, which redraws ``container``. Each button in it that says what none said before
 * settles for ``SETTLING_MS``; one drawn again as it was keeps the time it had (the same step,
 * redrawn because something else changed, which its presser has seen). The first drawing of a
 * container holds nothing back: no tap was aimed at what was there before.
 */
export function drawnAgain(container, draw) {
  const before = new Map([...container.querySelectorAll("button")]
    .map((button) => [said(button), until.get(button) ?? 0]));
  draw();
  if (!drawn.has(container)) {
    drawn.add(container);
    return;
  }
  const now = performance.now();
  for (const button of container.querySelectorAll("button")) {
    const time = before.get(said(button)) ?? now + SETTLING_MS;
    if (time > now) settle(button, time);
  }
}

// A tap or click on a settling button is dropped before anything else hears of it, and a
// submit button's form is not sent. A key's click (detail 0) and a script's go through. The
// press is timed when the browser took it in (its timeStamp), not when a busy page gets to it:
// a tap made 50 ms after the first is the same double tap when the page hears it late.
document.addEventListener("click", (pressed) => {
  const button = pressed.target instanceof Element && pressed.target.closest("button");
  const at = Math.min(pressed.timeStamp, performance.now());
  if (!button || pressed.detail === 0 || !(until.get(button) > at)) return;
  pressed.preventDefault();
  pressed.stopImmediatePropagation();
}, true);
