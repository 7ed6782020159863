// Shared helpers: API calls with the CSRF token, messages, the live update stream.
"use strict";

const tableref = (() => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const messageBox = document.getElementById("message");

  function showMessage(text, kind) {
    messageBox.textContent = text;
    messageBox.className = "message " + (kind || "error");
    messageBox.hidden = !text;
  }

  async function api(path, options) {
    const opts = Object.assign({ method: "GET", headers: {} }, options || {});
    if (opts.method !== "GET") {
      opts.headers["X-CSRF-Token"] = token;
      if (opts.json !== undefined) {
        opts.headers["Content-Type"] = "application/json";
        opts.body = JSON.stringify(opts.json);
      }
    }
    const response = await fetch(path, opts);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const text = (data && data.error) || response.status + " " + response.statusText;
      showMessage(text, "error");
      throw new Error(text);
    }
    return data;
  }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key === "class") node.className = value;
      else node.setAttribute(key, value);
    }
    for (const child of children || []) node.append(child);
    return node;
  }

  function setBadge(id, text, state) {
    const badge = document.getElementById(id);
    if (!badge) return;
    badge.textContent = text;
    badge.dataset.state = state || "";
  }

  function live(handlers) {
    const source = new EventSource("/events");
    source.addEventListener("open", () => setBadge("link-badge", "live", "ok"));
    source.addEventListener("error", () => setBadge("link-badge", "reconnecting", "warn"));
    for (const [kind, handler] of Object.entries(handlers)) {
      source.addEventListener(kind, (message) => handler(JSON.parse(message.data)));
    }
    return source;
  }

  function showLive(status) {
    setBadge("source-badge", "source: " + (status.source || "none"),
      status.source === "live" ? "ok" : (status.source ? "warn" : ""));
    setBadge("gate-badge", "gate: " + (status.gate || "-"), status.gate === "idle" ? "ok" : "");
    const problem = document.getElementById("problem");
    if (problem) {
      const text = status.error && status.source !== "live" ? "Source: " + status.error : (status.problem || "");
      problem.textContent = text;
      problem.hidden = !text;
    }
  }

  function showGameTitle(view) {
    const title = document.getElementById("game-title");
    if (!title) return;
    title.textContent = view.game ? view.game.game + " \u00b7 game " + view.game.id + (view.over ? " \u00b7 over" : "") : "no game";
  }

  return { api, el, showMessage, live, showLive, showGameTitle, setBadge };
})();
