// The 百人三公 (Hundred-player San Gong) table client: draw the round the server sends, send bets and 上庄/下庄.
//
// It decides no rule. The areas come from the round's `areas` (with `room`, the coins each can
// still take under a player banker); the cards, each hand's category and multiple are only what
// the server has revealed (banker, east, south, west, north, card by card); a refused bet comes
// back as an `error`; the balance is the wallet's. Messages: docs/protocol.md (the round socket).

import { cardBack, cardElement } from "./cards.js";
import { TableSocket } from "./socket.js";
import { $, coins, config, connectTable, h, renderBalance, root, t, tick } from "./tablekit.js";

const AREAS = ["east", "south", "west", "north"];
const ROAD_SHOWN = 12; // the last coups each area's road shows

/** The round socket: a state may come twice with one seq (a snapshot, then the change it already showed). */
class RoundSocket extends TableSocket {
  receive(data) {
    let msg;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (msg.type === "state" && typeof msg.seq === "number") {
      const last = this.seq;
      if (last !== null && msg.seq < last) return;
      if (last !== null && msg.seq > last + 1) this.send({ type: "resync" });
      this.seq = Math.max(last ?? msg.seq, msg.seq);
    }
    this.onMessage(msg);
  }
}

const model = {
  snapshot: null,
  payout: null,
  balance: null,
  chip: null,
  seq: 0, // strictly increasing for the life of the page (bets, cancel, repeat, bank, unbank)
  dealt: { round: null }, // cards already drawn per hand, to animate only new ones
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

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const rnd = snap?.round || null;
  root.dataset.phase = rnd?.phase || "idle";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.round = rnd ? String(rnd.id) : "";
  $("#tier-name").textContent = snap?.table?.tier?.name || "";
  $("#hand-number").textContent = rnd ? t("round_number", { number: rnd.number }) : "";
  $("#min-bet").textContent = coins(snap?.table?.tier?.min_bet ?? null);
  renderBalance(model.balance);
  renderStatus(rnd);
  if (model.dealt.round !== (rnd?.id ?? null)) model.dealt = { round: rnd?.id ?? null };
  renderHand($("#banker-hand"), "banker", rnd);
  renderAreas(rnd);
  renderOutcome(rnd);
  renderChips();
  // The round's banker does not bet (the server refuses it too).
  const betting = rnd?.phase === "betting" && rnd?.bank?.user !== config.userId;
  root.dataset.banking = rnd?.bank?.user === config.userId ? "yes" : "";
  $("#cancel-bets").disabled = !betting || !snap?.you?.staked;
  $("#repeat-bets").disabled = !betting || Boolean(snap?.you?.staked);
  kit.renderMessage();
  renderMyResult(rnd);
  renderBank(snap, rnd);
  renderRoads(snap?.roads);
  renderShoe(snap, rnd);
  tick();
}

function renderStatus(rnd) {
  $("#phase").textContent = t(`phase_${rnd?.phase || "idle"}`);
  $("#coup").textContent = rnd ? t("shoe_coup", { shoe: rnd.shoe, coup: rnd.coup }) : "";
  const countdown = $("#countdown");
  if (rnd?.deadline && (rnd.phase === "betting" || rnd.phase === "result")) {
    countdown.replaceChildren(
      rnd.phase === "result" ? h("span", { class: "caption" }, t("next_round_in")) : "",
      h("span", { class: "clock", dataset: { deadline: rnd.deadline } }),
    );
  } else countdown.replaceChildren();
  // 可下注额: what all players may still stake, shown above the countdown (player banker only).
  const room = rnd?.bank && rnd.phase === "betting" ? Math.min(...rnd.areas.map((a) => a.room ?? Infinity)) : null;
  const box = $("#bank-room");
  box.dataset.value = room === null ? "" : String(room);
  box.textContent = room === null ? "" : t("bank_room", { amount: coins(room) });
}

/** A hand's cards: the revealed ones face up, the rest face down (dealt before the bets, 001:125). */
function renderHand(box, hand, rnd) {
  const cards = rnd?.cards?.[hand] || [];
  const already = model.dealt[hand] || 0;
  const faces = cards.map((card, i) => {
    const el = cardElement(card, { size: "small" });
    if (i >= already) el.classList.add("dealt");
    return el;
  });
  const backs = rnd ? Array.from({ length: 3 - cards.length }, () => cardBack({ size: "small" })) : [];
  box.querySelector(".cards").replaceChildren(...faces, ...backs);
  model.dealt[hand] = cards.length;
  const facts = rnd?.totals?.[hand];
  const factsEl = box.querySelector(".sg-facts");
  factsEl.dataset.category = facts ? String(facts.category) : "";
  factsEl.dataset.multiple = facts ? String(facts.multiple) : "";
  factsEl.replaceChildren(
    ...(facts
      ? [h("span", { class: "category" }, categoryName(facts.category)), h("span", { class: "multiple" }, t("multiple", { n: facts.multiple }))]
      : []),
  );
}

function categoryName(category) {
  return typeof category === "number" ? t("cat_points", { n: category }) : t(`cat_${category}`);
}

function renderAreas(rnd) {
  const box = $("#areas");
  if (!box.children.length) {
    box.replaceChildren(
      ...AREAS.map((area) =>
        h(
          "div",
          { class: "sg-area", dataset: { area } },
          h(
            "button",
            { type: "button", class: "sg-bet", dataset: { area }, onclick: () => placeBet(area) },
            h("span", { class: "name" }, t(`area_${area}`)),
            h("span", { class: "total" }),
            h("span", { class: "mine" }),
            h("span", { class: "room" }),
          ),
          h("div", { class: "sg-hand", dataset: { hand: area } }, h("div", { class: "cards" }), h("span", { class: "sg-facts" })),
        ),
      ),
    );
  }
  const byName = Object.fromEntries((rnd?.areas || []).map((a) => [a.area, a]));
  const result = rnd?.phase === "result" ? rnd.result : null;
  for (const el of box.children) {
    const area = el.dataset.area;
    const a = byName[area] || {};
    const button = el.querySelector(".sg-bet");
    button.disabled = rnd?.phase !== "betting" || rnd?.bank?.user === config.userId;
    const total = a.total || 0;
    const mine = a.mine || 0;
    el.dataset.outcome = result ? (result.wins[area] ? "won" : "lost") : "";
    el.classList.toggle("staked", Boolean(mine));
    button.querySelector(".total").dataset.value = String(total);
    button.querySelector(".total").textContent = t("area_total", { amount: coins(total) });
    button.querySelector(".mine").dataset.value = String(mine);
    button.querySelector(".mine").textContent = mine ? t("area_mine", { amount: coins(mine) }) : "";
    const room = button.querySelector(".room");
    room.dataset.value = typeof a.room === "number" ? String(a.room) : "";
    room.dataset.multiple = typeof a.multiple === "number" ? String(a.multiple) : "";
    room.textContent = typeof a.room === "number" ? `${t("multiple", { n: a.multiple })} · ${t("area_room", { amount: coins(a.room) })}` : "";
    button.setAttribute("aria-label", `${t(`area_${area}`)} ${a.odds || ""}`);
    renderHand(el.querySelector(".sg-hand"), area, rnd);
  }
}

/** The result panel: each area against the banker, with the multiple that pays. */
function renderOutcome(rnd) {
  const box = $("#outcome");
  const result = rnd?.phase === "result" ? rnd.result : null;
  box.dataset.round = result ? String(rnd.id) : "";
  if (!result) return box.replaceChildren();
  const line = (area) => {
    const won = result.wins[area];
    const pays = won ? result.hands[area] : result.hands.banker;
    return h(
      "span",
      { class: `sg-line ${won ? "won" : "lost"}`, dataset: { area, multiple: pays.multiple } },
      `${t(`area_${area}`)} ${t(won ? "area_won" : "area_lost")} ${t("multiple", { n: pays.multiple })}`,
    );
  };
  box.replaceChildren(...AREAS.map(line));
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
    const signed = `${net > 0 ? "+" : ""}${coins(net)}`;
    let title = net > 0 ? t("you_win", { amount: coins(net) }) : net < 0 ? t("you_lose", { amount: coins(-net) }) : t("you_even");
    if (payout.banker) title = t("banker_result", { net: signed });
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

/** The player banker's panel: who banks and with how much, the queue, and 上庄 / 下庄. */
function renderBank(snap, rnd) {
  const bank = snap?.bank || null;
  const panel = $("#bank-panel");
  panel.hidden = !bank;
  const me = config.userId;
  const banker = bank?.banker || null;
  const roundBank = rnd?.bank || null;
  panel.dataset.banker = banker ? String(banker.user) : "";
  $("#banker-name").textContent = banker ? banker.name : t("house_banks");
  if (!bank) return;
  $("#bank-who").textContent = banker
    ? me === banker.user
      ? `${t("you_are_banker")} · ${t("banker_line", { name: banker.name, rounds: banker.rounds, most: bank.rounds })}`
      : t("banker_line", { name: banker.name, rounds: banker.rounds, most: bank.rounds })
    : t("house_banks");
  const coinsEl = $("#bank-coins");
  coinsEl.dataset.value = roundBank ? String(roundBank.coins) : "";
  coinsEl.textContent = roundBank ? t("banker_coins", { amount: coins(roundBank.coins) }) : "";
  $("#bank-rule").textContent = `${t("bank_minimum", { amount: coins(bank.minimum) })}${banker?.leaving ? ` · ${t("bank_stepping_down")}` : ""}`;
  const queue = $("#bank-queue");
  queue.replaceChildren(
    ...bank.queue.map((entry) => h("li", { dataset: { user: entry.user }, class: entry.user === me ? "me" : "" }, entry.name)),
  );
  if (!bank.queue.length) queue.append(h("li", { class: "muted empty" }, t("queue_empty")));
  const button = $("#bank-toggle");
  const banking = banker?.user === me;
  const queued = bank.queue.some((entry) => entry.user === me);
  const mode = banking ? (banker.leaving ? "" : "step_down") : queued ? "leave" : "apply";
  button.hidden = !mode;
  button.dataset.mode = mode;
  button.textContent = mode === "step_down" ? t("bank_step_down") : mode === "leave" ? t("bank_leave") : t("bank_apply");
}

function renderRoads(roads) {
  const rows = roads?.areas || {};
  $("#roads").replaceChildren(
    ...AREAS.map((area) =>
      h(
        "div",
        { class: "sg-road", dataset: { area } },
        h("span", { class: "name" }, t(`area_${area}`)),
        ...(rows[area] || []).slice(-ROAD_SHOWN).map((won) => h("span", { class: `mark ${won ? "won" : "lost"}` }, t(won ? "road_won" : "road_lost"))),
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
  if (last?.seed) box.querySelector("code").textContent = last.seed;
}

// ---- Wiring -------------------------------------------------------------

$("#cancel-bets").addEventListener("click", () => betIntent("cancel"));
$("#repeat-bets").addEventListener("click", () => betIntent("repeat"));
$("#bank-toggle").addEventListener("click", (event) => send(event.currentTarget.dataset.mode === "apply" ? "bank" : "unbank"));

kit.start();
