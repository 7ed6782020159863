// The dashboard: live state, scores, flags, corrections and the event log, kept current by
// server-sent events (no reloads).
"use strict";

(() => {
  const { api, el, showMessage } = tableref;
  let view = null;
  let gameId = null;
  let rounds = [];  // the score series' round ends: {round, totals}, one scoreboard column each
  const logged = new Set();

  const snapshotUrl = (ev) => `/api/games/${encodeURIComponent(ev.game_id)}/events/${ev.seq}/snapshot.jpg`;
  const time = (at) => new Date(at * 1000).toLocaleTimeString();

  function renderScores() {
    const body = document.querySelector("#scoreboard tbody");
    const head = document.querySelector("#scoreboard thead tr");
    body.replaceChildren();
    head.replaceChildren(el("th", { text: "Player" }),
      ...rounds.map((r) => el("th", { class: "num round", text: "Round " + r.round })), el("th", { class: "num", text: "Score" }));
    const result = document.getElementById("result");
    result.hidden = true;
    if (!view.game || !view.score) return;
    view.game.players.forEach((player, i) => {
      const swatch = el("span", { class: "chip" });
      swatch.style.background = player.colour;
      const won = view.score.final && view.score.winners.includes(i);
      body.append(el("tr", { class: won ? "winner" : "" }, [
        el("td", {}, [swatch, document.createTextNode(" " + player.name)]),
        ...rounds.map((r) => el("td", { class: "num round", text: String((r.totals[i] || 0).toLocaleString()) })),
        el("td", { class: "num total", text: String(view.score.totals[i].toLocaleString()) }),
      ]));
    });
    if (view.score.final) {
      const names = view.score.winners.map((w) => view.game.players[w].name).join(" and ");
      result.textContent = `Game over: ${names} won.` + (view.score.tiebreak ? " " + view.score.tiebreak : "");
      result.hidden = false;
    }
  }

  function renderFlags() {
    const list = document.getElementById("flags");
    list.replaceChildren();
    document.getElementById("no-flags").hidden = view.flags.length > 0;
    for (const flag of view.flags) {
      const item = el("li", { class: "flag" });
      for (const v of flag.data.violations || []) {
        const who = v.player === null || v.player === undefined ? "Table" : (view.game.players[v.player] || {}).name || "player " + v.player;
        item.append(el("p", {}, [el("strong", { text: who + ": " }), document.createTextNode(v.sentence),
          el("span", { class: "muted", text: ` (rule ${v.rule || v.code})` })]));
      }
      if (flag.has_snapshot) item.append(el("img", { class: "snapshot", src: snapshotUrl(flag), alt: "The frame with the offending piece outlined" }));
      const accept = el("button", { type: "button", text: "Accept the move" });
      accept.addEventListener("click", () => decide(flag.seq, "accept"));
      const undo = el("button", { type: "button", text: "Undo the move" });
      undo.addEventListener("click", () => decide(flag.seq, "undo"));
      item.append(el("div", { class: "actions" }, [accept, undo]));
      list.append(item);
    }
  }

  async function decide(seq, what) {
    try {
      await api(`/api/flags/${seq}/${what}`, { method: "POST", json: {} });
      showMessage("", "");
    } catch (e) { /* shown by api() */ }
  }

  function renderItems() {
    const body = document.getElementById("items");
    body.replaceChildren();
    const observation = view.observation;
    const form = document.getElementById("correct-items");
    form.hidden = !(observation && Array.isArray(observation.items));
    if (form.hidden) return;
    observation.items.forEach((item, i) => {
      const input = el("input", { type: "text", value: item.label, "data-index": String(i), "aria-label": "label at " + item.where });
      body.append(el("tr", {}, [el("td", { text: item.where }), el("td", {}, [input])]));
    });
  }

  function fillJsonEditor() {
    const kind = document.getElementById("correct-kind").value;
    const source = kind === "state" ? view.state : view.observation;
    document.getElementById("correct-json").value = source ? JSON.stringify(source, null, 1) : "";
  }

  function render(newView) {
    view = newView;
    tableref.showGameTitle(view);
    document.getElementById("no-game").hidden = Boolean(view.game);
    renderScores();
    renderFlags();
    boardView.draw(document.getElementById("board"), view);
    if (!document.activeElement || !document.getElementById("correct-items").contains(document.activeElement)) renderItems();
    const newGame = view.game ? view.game.id : null;
    if (newGame !== gameId) {
      gameId = newGame;
      document.getElementById("log").replaceChildren();
      logged.clear();
      loadHistory();
    }
  }

  function addLog(ev) {
    const key = ev.game_id + "/" + ev.seq;
    if (logged.has(key) || ev.game_id !== gameId) return;
    logged.add(key);
    const item = el("li", { class: "ev " + ev.kind, value: String(ev.seq) }, [
      el("span", { class: "when", text: time(ev.at) }), document.createTextNode(" " + ev.summary)]);
    if (ev.has_snapshot) {
      const link = el("a", { href: snapshotUrl(ev), target: "_blank" }, [el("img", { class: "thumb", src: snapshotUrl(ev), alt: "snapshot of event " + ev.seq })]);
      item.append(link);
    }
    document.getElementById("log").prepend(item);
  }

  async function loadHistory() {
    rounds = [];
    if (!gameId) { scoreChart.draw(document.getElementById("chart"), null); return; }
    const page = await api(`/api/events?game=${encodeURIComponent(gameId)}`);
    page.events.forEach(addLog);
    await refreshChart();
  }

  async function refreshChart() {
    if (!gameId) return;
    const score = await api(`/api/score?game=${encodeURIComponent(gameId)}`);
    if (score.game_id !== gameId) return;
    scoreChart.draw(document.getElementById("chart"), score);
    rounds = score.series.filter((point) => point.kind === "round_end" && point.round !== null);
    if (view) renderScores();
  }

  async function sendCorrection(payload) {
    try {
      await api("/api/correct", { method: "POST", json: payload });
      showMessage("Correction recorded.", "info");
    } catch (e) { /* shown by api() */ }
  }

  document.getElementById("correct-items").addEventListener("submit", (e) => {
    e.preventDefault();
    const observation = JSON.parse(JSON.stringify(view.observation));
    for (const input of document.querySelectorAll("#items input")) observation.items[Number(input.dataset.index)].label = input.value;
    sendCorrection({ observation });
  });
  document.getElementById("correct-kind").addEventListener("change", fillJsonEditor);
  document.querySelector("details").addEventListener("toggle", fillJsonEditor);
  document.getElementById("send-json").addEventListener("click", () => {
    const kind = document.getElementById("correct-kind").value;
    let parsed;
    try { parsed = JSON.parse(document.getElementById("correct-json").value); } catch (e) { showMessage("That is not valid JSON: " + e.message); return; }
    sendCorrection({ [kind]: parsed });
  });
  document.getElementById("camera").addEventListener("error", () => showMessage("The camera view is not available.", "warn"));

  api("/api/state").then(render).catch(() => {});
  tableref.live({
    state: render,
    event: (ev) => { addLog(ev); refreshChart().catch(() => {}); },
    live: tableref.showLive,
  });
})();
