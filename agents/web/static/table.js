// The web table: shows the person's view, sends their moves, and asks the
// server for the bots' moves one at a time.
(function () {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  if (params.has("delay")) $("speed").value = params.get("delay");
  let game = null; // the last view the server sent
  let busy = false; // a request or the bots' turn is under way
  let generation = 0; // bumped by New game: answers for an older game are dropped

  class ApiError extends Error {
    constructor(message, status) {
      super(message);
      this.status = status;
    }
  }

  async function api(path, body) {
    const options = body === undefined ? {} : {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok) throw new ApiError(data.error || response.statusText, response.status);
    return data;
  }

  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const seatName = (seat) => `player_${seat}` + (seat === game.seat ? " (you)" : ` (${game.agents[seat]})`);

  function showError(message) {
    $("error").hidden = !message;
    $("error").textContent = message || "";
  }

  function statusText() {
    if (game.done) return game.result.truncated ? "Game over at the turn limit" : "Game over";
    if (game.yourTurn) return `Your turn, player_${game.seat}`;
    return `${seatName(game.toMove)} is moving\u2026`;
  }

  function renderResult() {
    const box = $("result");
    box.hidden = !game.done;
    box.replaceChildren();
    if (!game.done) return;
    const r = game.result;
    box.dataset.returns = JSON.stringify(r.returns);
    const head = document.createElement("strong");
    const mine = r.ranks[game.seat];
    const best = r.ranks.filter((x) => x === 1).length;
    head.textContent = mine === 1 ? (best > 1 ? "You share first place." : "You win!") : `You placed ${mine} of ${r.ranks.length}.`;
    const table = document.createElement("table");
    table.className = "rewards";
    r.returns.forEach((value, seat) => {
      const tr = document.createElement("tr");
      const name = document.createElement("td");
      name.textContent = seatName(seat);
      const cell = document.createElement("td");
      cell.className = "num";
      cell.textContent = (value > 0 ? "+" : "") + value.toFixed(2);
      tr.append(name, cell);
      table.appendChild(tr);
    });
    const saved = document.createElement("p");
    saved.className = "saved";
    if (r.replay) {
      const command = document.createElement("code");
      command.textContent = `meeplezoo view ${r.replay}`;
      saved.append("Saved as a replay; watch it with ", command);
    } else {
      saved.textContent = r.replayError || "";
    }
    box.append(head, table, saved);
  }

  function renderHistory() {
    const list = $("history");
    const have = list.children.length;
    if (have > game.history.length) list.replaceChildren();
    for (let k = list.children.length; k < game.history.length; k++) {
      const li = document.createElement("li");
      const move = game.history[k];
      li.textContent = `${seatName(move.seat)}: ${move.label}`;
      list.appendChild(li);
    }
    if (list.children.length !== have) list.scrollTop = list.scrollHeight;
  }

  function applyFilter() {
    const words = $("filter").value.trim().toLowerCase();
    let visible = 0;
    for (const group of $("legal").children) {
      let shown = 0;
      for (const button of group.querySelectorAll("button")) {
        const hit = !words || button.textContent.toLowerCase().includes(words);
        button.hidden = !hit;
        shown += hit ? 1 : 0;
      }
      group.hidden = shown === 0;
      visible += shown;
    }
    $("move-count").textContent = words ? `(${visible} of ${game.legal.length})` : `(${game.legal.length})`;
  }

  function renderLegal() {
    const box = $("legal");
    box.replaceChildren();
    $("moves-box").hidden = !game.yourTurn;
    if (!game.yourTurn) return;
    const groups = new Map(); // first word -> moves, in action order
    for (const move of game.legal) {
      if (!groups.has(move.group)) groups.set(move.group, []);
      groups.get(move.group).push(move);
    }
    for (const [name, moves] of groups) {
      const section = document.createElement("div");
      section.className = "group";
      const title = document.createElement("h3");
      title.textContent = moves.length > 1 ? `${name} (${moves.length})` : name;
      const row = document.createElement("div");
      row.className = "buttons";
      for (const move of moves) {
        const button = document.createElement("button");
        button.type = "button";
        button.textContent = move.label;
        button.dataset.action = String(move.action);
        button.addEventListener("click", () => choose(move.action));
        row.appendChild(button);
      }
      section.append(title, row);
      box.appendChild(section);
    }
    $("filter").hidden = game.legal.length <= 8;
    applyFilter();
  }

  function render() {
    $("title").textContent = game.title;
    $("seats").textContent = game.agents.map((agent, seat) => `player_${seat}: ${agent}`).join(" \u00b7 ");
    $("view-note").textContent = game.hiddenInformation
      ? `You are player_${game.seat}. The page shows only what player_${game.seat} may know.`
      : `You are player_${game.seat}. Every move of this game is public.`;
    $("board").src = game.picture;
    $("status").textContent = statusText();
    document.body.dataset.version = String(game.version);
    document.body.dataset.state = game.done ? "over" : game.yourTurn ? "your-turn" : "bots";
    renderHistory();
    renderLegal();
    renderResult();
  }

  async function botsMove(token) {
    while (token === generation && game && !game.done && !game.yourTurn) {
      await sleep(Number($("speed").value));
      if (token !== generation) return;
      const next = await api(`/api/games/${game.id}/advance`, { version: game.version });
      if (token !== generation) return;
      game = next;
      render();
    }
  }

  // Runs one request (and then the bots' moves); a fresh run starts a new game
  // even while the bots of the old one are moving.
  async function run(step, fresh = false) {
    if (busy && !fresh) return;
    const token = fresh ? ++generation : generation;
    busy = true;
    showError("");
    try {
      const next = await step();
      if (token !== generation) return;
      if (next) {
        game = next;
        render();
      }
      await botsMove(token);
    } catch (error) {
      if (token !== generation) return;
      showError(error.message);
      if (error.status === 409 && game) {
        try { game = await api(`/api/games/${game.id}`); } catch (e) { /* the error is shown */ }
      }
      if (game) render();
    } finally {
      if (token === generation) busy = false;
    }
  }

  function choose(action) {
    for (const button of $("legal").querySelectorAll("button")) button.disabled = true;
    run(() => api(`/api/games/${game.id}/move`, { version: game.version, action }));
  }

  function newGame() {
    $("history").replaceChildren();
    run(async () => {
      const next = await api("/api/games", {});
      history.replaceState(null, "", `#${next.id}`);
      return next;
    }, true);
  }

  $("new-game").addEventListener("click", newGame);
  $("filter").addEventListener("input", applyFilter);
  const fit = watchBoard($("board"), 24);
  $("board").addEventListener("load", fit);

  const resumed = location.hash.slice(1);
  if (resumed) {
    run(async () => {
      try {
        return await api(`/api/games/${encodeURIComponent(resumed)}`);
      } catch (error) {
        if (error.status !== 404) throw error;
        $("view-note").textContent = "That game is gone (the server restarted); finished games are saved as replays.";
        throw new ApiError("Press New game to play again.", 404);
      }
    });
  } else {
    newGame();
  }
})();
