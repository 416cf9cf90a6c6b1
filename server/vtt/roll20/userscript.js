// Runs in Roll20's editor, in the page itself (Roll20's Campaign model is a page global). It
// acts only for a GM (Roll20's is_gm) and only in a game linked to a Seize table: the link is
// kept per campaign (Roll20's campaign_id), asked for once per game, and a game the GM declines
// stays unlinked. In a linked game it follows the table, writes its order into Roll20's turn
// order, opens the turn order for the players, and sends the GM's "next" back, on the table's
// WebSocket it already follows (a POST when that cannot carry it). Each GM tab runs it; the tabs
// elect one, through a lock kept in the campaign, to write and send.
(function seizeBridge() {
  const server = SEIZE_SERVER;
  const start = () => {
    if (!window.Campaign) return setTimeout(start, 1000); // Roll20 still loading
    const campaign = String(window.campaign_id ?? "");
    if (window.is_gm !== true || !campaign) return undefined;
    if (mayAsk(localStorage, { campaign, isGm: window.is_gm })) {
      const table = window.prompt("Seize: link this Roll20 game to a Seize table? Its table id "
                                  + "(leave empty to never ask in this game again)");
      const token = table ? window.prompt("Seize: the table's GM token") : null;
      rememberLink(localStorage, campaign, table && token ? { table, token } : null);
    }
    const linked = linkedTable(localStorage, campaign);
    if (!linked) return undefined;
    const { table, token } = linked;
    const api = (path) => fetch(new URL(path, server),
                                { headers: { Authorization: `Bearer ${token}` } });
    const report = (error) => console.error("Seize |", error);
    // A word to the GM, in a line over the editor that stays until the next one.
    const tell = (message) => {
      console.warn("Seize |", message);
      let notice = document.getElementById("seize-notice");
      if (!notice) {
        notice = document.createElement("div");
        notice.id = "seize-notice";
        notice.setAttribute("role", "status");
        notice.style.cssText = "position:fixed;top:0;left:50%;transform:translateX(-50%);"
          + "z-index:100000;padding:4px 12px;background:#fff8c4;color:#222;font:14px sans-serif;"
          + "border:1px solid #b59b00;border-radius:0 0 6px 6px;";
        document.body.append(notice);
      }
      notice.textContent = `Seize: ${message}`;
    };
    let view = null;
    let seq = 0;
    // Every GM tab runs this; one writes. The lease is renewed every few seconds, and a tab
    // that closes lets go (or its lease runs out), so another takes over.
    const election = new Election({
      campaign: window.Campaign, tab: crypto.randomUUID(), ttl: 15000,
    });
    const link = new Link({
      server, table, token,
      onMessage: (message) => {
        seq = message.seq;
        if (message.view) {
          view = message.view;
          bridge.refresh().catch(report);
        }
      },
      onStop: (reason) => {
        console.error("Seize | the link to the table stopped:", reason);
        window.alert(`Seize: the link to table ${table} stopped (${reason}). `
                     + "Link this game again with the table's current GM token.");
      },
    });
    const bridge = new Bridge({
      campaign: window.Campaign,
      view: () => view,
      table,
      seq: () => seq,
      election,
      tell,
      turnorder: async () => {
        const page = window.Campaign.get("playerpageid") ?? "";
        const path = `/api/tables/${encodeURIComponent(table)}/roll20/turnorder`
          + `?as=public&page=${encodeURIComponent(page)}`;
        const answer = await api(path);
        if (!answer.ok) throw new Error(`Seize answered ${answer.status}`);
        return answer.json();
      },
      send: async (command, key) => {
        const answer = await link.send(command, key);
        if (!answer.ok) console.warn("Seize |", answer.status, problemOf(answer));
      },
    });
    let leading = false;
    const heartbeat = () => {
      const now = election.tick();
      if (now && !leading) bridge.refresh().catch(report); // just took over
      leading = now;
    };
    heartbeat();
    setInterval(heartbeat, 5000);
    window.addEventListener("pagehide", () => election.release());
    window.Campaign.on("change:turnorder", () => bridge.changed().catch(report));
    link.open();
    return undefined;
  };
  start();
})();
