// The current state drawn for the game being played (one small drawer per game; any other
// game is shown as its JSON). Everything is built with DOM calls: no markup from data.
"use strict";

const boardView = (() => {
  const el = (...a) => tableref.el(...a);
  const CUBE = { brown: "#7b4a25", orange: "#f28c28", yellow: "#f2d024", green: "#3aa845", red: "#d12f2f", blue: "#2d6fd1" };
  const SPACE = { R: "#d12f2f", Y: "#f2d024", G: "#3aa845", B: "#2d6fd1" };

  function swatch(colour, text, cls) {
    const node = el("span", { class: cls || "chip", text: text || "" });
    node.style.background = colour;
    return node;
  }

  function playerColour(players, i) { return (players[i] && players[i].colour) || "#888"; }
  function playerName(players, i) { return (players[i] && players[i].name) || "player " + i; }

  function dolcevita(state, players) {
    const grid = el("div", { class: "dv-grid" });
    state.columns.forEach((column, c) => {
      const col = el("div", { class: "dv-column" }, [el("div", { class: "dv-head", text: "column " + (c + 1) })]);
      for (let s = 8; s >= 0; s--) {
        const label = column[s] || "";
        col.append(el("div", { class: "dv-card" + (label ? "" : " empty"), text: label.replace(":", " ") }));
      }
      const under = el("div", { class: "dv-under" });
      for (const [p, v] of state.under[c]) under.append(swatch(playerColour(players, p), String(v)));
      col.append(under);
      grid.append(col);
    });
    const owners = el("ul", { class: "owners" });
    for (let p = 0; p < state.players; p++) {
      const cards = state.goods[p].concat(state.money[p].map((v) => "money " + v));
      owners.append(el("li", {}, [swatch(playerColour(players, p), playerName(players, p)),
        document.createTextNode(" " + (cards.join(", ") || "nothing yet"))]));
    }
    return [el("p", { class: "muted", text: `round ${state.round} \u00b7 ${state.phase}` }), grid, owners];
  }

  function ligretto(state, players) {
    const rows = state.board.rows;
    const owner = {};
    for (const piece of state.pieces) for (const [r, c] of piece.cells) owner[r + "," + c] = piece;
    const tokens = new Set(state.tokens.map(([r, c]) => r + "," + c));
    const table = el("table", { class: "lg-board" });
    rows.forEach((row, r) => {
      const tr = el("tr");
      [...row].forEach((letter, c) => {
        const td = el("td");
        if (letter === ".") td.className = "none";
        else td.style.background = SPACE[letter] || "#ccc";
        const piece = owner[r + "," + c];
        if (piece) {
          td.classList.add(piece.faults.length ? "fault" : "covered");
          td.style.outlineColor = playerColour(players, piece.player);
          td.title = playerName(players, piece.player) + " " + piece.kind + " " + piece.id;
        }
        if (tokens.has(r + "," + c)) td.append(el("span", { class: "token", text: "\u25cf" }));
        tr.append(td);
      });
      table.append(tr);
    });
    const hands = el("ul", { class: "owners" });
    for (let p = 0; p < state.players; p++) {
      hands.append(el("li", {}, [swatch(playerColour(players, p), playerName(players, p)),
        document.createTextNode(` ${state.hands[p].length} cards in hand, ${state.player_boards[p].length} on the player board`)]));
    }
    return [el("p", { class: "muted", text: `round ${state.round} \u00b7 ${state.phase}` }), table, hands];
  }

  function cubes(names) {
    const box = el("span", { class: "cubes" });
    for (const name of names) box.append(swatch(CUBE[name] || "#888", "", "cube"));
    return box;
  }

  function daluigi(state, players) {
    const market = el("div", { class: "dl-market" });
    state.market.forEach((field, f) => market.append(el("div", { class: "dl-field" }, [el("small", { text: "field " + f }), cubes(field)])));
    const strips = el("div", { class: "dl-strips" });
    state.strips.forEach((strip, p) => {
      const row = el("div", { class: "dl-strip" }, [swatch(playerColour(players, p), playerName(players, p))]);
      strip.forEach((guest) => row.append(el("span", { class: "dl-slot" }, guest ? [el("small", { text: guest.card }), cubes(guest.cubes)] : [])));
      row.append(el("span", { class: "muted", text: " supply " }), cubes(state.supply[p]));
      strips.append(row);
    });
    return [el("p", { class: "muted", text: `turn ${state.turn} \u00b7 ${state.phase}` }), market, strips];
  }

  const DRAWERS = { dolcevita, ligretto, daluigi };

  function draw(container, view) {
    container.replaceChildren();
    if (!view.game || !view.state) { container.append(el("p", { class: "muted", text: "No game." })); return; }
    const players = view.game.players;
    const drawer = DRAWERS[view.game.game];
    try {
      if (drawer) { container.append(...drawer(view.state, players)); return; }
    } catch (e) { container.replaceChildren(); }
    container.append(el("pre", { class: "json", text: JSON.stringify(view.state, null, 1) }));
  }

  return { draw };
})();
