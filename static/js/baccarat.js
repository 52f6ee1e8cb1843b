// The 百家乐 (Baccarat) table client: draw the round the server sends, send bets.
//
// It decides no rule. The areas, their odds and whether they are open come
// from the round's `areas`; the chips from the tier; the cards and totals are
// only what the server has revealed; a refused bet comes back as an `error`
// shown under the chips; the balance is the wallet's, after the bets and after
// each `payout`. Messages are described in docs/protocol.md (the round socket).

import { cardElement } from "./cards.js";
import { RoundSocket } from "./socket.js";
import { $, coins, connectTable, h, renderBalance, root, t, tick } from "./tablekit.js";

// Display order of the areas: the small bets above 闲 player and 庄 banker.
const AREA_ORDER = ["player_pair", "tie", "banker_pair", "player", "banker", "small", "super6", "big"];
const MAIN_AREAS = new Set(["player", "banker"]);
const ROAD_ROWS = 6;
// The roads derived from 大路 (the server derives them: games/baccarat/roads.py), in display order.
const DERIVED_ROADS = ["big_eye_boy", "small_road", "cockroach_pig"];

const model = {
  snapshot: null, // the last `state`
  payout: null, // the last `payout` for this viewer
  balance: null,
  chip: null, // the chip value selected
  areas: [], // the last round's areas, kept while the table idles
  betSeq: 0, // strictly increasing for the life of the page
  dealt: { round: null, player: 0, banker: 0 }, // cards already drawn, to animate only new ones
};

const kit = connectTable({ model, onMessage: handleMessage, render, Socket: RoundSocket });
const { socket, setMessage } = kit;

// ---- Incoming messages --------------------------------------------------

function handleMessage(msg) {
  if (msg.type === "state") applyState(msg);
  else if (msg.type === "payout") applyPayout(msg);
  else if (msg.type === "error") {
    setMessage(msg.message || msg.code || "", "error");
    render();
  }
}

function applyState(msg) {
  const before = model.snapshot?.round;
  model.snapshot = msg;
  if (typeof msg.you?.balance === "number") model.balance = msg.you.balance;
  // A reloaded page gets the round's payout in the snapshot (connect, resync), not as a notice.
  if (msg.you?.payout && model.payout?.round !== msg.you.payout.round) model.payout = msg.you.payout;
  const rnd = msg.round;
  if (rnd?.areas?.length) model.areas = rnd.areas;
  // Betting has closed or a new round opened: the last note or refusal is stale.
  if (before && (!rnd || before.id !== rnd.id || before.phase !== rnd.phase)) setMessage("");
  pickDefaultChip();
  render();
}

function applyPayout(msg) {
  model.payout = msg;
  if (typeof msg.balance === "number") model.balance = msg.balance;
  render();
}

// ---- Outgoing intents ---------------------------------------------------

function placeBet(area) {
  const rnd = model.snapshot?.round;
  if (!rnd || rnd.phase !== "betting") {
    setMessage(t("betting_closed_note"), "note");
  } else if (!model.chip) {
    setMessage(t("choose_chip"), "note");
  } else {
    model.betSeq += 1;
    setMessage("");
    socket.send({ type: "bet", seq: model.betSeq, area, amount: model.chip });
  }
  render();
}

/** 撤销 and 重复投: one message each; the server checks the window, the limits and the balance. */
function sendIntent(type) {
  const rnd = model.snapshot?.round;
  if (!rnd || rnd.phase !== "betting") {
    setMessage(t("betting_closed_note"), "note");
  } else {
    model.betSeq += 1;
    setMessage("");
    socket.send({ type, seq: model.betSeq });
  }
  render();
}

function chooseChip(value) {
  model.chip = value;
  if (model.messageKind === "note") setMessage("");
  render();
}

/** Select the smallest chip the table takes until the player picks one. */
function pickDefaultChip() {
  const tier = model.snapshot?.table?.tier;
  const chips = tier?.chips || [];
  if (model.chip !== null && chips.includes(model.chip)) return;
  model.chip = chips.find((value) => value >= (tier.min_bet || 0)) ?? chips[0] ?? null;
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const rnd = snap?.round || null;
  root.dataset.phase = rnd?.phase || "idle";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.round = rnd ? String(rnd.id) : "";
  renderInfo(snap, rnd);
  renderDeal(rnd);
  renderAreas(rnd);
  renderChips();
  renderBetActions(snap, rnd);
  kit.renderMessage();
  renderMyResult(snap, rnd);
  renderRoads(snap?.roads);
  renderShoe(snap, rnd);
  tick();
}

function renderInfo(snap, rnd) {
  const tier = snap?.table?.tier;
  $("#tier-name").textContent = tier?.name || "";
  $("#hand-number").textContent = rnd ? t("round_number", { number: rnd.number }) : "";
  $("#min-bet").textContent = coins(tier?.min_bet ?? null);
  $("#table-limit").textContent = coins(tier?.table_limit ?? null);
  renderBalance(model.balance);
}

function renderDeal(rnd) {
  $("#phase").textContent = t(`phase_${rnd?.phase || "idle"}`);
  $("#coup").textContent = rnd ? t("shoe_coup", { shoe: rnd.shoe, coup: rnd.coup }) : "";
  const countdown = $("#countdown");
  if (rnd && rnd.deadline && (rnd.phase === "betting" || rnd.phase === "result")) {
    countdown.replaceChildren(
      rnd.phase === "result" ? h("span", { class: "caption" }, t("next_round_in")) : "",
      h("span", { class: "clock", dataset: { deadline: rnd.deadline } }),
    );
  } else {
    countdown.replaceChildren();
  }

  if (model.dealt.round !== rnd?.id) model.dealt = { round: rnd?.id ?? null, player: 0, banker: 0 };
  for (const side of ["player", "banker"]) {
    const cards = rnd?.cards?.[side] || [];
    const already = model.dealt[side];
    $(`#${side}-cards`).replaceChildren(
      ...cards.map((card, i) => {
        const el = cardElement(card, { size: "small" });
        if (i >= already) el.classList.add("dealt");
        return el;
      }),
    );
    model.dealt[side] = cards.length;
    const total = rnd?.totals?.[side];
    const totalEl = $(`#${side}-total`);
    totalEl.textContent = typeof total === "number" ? String(total) : "";
    totalEl.dataset.value = typeof total === "number" ? String(total) : "";
  }

  const outcome = $("#outcome");
  const result = rnd?.phase === "result" ? rnd.result : null;
  outcome.dataset.winner = result?.winner || "";
  if (result) {
    const pairs = [result.player_pair ? t("area_player_pair") : "", result.banker_pair ? t("area_banker_pair") : ""];
    outcome.replaceChildren(
      h("strong", {}, t(`winner_${result.winner}`)),
      " ",
      h("span", {}, t("totals_line", { player: result.player_total, banker: result.banker_total })),
      ...pairs.filter(Boolean).map((name) => h("span", { class: "bc-pair" }, name)),
    );
  } else {
    outcome.replaceChildren();
  }
  for (const hand of root.querySelectorAll(".bc-hand")) {
    hand.classList.toggle("won", Boolean(result && result.winner === hand.dataset.side));
  }
}

/** Say which areas the shown result marks as won: the winner and the pairs it reports. */
function wonAreas(rnd) {
  const result = rnd?.phase === "result" ? rnd.result : null;
  if (!result) return new Set();
  const won = new Set([result.winner]);
  if (result.player_pair) won.add("player_pair");
  if (result.banker_pair) won.add("banker_pair");
  return won;
}

function renderAreas(rnd) {
  const box = $("#areas");
  const areas = rnd?.areas || model.areas;
  const limits = model.snapshot?.table?.tier?.area_limits || {};
  const betting = rnd?.phase === "betting";
  const won = wonAreas(rnd);
  const rank = (a) => {
    const i = AREA_ORDER.indexOf(a.area);
    return i < 0 ? AREA_ORDER.length : i;
  };
  const sorted = [...areas].sort((a, b) => rank(a) - rank(b));
  // Keep the buttons themselves while the areas stay the same: a tap whose press and
  // release straddle a broadcast must still land on one element.
  const keys = sorted.map((a) => a.area).join(",");
  if (box.dataset.keys !== keys) {
    box.dataset.keys = keys;
    box.dataset.count = String(sorted.length);
    box.replaceChildren(
      ...sorted.map((a) =>
        h("button", { type: "button", class: "bc-area", dataset: { area: a.area }, onclick: () => placeBet(a.area) }),
      ),
    );
  }
  sorted.forEach((a, i) => {
    const button = box.children[i];
    const total = rnd ? a.total || 0 : 0;
    const mine = rnd ? a.mine || 0 : 0;
    button.className = `bc-area${MAIN_AREAS.has(a.area) ? " main" : ""}${won.has(a.area) ? " won" : ""}${mine ? " staked" : ""}`;
    button.dataset.open = a.open ? "yes" : "no";
    button.disabled = !betting || !a.open;
    button.setAttribute("aria-label", `${t(`area_${a.area}`)} ${a.odds}`);
    button.replaceChildren(
      h("span", { class: "name" }, t(`area_${a.area}`)),
      h("span", { class: "odds" }, a.odds),
      a.open
        ? h("span", { class: "total", dataset: { value: total } }, t("area_total", { amount: coins(total) }))
        : h("span", { class: "total closed", dataset: { value: total } }, t("area_closed")),
      h("span", { class: "mine", dataset: { value: mine } }, mine ? t("area_mine", { amount: coins(mine) }) : ""),
      typeof limits[a.area] === "number" ? h("span", { class: "limit" }, t("area_limit", { amount: coins(limits[a.area]) })) : "",
    );
  });
}

function renderChips() {
  const box = $("#chips");
  const chips = model.snapshot?.table?.tier?.chips || [];
  const keys = chips.join(",");
  if (box.dataset.keys !== keys) {
    box.dataset.keys = keys;
    box.replaceChildren(
      ...chips.map((value) =>
        h(
          "button",
          {
            type: "button",
            class: "bc-chip",
            dataset: { value, tier: chipTier(value, chips) },
            "aria-label": t("chip", { amount: coins(value) }),
            onclick: () => chooseChip(value),
          },
          chipText(value),
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

/** 撤销 while the viewer has stakes on the betting round; 重复投 while they have none yet. */
function renderBetActions(snap, rnd) {
  const betting = rnd?.phase === "betting";
  const staked = snap?.you?.staked || 0;
  $("#cancel-bets").disabled = !betting || !staked;
  $("#repeat-bets").disabled = !betting || Boolean(staked);
}

/** A chip's colour step: its place among the table's chips (0 the smallest). */
function chipTier(value, chips) {
  return String([...chips].sort((a, b) => a - b).indexOf(value) % 6);
}

function chipText(value) {
  return value >= 10000 && value % 1000 === 0 ? `${value / 1000}K` : String(value);
}

/** The viewer's own line: what they staked this round, then what the last payout paid. */
function renderMyResult(snap, rnd) {
  const box = $("#my-result");
  const payout = model.payout;
  const staked = snap?.you?.staked || 0;
  // The payout of the round on the table, or of the last one while the table idles: a new
  // round's betting window starts clean.
  const shown = payout && (rnd ? payout.round === rnd.id : true);
  let parts = null;
  let net = "";
  let roundId = "";
  if (shown) {
    net = payout.net;
    roundId = payout.round;
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
    parts = [h("span", { class: "muted" }, staked ? t("settling") : t("no_bets"))];
  }
  box.hidden = !parts;
  box.dataset.net = net === "" ? "" : String(net);
  box.dataset.round = String(roundId);
  box.replaceChildren(...(parts || []));
}

function renderRoads(roads) {
  renderBeadPlate(roads?.bead_plate || []);
  renderBigRoad(roads?.big_road || []);
  for (const name of DERIVED_ROADS) renderDerivedRoad(name, roads?.[name] || []);
  renderAsk(roads?.ask || {});
}

function roadLetter(winner) {
  return winner ? t(`road_${winner}`) : "";
}

function renderBeadPlate(columns) {
  const box = $("#bead-plate");
  const beads = [];
  columns.forEach((column, x) => {
    column.forEach((winner, y) => {
      beads.push(
        h("span", { class: "bead", dataset: { winner }, style: `grid-column:${x + 1};grid-row:${y + 1}` }, roadLetter(winner)),
      );
    });
  });
  const grew = box.dataset.count !== String(beads.length);
  box.dataset.count = String(beads.length);
  box.replaceChildren(...beads);
  if (!beads.length) box.append(h("span", { class: "empty" }, t("road_empty")));
  if (grew) box.scrollLeft = box.scrollWidth; // follow the newest coup, but let the player scroll back

}

/** Place 大路 cells: each run starts a column; past six rows (or a taken cell) a long run turns right (长龙 tail). */
function bigRoadCells(columns) {
  const taken = new Set();
  const placed = [];
  columns.forEach((column, start) => {
    let x = start;
    let y = 0;
    let turned = false;
    column.forEach((cell, i) => {
      if (i > 0) {
        if (!turned && y + 1 < ROAD_ROWS && !taken.has(`${x},${y + 1}`)) y += 1;
        else {
          turned = true;
          x += 1;
        }
      }
      taken.add(`${x},${y}`);
      placed.push({ cell, x, y });
    });
  });
  return placed;
}

function renderBigRoad(columns) {
  const box = $("#big-road");
  const cells = bigRoadCells(columns).map(({ cell, x, y }) =>
    h(
      "span",
      {
        class: `road-cell${cell.player_pair ? " player-pair" : ""}${cell.banker_pair ? " banker-pair" : ""}`,
        dataset: { winner: cell.winner || "none", ties: cell.ties || 0 },
        style: `grid-column:${x + 1};grid-row:${y + 1}`,
      },
      cell.ties ? h("span", { class: "ties" }, String(cell.ties)) : "",
    ),
  );
  const grew = box.dataset.count !== String(cells.length);
  box.dataset.count = String(cells.length);
  box.replaceChildren(...cells);
  if (!cells.length) box.append(h("span", { class: "empty" }, t("road_empty")));
  if (grew) box.scrollLeft = box.scrollWidth;
}

/** 大眼仔路 (hollow circles), 小路 (dots), 曱甴路 (slashes): red or blue marks, placed as the big road is. */
function renderDerivedRoad(name, columns) {
  const box = $(`#${name.replaceAll("_", "-")}`);
  const cells = bigRoadCells(columns).map(({ cell, x, y }) =>
    h("span", { class: "mark", dataset: { colour: cell }, style: `grid-column:${x + 1};grid-row:${y + 1}` }),
  );
  const grew = box.dataset.count !== String(cells.length);
  box.dataset.count = String(cells.length);
  box.replaceChildren(...cells);
  if (grew) box.scrollLeft = box.scrollWidth;
}

/** 问路: the mark each derived road gets if the next coup is a banker or a player win. */
function renderAsk(ask) {
  for (const winner of ["banker", "player"]) {
    const marks = ask[winner] || {};
    $(`#ask-${winner} .ask-marks`).replaceChildren(
      ...DERIVED_ROADS.map((name) =>
        h("span", {
          class: "mark",
          dataset: { road: name, colour: marks[name] || "none" },
          title: t(`road_${name}`),
        }),
      ),
    );
  }
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
    box.querySelector("code").title = last.seed_sha256 || "";
  }
}

// ---- Wiring -------------------------------------------------------------

$("#cancel-bets").addEventListener("click", () => sendIntent("cancel"));
$("#repeat-bets").addEventListener("click", () => sendIntent("repeat"));

kit.start();
