// The setup page: source, game, players (names and colours), calibration status, start and stop.
"use strict";

(() => {
  const { api, el, showMessage } = tableref;

  function showPlayerRows() {
    const count = Number(document.getElementById("count").value) || 2;
    document.querySelectorAll(".player-row").forEach((row) => { row.hidden = Number(row.dataset.index) >= count; });
  }

  function showView(view) {
    tableref.showGameTitle(view);
    document.getElementById("game-running").hidden = !view.game;
    document.getElementById("start-form").hidden = Boolean(view.game);
    if (view.game) {
      document.getElementById("running-name").textContent = view.game.game;
      document.getElementById("running-id").textContent = view.game.id;
    }
    document.getElementById("source-now").textContent = view.source.spec || "none";
    document.getElementById("source-state").textContent = view.source.status ? view.source.status.state : (view.source.error || "not open");
  }

  function fmt(value, digits) { return value === null || value === undefined ? "-" : Number(value).toFixed(digits); }

  function showCalibration(status) {
    const box = document.getElementById("calibration");
    box.replaceChildren();
    if (!status.profile) {
      box.append(el("p", { class: "warn", text: "No calibration profile: run tableref calibrate and start with --profile PATH." }));
    }
    if (status.intrinsics) box.append(el("p", { text: `Camera: ${status.intrinsics.image_size.join("x")} px, RMS ${fmt(status.intrinsics.rms_px, 3)} px` }));
    if (status.table) {
      const r = status.table.reprojection;
      box.append(el("p", { text: `Table: ${status.table.table_mm.join(" x ")} mm, markers used ${status.table.markers_used.join(", ")} of ${status.table.markers_expected.join(", ")}` }));
      box.append(el("p", { text: `Reprojection error: RMS ${fmt(r.rms_mm, 2)} mm (${fmt(r.rms_px, 2)} px), worst ${fmt(r.max_mm, 2)} mm` }));
    }
    if (status.models) {
      const m = status.models;
      if (m.error) box.append(el("p", { class: "warn", text: m.error }));
      for (const card of m.cards || []) {
        box.append(el("p", { class: card.error ? "warn" : "", text: card.error ? `Adapted model ${card.name}: ${card.error}`
          : `Adapted to your set (tableref enrol, ${card.date}): ${card.name}, ${fmt(100 * card.accuracy, 1)} % of ${card.measured_on}` }));
      }
    }
    if (status.markers_seen) {
      const seen = status.markers_seen;
      box.append(el("p", { class: seen.error || (seen.missing && seen.missing.length) ? "warn" : "",
        text: seen.error ? seen.error : `Markers in the picture now: ${seen.ids.join(", ") || "none"}` + (seen.missing.length ? `; missing: ${seen.missing.join(", ")}` : "") }));
    }
  }

  document.getElementById("count").addEventListener("input", showPlayerRows);
  document.getElementById("source-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    try { await api("/api/source", { method: "POST", json: { spec: document.getElementById("source").value } }); showMessage("Source changed.", "info"); } catch (err) { /* shown */ }
  });
  document.getElementById("start-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const count = Number(document.getElementById("count").value) || 2;
    const players = [...document.querySelectorAll(".player-row")].slice(0, count).map((row) => ({
      name: row.querySelector(".player-name").value, colour: row.querySelector(".player-colour").value }));
    const body = { game: document.getElementById("game").value, players };
    const seed = document.getElementById("seed").value;
    if (seed !== "") body.seed = Number(seed);
    try { await api("/api/game/start", { method: "POST", json: body }); showMessage("The game has started.", "info"); } catch (err) { /* shown */ }
  });
  document.getElementById("stop").addEventListener("click", async () => {
    try { await api("/api/game/stop", { method: "POST", json: {} }); showMessage("The game was stopped.", "info"); } catch (err) { /* shown */ }
  });
  document.getElementById("find-markers").addEventListener("click", () => api("/api/calibration?detect=1").then(showCalibration).catch(() => {}));

  showPlayerRows();
  api("/api/calibration").then(showCalibration).catch(() => {});
  tableref.live({ state: showView, live: tableref.showLive });
})();
