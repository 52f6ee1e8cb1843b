// The 开心摇摇乐 (Happy Dice) table client: draw the round the server sends, send bets, 撤销 and 重复投.
//
// It decides no rule. The areas and their odds come from the round's `areas`; the dice, each
// cup's points and combination only as the server reveals them (red's cup, then blue's); who
// opens each cup (开骰盅) is the round's `revealers`, and only while `revealer.waiting` names
// this player for a cup does the page offer them its button; which areas won, were returned or lost from the result; a refused bet comes back as an
// `error`; the balance is the wallet's. The rules panel shows the figures the server computed
// (labels `pays_*`, `win_*`, `back_*`, `edge_*`). 重复投 ticked sends `repeat` once at the start
// of each betting window in which the player has no bets yet; the server checks the balance.
// Messages: docs/protocol.md (the round socket).

import { RoundSocket } from "./socket.js";
import { $, coins, config, connectTable, h, renderBalance, root, t, tick } from "./tablekit.js";
import { dieElement } from "./tiles.js";

const AREAS = ["red", "tie", "blue", "red_pair", "red_straight", "red_triple", "blue_pair", "blue_straight", "blue_triple"];
const MAIN_AREAS = new Set(["red", "tie", "blue"]);
const SIDES = ["red", "blue"];
const ROAD_SHOWN = 30; // the last coups the road shows
const AUTO_KEY = `yaoyaole:auto-repeat:${config.tableId}`; // 重复投 stays ticked across a reload

const model = {
  snapshot: null, // the last `state`
  payout: null, // the last `payout` for this viewer
  balance: null,
  chip: null,
  seq: 0, // strictly increasing for the life of the page
  autoRepeat: sessionStorage.getItem(AUTO_KEY) === "1",
  repeatedFor: null, // the round 重复投 already sent `repeat` for
  dealt: { round: null, red: 0, blue: 0 }, // dice already drawn, to animate only new ones
};

const kit = connectTable({ model, onMessage: handleMessage, render, Socket: RoundSocket });
const { socket, setMessage } = kit;

// ---- Incoming messages --------------------------------------------------

function handleMessage(msg) {
  if (msg.type === "state") applyState(msg);
  else if (msg.type === "payout") {
    model.payout = msg;
    if (typeof msg.balance === "number") model.balance = msg.balance;
    render();
  } else if (msg.type === "error") {
    setMessage(msg.message || msg.code || "", "error");
    render();
  }
}

function applyState(msg) {
  const before = model.snapshot?.round;
  model.snapshot = msg;
  if (typeof msg.you?.balance === "number") model.balance = msg.you.balance;
  if (msg.you?.payout && model.payout?.round !== msg.you.payout.round) model.payout = msg.you.payout;
  const rnd = msg.round;
  if (before && (!rnd || before.id !== rnd.id || before.phase !== rnd.phase)) setMessage("");
  const tier = msg.table?.tier;
  const chips = tier?.chips || [];
  if (model.chip === null || !chips.includes(model.chip)) {
    model.chip = chips.find((value) => value >= (tier?.min_bet || 0)) ?? chips[0] ?? null;
  }
  autoRepeat(rnd, msg.you);
  render();
}

// ---- Outgoing intents ---------------------------------------------------

function send(type, fields = {}) {
  model.seq += 1;
  setMessage("");
  socket.send({ type, seq: model.seq, ...fields });
  render();
}

function placeBet(area) {
  if (model.snapshot?.round?.phase !== "betting") setMessage(t("betting_closed_note"), "note");
  else if (!model.chip) setMessage(t("choose_chip"), "note");
  else return send("bet", { area, amount: model.chip });
  render();
}

function betIntent(type) {
  if (model.snapshot?.round?.phase !== "betting") {
    setMessage(t("betting_closed_note"), "note");
    render();
  } else send(type);
}

/** 重复投 ticked (001:399): once per betting window, while the player has no bets on it. */
function autoRepeat(rnd, you) {
  if (!model.autoRepeat || rnd?.phase !== "betting" || you?.staked || model.repeatedFor === rnd.id) return;
  model.repeatedFor = rnd.id;
  send("repeat");
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const rnd = snap?.round || null;
  root.dataset.phase = rnd?.phase || "idle";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.round = rnd ? String(rnd.id) : "";
  const tier = snap?.table?.tier;
  $("#tier-name").textContent = tier?.name || "";
  $("#hand-number").textContent = rnd ? t("round_number", { number: rnd.number }) : "";
  $("#min-bet").textContent = coins(tier?.min_bet ?? null);
  $("#table-limit").textContent = coins(tier?.table_limit ?? null);
  renderBalance(model.balance);
  renderStatus(rnd);
  renderCups(rnd);
  renderOpeners(rnd);
  renderOutcome(rnd);
  renderAreas(rnd);
  renderChips();
  const betting = rnd?.phase === "betting";
  $("#cancel-bets").disabled = !betting || !snap?.you?.staked;
  $("#repeat-bets").disabled = !betting || Boolean(snap?.you?.staked);
  $("#auto-repeat").checked = model.autoRepeat;
  kit.renderMessage();
  renderMyResult(rnd);
  renderRoads(snap?.roads);
  renderShoe(snap, rnd);
  tick();
}

function renderStatus(rnd) {
  const opening = rnd?.phase === "dealing" && rnd.revealer?.waiting;
  $("#phase").textContent = opening ? t("phase_opening") : t(`phase_${rnd?.phase || "idle"}`);
  $("#coup").textContent = rnd ? t("shoe_coup", { shoe: rnd.shoe, coup: rnd.coup }) : "";
  const countdown = $("#countdown");
  if (rnd?.deadline && (rnd.phase === "betting" || rnd.phase === "result")) {
    countdown.replaceChildren(
      rnd.phase === "result" ? h("span", { class: "caption" }, t("next_round_in")) : "",
      h("span", { class: "clock", dataset: { deadline: rnd.deadline } }),
    );
  } else countdown.replaceChildren();
}

/** Each cup: the revealed dice face up, the rest under the cup (shaking while the cups open). */
function renderCups(rnd) {
  if (model.dealt.round !== (rnd?.id ?? null)) model.dealt = { round: rnd?.id ?? null, red: 0, blue: 0 };
  const result = rnd?.phase === "result" ? rnd.result : null;
  for (const side of SIDES) {
    const cup = root.querySelector(`.yy-cup[data-side="${side}"]`);
    const dice = rnd?.cards?.[side] || [];
    const already = model.dealt[side];
    const faces = dice.map((value, i) => {
      const el = dieElement(value, { label: t("die", { n: value }) });
      if (i >= already) el.classList.add("dealt");
      return el;
    });
    const hidden = rnd
      ? Array.from({ length: 3 - dice.length }, () => {
          const el = dieElement(null, { label: t("die_hidden") });
          if (rnd.phase !== "dealing") el.classList.remove("rolling");
          el.classList.add("covered");
          return el;
        })
      : [];
    cup.querySelector(".yy-dice").replaceChildren(...faces, ...hidden);
    model.dealt[side] = dice.length;
    const facts = rnd?.totals?.[side];
    const points = cup.querySelector(".yy-points");
    points.dataset.value = facts ? String(facts.points) : "";
    points.textContent = facts ? t("points", { n: facts.points }) : "";
    const combo = cup.querySelector(".yy-combo");
    combo.dataset.combo = facts?.combo || "";
    combo.textContent = facts?.combo ? t(`combo_${facts.combo}`) : "";
    cup.classList.toggle("won", Boolean(result && result.winner === side));
  }
}

/**
 * 开骰盅 (001:398): under each cup, who opens it (the top bettor of its side, named when the
 * betting closed); while the round waits for them, their countdown, and the button for them only.
 */
function renderOpeners(rnd) {
  for (const side of SIDES) {
    const box = root.querySelector(`.yy-cup[data-side="${side}"] .yy-opener`);
    const who = (rnd?.revealers || []).find((entry) => entry.areas.includes(side) && entry.user) || null;
    const waiting = Boolean(who && rnd.phase === "dealing" && rnd.revealer?.waiting && rnd.revealer.area === who.area);
    const mine = Boolean(who) && who.user === config.userId;
    const opened = (rnd?.cards?.[side] || []).length > 0;
    box.hidden = !who;
    box.dataset.user = who ? String(who.user) : "";
    box.dataset.mine = mine ? "yes" : "";
    box.dataset.waiting = waiting ? "yes" : "";
    const names = { name: who?.name || "", side: t(`side_${side}`) };
    box.querySelector(".yy-opener-text").textContent = !who
      ? ""
      : waiting
        ? t(mine ? "opener_you" : "opener_other", names)
        : t(opened ? "opener_done" : "opener_next", names);
    box
      .querySelector(".yy-opener-clock")
      .replaceChildren(...(waiting && rnd.deadline ? [h("span", { class: "clock", dataset: { deadline: rnd.deadline } })] : []));
    box.querySelector(".yy-open").hidden = !(mine && waiting);
  }
}

function renderOutcome(rnd) {
  const box = $("#outcome");
  const result = rnd?.phase === "result" ? rnd.result : null;
  box.dataset.winner = result?.winner || "";
  box.dataset.round = result ? String(rnd.id) : "";
  if (!result) return box.replaceChildren();
  const winner = result.sides[result.winner];
  const low = winner && winner.points < 8;
  const combos = SIDES.filter((side) => result.sides[side].combo).map((side) =>
    h("span", { class: "bc-pair" }, t(`area_${side}_${result.sides[side].combo}`)),
  );
  box.replaceChildren(
    h("strong", {}, t(`winner_${result.winner}`)),
    low ? h("span", { class: "yy-low" }, t("low_win")) : "",
    ...combos,
  );
}

function renderAreas(rnd) {
  const box = $("#areas");
  if (box.dataset.keys !== AREAS.join(",")) {
    box.dataset.keys = AREAS.join(",");
    box.replaceChildren(
      ...AREAS.map((area) =>
        h("button", { type: "button", class: "bc-area", dataset: { area }, onclick: () => placeBet(area) }),
      ),
    );
  }
  const byName = Object.fromEntries((rnd?.areas || []).map((a) => [a.area, a]));
  const limits = model.snapshot?.table?.tier?.area_limits || {};
  const fates = rnd?.phase === "result" ? rnd.result?.areas || {} : {};
  for (const button of box.children) {
    const area = button.dataset.area;
    const a = byName[area] || {};
    const total = a.total || 0;
    const mine = a.mine || 0;
    const fate = fates[area] || "";
    button.className = `bc-area${MAIN_AREAS.has(area) ? " main" : ""}${fate === "won" ? " won" : ""}${mine ? " staked" : ""}`;
    button.dataset.outcome = fate;
    button.disabled = rnd?.phase !== "betting";
    const odds = a.odds || t(`pays_${area}`);
    button.setAttribute("aria-label", `${t(`area_${area}`)} ${odds}`);
    button.replaceChildren(
      h("span", { class: "name" }, t(`area_${area}`)),
      h("span", { class: "odds" }, odds),
      h("span", { class: "total", dataset: { value: total } }, t("area_total", { amount: coins(total) })),
      h("span", { class: "mine", dataset: { value: mine } }, mine ? t("area_mine", { amount: coins(mine) }) : fate === "push" ? t("area_push") : ""),
      typeof limits[area] === "number" ? h("span", { class: "limit" }, t("area_limit", { amount: coins(limits[area]) })) : "",
    );
  }
}

function renderChips() {
  const box = $("#chips");
  const chips = model.snapshot?.table?.tier?.chips || [];
  if (box.dataset.keys !== chips.join(",")) {
    box.dataset.keys = chips.join(",");
    const sorted = [...chips].sort((a, b) => a - b);
    box.replaceChildren(
      ...chips.map((value) =>
        h(
          "button",
          {
            type: "button",
            class: "bc-chip",
            dataset: { value, tier: String(sorted.indexOf(value) % 6) },
            "aria-label": t("chip", { amount: coins(value) }),
            onclick: () => {
              model.chip = value;
              render();
            },
          },
          value >= 10000 && value % 1000 === 0 ? `${value / 1000}K` : String(value),
        ),
      ),
    );
  }
  for (const button of box.children) {
    const selected = Number(button.dataset.value) === model.chip;
    button.classList.toggle("selected", selected);
    button.setAttribute("aria-pressed", selected ? "true" : "false");
  }
}

function renderMyResult(rnd) {
  const box = $("#my-result");
  const payout = model.payout;
  const shown = payout && (rnd ? payout.round === rnd.id : true);
  let parts = null;
  if (shown) {
    const net = payout.net;
    let title = net > 0 ? t("you_win", { amount: coins(net) }) : net < 0 ? t("you_lose", { amount: coins(-net) }) : t("you_even");
    if (payout.refunded) title = t("refunded");
    parts = [
      h("strong", { class: `net ${net > 0 ? "won" : net < 0 ? "lost" : ""}` }, title),
      h(
        "span",
        { class: "bets" },
        (payout.bets || []).map((bet) =>
          h(
            "span",
            { class: "bet", dataset: { area: bet.area, net: bet.net } },
            t("bet_line", { area: t(`area_${bet.area}`), amount: coins(bet.amount), net: `${bet.net > 0 ? "+" : ""}${coins(bet.net)}` }),
          ),
        ),
      ),
    ];
  } else if (rnd?.phase === "result") {
    parts = [h("span", { class: "muted" }, model.snapshot?.you?.staked ? t("settling") : t("no_bets"))];
  }
  box.hidden = !parts;
  box.dataset.net = shown ? String(payout.net) : "";
  box.dataset.round = shown ? String(payout.round) : "";
  box.replaceChildren(...(parts || []));
}

/** 路单: the shoe's recent coups, one mark each (the winner), its points in the tooltip. */
function renderRoads(roads) {
  const coups = (roads?.coups || []).slice(-ROAD_SHOWN);
  const box = $("#roads");
  if (!coups.length) return box.replaceChildren(h("span", { class: "muted empty" }, t("road_empty")));
  box.replaceChildren(
    ...coups.map((coup) =>
      h(
        "span",
        { class: "yy-mark", dataset: { winner: coup.winner, coup: coup.coup }, title: t("road_title", coup) },
        t(`road_${coup.winner}`),
      ),
    ),
  );
}

function renderShoe(snap, rnd) {
  const hash = rnd?.shoe_seed_sha256 || "";
  const code = $("#shoe-hash");
  code.textContent = hash ? `${hash.slice(0, 16)}…` : "–";
  code.title = hash;
  const last = snap?.last_shoe;
  const box = $("#last-shoe");
  box.hidden = !last?.seed;
  if (last?.seed) {
    box.querySelector("code").textContent = last.seed;
    // The shoe's verify page deals every coup again from this seed (rooms/rounds/verify.py).
    const link = $("#last-shoe-verify");
    link.href = `${link.dataset.base}${last.number}/verify/`;
  }
}

/** The rules panel's table: every area's odds, chance of winning, return and house edge (server figures). */
function renderRules() {
  $("#odds-table tbody").replaceChildren(
    ...AREAS.map((area) =>
      h(
        "tr",
        { dataset: { area } },
        h("th", { scope: "row" }, t(`area_${area}`)),
        h("td", { class: "pays" }, t(`pays_${area}`)),
        h("td", { class: "win" }, t(`win_${area}`)),
        h("td", { class: "return" }, t(`back_${area}`)),
        h("td", { class: "edge" }, t(`edge_${area}`)),
      ),
    ),
  );
}

// ---- Wiring -------------------------------------------------------------

for (const button of root.querySelectorAll(".yy-open")) button.addEventListener("click", () => send("reveal"));
$("#cancel-bets").addEventListener("click", () => betIntent("cancel"));
$("#repeat-bets").addEventListener("click", () => betIntent("repeat"));
$("#auto-repeat").addEventListener("change", (event) => {
  model.autoRepeat = event.currentTarget.checked;
  sessionStorage.setItem(AUTO_KEY, model.autoRepeat ? "1" : "0");
  const snap = model.snapshot;
  if (model.autoRepeat) autoRepeat(snap?.round, snap?.you);
  render();
});

renderRules();
kit.start();
