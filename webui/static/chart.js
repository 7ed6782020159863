// The score-over-time chart as inline SVG (no library, works offline).
"use strict";

const scoreChart = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const W = 420, H = 200, PAD = { left: 44, right: 10, top: 10, bottom: 24 };

  function svg(tag, attrs) {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    return node;
  }

  function draw(container, score) {
    container.replaceChildren();
    const series = (score && score.series) || [];
    if (!series.length) { container.append(tableref.el("p", { class: "muted", text: "No scores yet." })); return; }
    const players = score.names.length;
    const all = series.flatMap((p) => p.totals);
    const lo = Math.min(0, ...all), hi = Math.max(1, ...all);
    const x = (i) => PAD.left + (series.length === 1 ? 0 : (i / (series.length - 1)) * (W - PAD.left - PAD.right));
    const y = (v) => H - PAD.bottom - ((v - lo) / (hi - lo)) * (H - PAD.top - PAD.bottom);
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", class: "chart-svg" });
    root.append(svg("line", { x1: PAD.left, y1: y(lo), x2: W - PAD.right, y2: y(lo), class: "axis" }));
    root.append(svg("line", { x1: PAD.left, y1: PAD.top, x2: PAD.left, y2: H - PAD.bottom, class: "axis" }));
    for (const v of [lo, hi]) {
      const label = svg("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" });
      label.textContent = v.toLocaleString("en", { notation: "compact", maximumFractionDigits: 2 });
      root.append(label);
    }
    const caption = svg("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", class: "tick" });
    caption.textContent = "events \u2192";
    root.append(caption);
    for (let p = 0; p < players; p++) {
      const points = series.map((pt, i) => `${x(i).toFixed(1)},${y(pt.totals[p]).toFixed(1)}`).join(" ");
      const colour = (score.colours && score.colours[p]) || "#888";
      root.append(svg("polyline", { points, fill: "none", stroke: colour, "stroke-width": 2.5 }));
      const title = svg("title", {});
      title.textContent = score.names[p];
      root.lastChild.append(title);
    }
    container.append(root);
  }

  return { draw };
})();
