// Runs in the GM's Roll20 tab. Asks once for the table and its GM token (kept in this browser),
// follows the table, writes its order into Roll20's turn order, and sends "next" back.
(function seizeBridge() {
  const server = SEIZE_SERVER;
  const ask = (key, question) => {
    let value = localStorage.getItem(`seize:${key}`);
    if (!value) {
      value = window.prompt(question);
      if (value) localStorage.setItem(`seize:${key}`, value);
    }
    return value;
  };
  const start = () => {
    if (!window.Campaign) return setTimeout(start, 1000); // Roll20 still loading
    const table = ask("table", "Seize: the table id this game follows");
    const token = ask("token", "Seize: the table's GM token");
    if (!table || !token) return undefined;
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
    window.Campaign.on("change:turnorder", () => bridge.changed());
    new Link({
      server, table, token,
      onMessage: (message) => {
        if (message.view) {
          view = message.view;
          bridge.refresh();
        }
      },
    }).open();
    return undefined;
  };
  start();
})();
