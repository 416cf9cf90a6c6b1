// Runs in Roll20's editor, in the page itself (Roll20's Campaign model is a page global). It
// acts only for a GM (Roll20's is_gm) and only in a game linked to a Seize table: the link is
// kept per campaign (Roll20's campaign_id), asked for once per game, and a game the GM declines
// stays unlinked. In a linked game it follows the table, writes its order into Roll20's turn
// order, opens the turn order for the players, and sends the GM's "next" back.
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
    const api = (path, init = {}) => fetch(new URL(path, server), {
      ...init,
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json",
                 ...init.headers },
    });
    let view = null;
    const bridge = new Bridge({
      campaign: window.Campaign,
      view: () => view,
      turnorder: async () => {
        const page = window.Campaign.get("playerpageid") ?? "";
        const path = `/api/tables/${encodeURIComponent(table)}/roll20/turnorder`
          + `?as=public&page=${encodeURIComponent(page)}`;
        return (await api(path)).json();
      },
      send: (command) => api(`/api/tables/${encodeURIComponent(table)}/commands`, {
        method: "POST", body: JSON.stringify(command),
        headers: { "Idempotency-Key": crypto.randomUUID() },
      }),
    });
    const report = (error) => console.error("Seize |", error);
    window.Campaign.on("change:turnorder", () => bridge.changed().catch(report));
    new Link({
      server, table, token,
      onMessage: (message) => {
        if (message.view) {
          view = message.view;
          bridge.refresh().catch(report);
        }
      },
    }).open();
    return undefined;
  };
  start();
})();
