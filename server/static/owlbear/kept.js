// Where a browser keeps its link to the table: the storage of Seize's own origin, under the
// room's id, never Owlbear's room or scene. The popover and the background page of one browser
// share it, and tell each other of a new link or of tokens to link over a channel that stays in
// this browser and this origin (a BroadcastChannel, not Owlbear's broadcast, which Owlbear's own
// page relays).

const channel = new BroadcastChannel("seize-owlbear");

/** This browser's storage for Seize's origin, or null where it is denied to a framed page. */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

let held = null; // where storage is denied, the link lasts while the room is open

const key = (room) => `seize-owlbear:${room}`;

/** The link this browser keeps for ``room``, or null. */
export function remembered(room) {
  return held ?? JSON.parse(storage()?.getItem(key(room)) ?? "null");
}

/** Keep ``link`` for ``room`` (null: forget it), and tell this browser's other pages. */
export function remember(room, link) {
  held = link;
  if (link) storage()?.setItem(key(room), JSON.stringify(link));
  else storage()?.removeItem(key(room));
  channel.postMessage({ type: "linked", room, link });
}

/** Tell this browser's other pages something (``choose``: tokens the GM is linking). */
export function tell(message) {
  channel.postMessage(message);
}

/** Hear what this browser's other pages tell. */
export function hear(type, listener) {
  channel.addEventListener("message", (event) => {
    if (event.data?.type === type) listener(event.data);
  });
}
