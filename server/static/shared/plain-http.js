// A phone's page over plain http has no secure context: the browser holds back installing it,
// notifications and Web Push, keeping the screen on and Web Bluetooth (dice). The player is told
// once, in a player's words, and the GM beside the links handed out, with what fixes it.
import { h } from "/static/shared/client.js";

const FIX = "seize serve --share auto";
const OFFLINE = "--share lan-ca";
const SEEN = "seize:plain-http-told";

/** Whether a link's page will lack a secure context on a phone: http, not this machine. */
export function plainHttp(url) {
  const at = new URL(url, location.href);
  const local = ["localhost", "127.0.0.1", "[::1]"].includes(at.hostname)
    || at.hostname.endsWith(".localhost");
  return at.protocol === "http:" && !local;
}

/** The player's notice, once per browser: null on a secure page, or once dismissed. */
export function playerNotice() {
  if (window.isSecureContext || localStorage.getItem(SEEN)) return null;
  const notice = h("aside", { class: "plain-http", "data-notice": "plain-http",
                              "aria-label": "What this link cannot do" },
    h("p", {}, "This link is plain http, so your browser holds back part of this page: it "
      + "cannot be installed as an app, notify you of your turn while the page is closed or "
      + "out of sight, keep your screen on, or connect your smart dice. It still flags and "
      + "vibrates when your turn comes while it is open."),
    h("p", {}, "Ask the GM for an https link: they start Seize with ",
      h("code", {}, FIX), " (or ", h("code", {}, OFFLINE), " without the internet)."),
    h("button", { type: "button", onclick: () => {
      localStorage.setItem(SEEN, "1");
      notice.remove();
    } }, "Got it"));
  return notice;
}

/** The GM's notice beside a link handed out: null for an https (or this machine's) link. */
export function gmNotice(url) {
  if (!plainHttp(url)) return null;
  return h("p", { class: "plain-http", "data-notice": "plain-http" },
    "A phone on this plain-http link cannot install the page, get turn alerts, keep its "
    + "screen on or pair dice. Start Seize with ", h("code", {}, FIX), " (Tailscale or "
    + "cloudflared) or ", h("code", {}, OFFLINE), " (this network, offline) and hand out the "
    + "links again.");
}
