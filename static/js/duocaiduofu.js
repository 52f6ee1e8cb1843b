// 多财多福 (Fortune Lines): spins, the 童男/童女 double-up, 自动 spins and the seed pair, through the
// solo runtime's JSON API. Every word comes from the page (labels); the server decides every play.
(function () {
  "use strict";
  const L = JSON.parse(document.getElementById("solo-labels").textContent);
  const C = JSON.parse(document.getElementById("solo-config").textContent);
  let S = JSON.parse(document.getElementById("solo-state").textContent);
  const $ = (id) => document.getElementById(id);
  const csrf = document.querySelector("#csrf input[name=csrfmiddlewaretoken]").value;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  const SYMBOL_MARK = { fu: "福", cai: "财", ingot: "元宝", coin: "铜钱", lantern: "灯笼", firecracker: "鞭炮" };
  let stakeIndex = 0;
  let busy = false;
  let auto = null;
  let clock = null;

  function key() {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function post(url, body) {
    // A request keeps its key across a retry, so a lost answer never plays twice.
    const payload = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
          body: payload,
          credentials: "same-origin",
        });
        const data = await response.json();
        if (!response.ok) throw Object.assign(new Error(data.error || L.error), { refused: true, data });
        return data;
      } catch (err) {
        if (err.refused || attempt >= 2) throw err;
      }
    }
  }

  function symbolText(symbol) {
    // In Chinese the symbol's name is its mark: say it once.
    const name = L["sym_" + symbol];
    return name === SYMBOL_MARK[symbol] ? name : `${SYMBOL_MARK[symbol]} ${name}`;
  }

  function drawWindow(result) {
    const cells = document.querySelectorAll("#reels .dc-reel");
    cells.forEach((reel, r) => {
      reel.querySelectorAll(".dc-cell").forEach((cell, row) => {
        const symbol = result ? result.window[r][row] : "";
        cell.textContent = symbol ? SYMBOL_MARK[symbol] : "·";
        if (symbol && L["sym_" + symbol] !== SYMBOL_MARK[symbol]) {
          const name = document.createElement("small");
          name.textContent = L["sym_" + symbol];
          cell.append(name);
        }
        cell.title = symbol ? L["sym_" + symbol] : "";
        cell.dataset.symbol = symbol;
        cell.classList.remove("is-win");
      });
    });
    if (result) {
      const LINES = [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 1, 2], [2, 1, 0]];
      for (const win of result.lines) {
        LINES[win.line].forEach((row, r) => cells[r].querySelectorAll(".dc-cell")[row].classList.add("is-win"));
      }
    }
  }

  function say(text) {
    $("message").textContent = text;
  }

  function drawPair() {
    $("seed-hash").textContent = S.pair.hash;
    $("client-seed").textContent = S.pair.client_seed;
    $("nonce").textContent = S.pair.nonce;
  }

  function drawStake() {
    $("stake").textContent = S.stakes[stakeIndex];
    $("stake-down").disabled = stakeIndex === 0 || busy;
    $("stake-up").disabled = stakeIndex === S.stakes.length - 1 || busy;
    $("spin").disabled = busy || auto !== null;
  }

  function multiple() {
    const checked = document.querySelector("input[name=multiple]:checked");
    return checked ? Number(checked.value) : 1;
  }

  function drawOffer() {
    const offer = S.offer;
    clearInterval(clock);
    $("gamble").hidden = !offer || auto !== null;
    if (!offer) return;
    if (offer.amount > S.balance) {
      collect(); // 余额不足: the balance cannot stake even the win itself
      return;
    }
    $("gamble-offer").textContent = fill(L.gamble_offer, { amount: offer.amount, wins: offer.wins, max: offer.max_wins });
    document.querySelectorAll("input[name=multiple]").forEach((input) => {
      input.disabled = offer.amount * Number(input.value) > S.balance;
    });
    $("gamble-stake").textContent = fill(L.gamble_stake, { amount: offer.amount * multiple() });
    const ends = Date.now() + offer.seconds_left * 1000;
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      $("gamble-clock").textContent = fill(L.collect_in, { seconds: left });
      if (left <= 0) collect();
    };
    tick();
    clock = setInterval(tick, 500);
  }

  function drawRecent() {
    const list = $("recent");
    list.replaceChildren(
      ...S.recent.map((play) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = play.verify_url;
        a.textContent = `#${play.nonce} ${play.kind === "spin" ? L.spin : L.double} ${play.stake} → ${play.win} (${play.net >= 0 ? "+" : ""}${play.net})`;
        li.append(a);
        return li;
      }),
    );
  }

  function drawPays() {
    $("pays").replaceChildren(
      ...S.returns.pays.map((pay) => {
        const tr = document.createElement("tr");
        tr.innerHTML = "<td></td><td></td>";
        tr.cells[0].textContent = symbolText(pay.symbol);
        tr.cells[1].textContent = `×${pay.multiple}`;
        return tr;
      }),
    );
  }

  function draw() {
    $("balance").textContent = S.balance;
    drawStake();
    drawPair();
    drawOffer();
    drawRecent();
  }

  function took(data) {
    S.balance = data.balance;
    S.offer = data.offer;
    if (data.pair) S.pair = data.pair;
    if (data.play) S.recent = [data.play, ...S.recent].slice(0, 10);
  }

  async function spin() {
    if (busy) return null;
    busy = true;
    drawStake();
    try {
      const data = await post(C.api.spin, { tier: C.tier, stake: S.stakes[stakeIndex], key: key() });
      took(data);
      const result = data.play.result;
      drawWindow(result);
      say(
        data.play.win
          ? [fill(L.you_win, { amount: data.play.stake + data.play.net }),
             ...result.lines.map((w) => fill(L.line_win, { line: w.line + 1, symbol: L["sym_" + w.symbol], multiple: w.multiple }))].join(" · ")
          : L.no_win,
      );
      return data.play;
    } catch (err) {
      say(err.message || L.error);
      return null;
    } finally {
      busy = false;
      draw();
    }
  }

  async function gamble(pick) {
    if (busy || !S.offer) return;
    busy = true;
    try {
      const data = await post(C.api.gamble, { multiple: multiple(), pick, key: key() });
      took(data);
      const play = data.play;
      const card = L["pick_" + play.result.card];
      say(play.win ? fill(L.gamble_won, { card, amount: play.stake + play.net }) : fill(L.gamble_lost, { card, amount: play.stake }));
    } catch (err) {
      say(err.message || L.error);
      if (err.data && (err.data.code === "no_offer" || err.data.code === "collected")) S.offer = null;
    } finally {
      busy = false;
      draw();
    }
  }

  async function collect() {
    clearInterval(clock);
    try {
      const data = await post(C.api.collect, {});
      took(data);
      say(L.collected);
    } catch (err) {
      say(err.message || L.error);
    }
    draw();
  }

  async function runAuto(form) {
    const count = Number(form.count.value);
    const stopWin = Number(form.stop_win.value) || null;
    const floor = Number(form.floor.value) || null;
    auto = { done: 0 };
    $("auto-stop").hidden = false;
    $("auto-start").hidden = true;
    let lastWin = 0;
    // The same rule as rules.auto_continues: the count, a win over the threshold, the floor.
    while (auto) {
      const stake = S.stakes[stakeIndex];
      const go =
        auto.done < count &&
        !(stopWin && lastWin >= stopWin) &&
        !(floor && S.balance < floor) &&
        S.balance >= stake;
      if (!go) break;
      $("auto-status").textContent = fill(L.auto_left, { left: count - auto.done });
      const play = await spin();
      if (!play) break;
      auto.done += 1;
      lastWin = play.win;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    auto = null;
    $("auto-stop").hidden = true;
    $("auto-start").hidden = false;
    $("auto-status").textContent = L.auto_stopped;
    draw();
  }

  async function rotate(form) {
    try {
      const data = await post(C.api.rotate, { client_seed: form.client_seed.value });
      S.pair = data.pair;
      S.offer = null;
      $("revealed").textContent = fill(L.rotated, { seed: data.revealed.server_seed });
      form.client_seed.value = "";
    } catch (err) {
      say(err.message || L.error);
    }
    draw();
  }

  $("stake-down").addEventListener("click", () => { stakeIndex = Math.max(0, stakeIndex - 1); drawStake(); });
  $("stake-up").addEventListener("click", () => { stakeIndex = Math.min(S.stakes.length - 1, stakeIndex + 1); drawStake(); });
  $("spin").addEventListener("click", spin);
  document.querySelectorAll("[data-pick]").forEach((b) => b.addEventListener("click", () => gamble(b.dataset.pick)));
  document.querySelectorAll("input[name=multiple]").forEach((i) => i.addEventListener("change", drawOffer));
  $("collect").addEventListener("click", collect);
  $("auto").addEventListener("submit", (e) => { e.preventDefault(); runAuto(e.target); });
  $("auto-stop").addEventListener("click", () => { auto = null; });
  $("rotate").addEventListener("submit", (e) => { e.preventDefault(); rotate(e.target); });
  const last = S.recent.find((p) => p.kind === "spin");
  drawWindow(last ? last.result : null);
  drawPays();
  draw();
})();
