// The replay page: steps through the positions embedded in #replay-data.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const count = data.labels.length;
  const last = count - 1;
  const $ = (id) => document.getElementById(id);
  const slider = $("slider"), playButton = $("play"), list = $("moves");
  let current = 0, timer = null, board = null;

  $("title").textContent = data.title;
  $("subtitle").textContent = data.subtitle;
  $("view-note").textContent = data.viewNote;
  slider.max = String(last);

  const items = data.labels.map((label, k) => {
    const li = document.createElement("li");
    li.value = k;
    li.textContent = k === 0 ? "start" : `player_${data.moved[k]}: ${label}`;
    li.addEventListener("click", () => { stop(); show(k); });
    list.appendChild(li);
    return li;
  });

  function statusOf(k) {
    return data.toMove[k] >= 0 ? `player_${data.toMove[k]} to move` : data.ending;
  }

  function showRewards(k) {
    const body = $("rewards");
    body.replaceChildren();
    data.seats.forEach((seat, i) => {
      const tr = document.createElement("tr");
      const name = document.createElement("td");
      name.textContent = seat;
      const value = document.createElement("td");
      value.className = "num";
      const r = data.rewards[k][i];
      value.textContent = (r > 0 ? "+" : "") + r.toFixed(2);
      tr.append(name, value);
      body.appendChild(tr);
    });
  }

  function keepVisible(li) {
    const top = li.offsetTop, bottom = top + li.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function show(k) {
    k = Math.max(0, Math.min(last, k));
    items[current].classList.remove("current");
    current = k;
    items[k].classList.add("current");
    keepVisible(items[k]);
    slider.value = String(k);
    $("counter").textContent = `move ${k} of ${last}`;
    $("status").textContent = statusOf(k);
    $("last-move").textContent = k === 0 ? "start of the game" : `player_${data.moved[k]}: ${data.labels[k]}`;
    showRewards(k);
    $("first").disabled = $("prev").disabled = k === 0;
    $("next").disabled = $("last").disabled = k === last;
    if (board) board.draw(k);
  }

  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.classList.remove("playing");
    playButton.setAttribute("aria-label", "play");
  }

  function play() {
    if (current === last) show(0);
    playButton.classList.add("playing");
    playButton.setAttribute("aria-label", "pause");
    timer = setInterval(() => {
      if (current >= last) stop();
      else show(current + 1);
    }, 1000 / Number($("speed").value));
  }

  const toggle = () => (timer === null ? play() : stop());
  $("first").addEventListener("click", () => { stop(); show(0); });
  $("prev").addEventListener("click", () => { stop(); show(current - 1); });
  $("next").addEventListener("click", () => { stop(); show(current + 1); });
  $("last").addEventListener("click", () => { stop(); show(last); });
  playButton.addEventListener("click", toggle);
  slider.addEventListener("input", () => { stop(); show(Number(slider.value)); });
  $("speed").addEventListener("change", () => { if (timer !== null) { stop(); play(); } });

  const keys = {
    ArrowLeft: () => { stop(); show(current - 1); },
    ArrowRight: () => { stop(); show(current + 1); },
    Home: () => { stop(); show(0); },
    End: () => { stop(); show(last); },
    " ": toggle,
  };
  document.addEventListener("keydown", (event) => {
    const action = keys[event.key];
    if (!action || event.target.tagName === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    action();
  });
  // a focused button would also "click" on the space key's release
  document.addEventListener("keyup", (event) => { if (event.key === " ") event.preventDefault(); });

  show(0);
  const fit = watchBoard($("board"), 120);
  board = TileBoard($("board"), data.pictures, () => {
    document.body.dataset.ready = "true";
    board.draw(current);
  });
  fit();
})();
