// The 楚汉德州 (Chu-Han Hold'em) client: draw the round the server sends, send bets and the 咪牌.
//
// It decides no rule. The areas and their odds come from the round's `areas`; the cards, and each
// hand's category once it is whole, are only what the server has revealed (the board, then 汉's
// and 楚's cards); who may turn the hands is the round's `revealer` (docs/protocol.md), and only
// while `revealer.waiting` does the page offer them the button. A refused action comes back as
// an `error`; the balance is the wallet's.

import { cardBack, cardElement } from "./cards.js";
import { RoundSocket } from "./socket.js";
import { $, coins, config, connectTable, h, renderBalance, root, t, tick } from "./tablekit.js";

const MAIN_AREAS = ["chu", "tie", "han"];
// 保险楚汉德州's later streets have their own areas: chu_2 … han_3 (the street after the underscore).
const STREET = /^(chu|tie|han)_(\d)$/;

/** An area's words: its name, and for a later street's area that street. */
function areaName(area) {
  const street = STREET.exec(area);
  return street ? `${t(`area_${street[1]}`)} · ${t("street", { n: street[2] })}` : t(`area_${area}`);
}
const SIZES = { han: 2, board: 5, chu: 2 };
const ROAD_SHOWN = 30;

const model = { snapshot: null, payout: null, balance: null, chip: null, seq: 0, dealt: { round: null } };

const kit = connectTable({ model, onMessage: handleMessage, render, Socket: RoundSocket });
const { socket, setMessage } = kit;

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
  const rnd = msg.round;
  if (before && (!rnd || before.id !== rnd.id || before.phase !== rnd.phase)) setMessage("");
  const tier = msg.table?.tier;
  const chips = tier?.chips || [];
  if (model.chip === null || !chips.includes(model.chip)) {
    model.chip = chips.find((value) => value >= (tier?.min_bet || 0)) ?? chips[0] ?? null;
  }
  render();
}

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

function render() {
  const snap = model.snapshot;
  const rnd = snap?.round || null;
  const waiting = Boolean(rnd?.revealer?.waiting);
  root.dataset.phase = rnd?.phase || "idle";
  root.dataset.reveal = waiting ? "waiting" : "";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.round = rnd ? String(rnd.id) : "";
  $("#tier-name").textContent = snap?.table?.tier?.name || "";
  $("#hand-number").textContent = rnd ? t("round_number", { number: rnd.number }) : "";
  $("#min-bet").textContent = coins(snap?.table?.tier?.min_bet ?? null);
  renderBalance(model.balance);
  renderStatus(rnd, waiting);
  if (model.dealt.round !== (rnd?.id ?? null)) model.dealt = { round: rnd?.id ?? null };
  for (const hand of Object.keys(SIZES)) renderHand(hand, rnd);
  renderReveal(rnd);
  renderAreas(rnd);
  renderEarlier(rnd, snap?.you);
  renderOutcome(rnd);
  renderChips();
  const betting = rnd?.phase === "betting";
  // 撤销 returns the open window's bets only: an earlier street's stand.
  $("#cancel-bets").disabled = !betting || !(rnd?.areas || []).some((a) => a.mine);
  $("#repeat-bets").disabled = !betting || Boolean(snap?.you?.staked);
  kit.renderMessage();
  renderMyResult(rnd);
  renderRoads(snap?.roads);
  renderShoe(snap, rnd);
  tick();
}

function renderStatus(rnd, waiting) {
  $("#phase").textContent = waiting ? t("phase_reveal") : t(`phase_${rnd?.phase || "idle"}`);
  const street = rnd?.window ? ` · ${t("street", { n: rnd.window + 1 })}` : "";
  $("#coup").textContent = rnd ? `${t("shoe_coup", { shoe: rnd.shoe, coup: rnd.coup })}${street}` : "";
  const countdown = $("#countdown");
  if (rnd?.deadline && (rnd.phase === "betting" || rnd.phase === "result" || waiting)) {
    countdown.replaceChildren(
      rnd.phase === "result" ? h("span", { class: "caption" }, t("next_round_in")) : "",
      h("span", { class: "clock", dataset: { deadline: rnd.deadline } }),
    );
  } else countdown.replaceChildren();
}

/** One hand (or the board): the revealed cards face up, the rest face down. */
function renderHand(hand, rnd) {
  const box = root.querySelector(`[data-hand='${hand}']`);
  const cards = rnd?.cards?.[hand] || [];
  const already = model.dealt[hand] || 0;
  const faces = cards.map((card, i) => {
    const el = cardElement(card, { size: "small" });
    if (i >= already) el.classList.add("dealt");
    return el;
  });
  const backs = rnd ? Array.from({ length: SIZES[hand] - cards.length }, () => cardBack({ size: "small" })) : [];
  box.querySelector(".cards").replaceChildren(...faces, ...backs);
  model.dealt[hand] = cards.length;
  const factsEl = box.querySelector(".sg-facts");
  if (!factsEl) return;
  const facts = rnd?.totals?.[hand];
  factsEl.dataset.category = facts ? facts.category : "";
  factsEl.replaceChildren(...(facts ? [h("span", { class: "category" }, t(`cat_${facts.category}`))] : []));
}

/** 咪牌: who turns the hands; the button only for them, only while the reveal waits. */
function renderReveal(rnd) {
  const bar = $("#reveal-bar");
  const who = rnd?.revealer || null;
  const mine = who?.user === config.userId;
  bar.hidden = !who;
  bar.dataset.mine = mine ? "yes" : "";
  bar.dataset.waiting = who?.waiting ? "yes" : "";
  const area = who ? areaName(who.area) : "";
  $("#reveal-text").textContent = !who
    ? ""
    : who.waiting
      ? mine
        ? t("reveal_you", { area })
        : t("reveal_other", { name: who.name, area })
      : t("reveal_done", { name: who.name });
  $("#reveal-button").hidden = !(mine && who?.waiting);
}

function areaBox(area, main) {
  return h(
    "button",
    { type: "button", class: `sg-bet ch-bet${main ? " main" : ""}`, dataset: { area }, onclick: () => placeBet(area) },
    h("span", { class: "name" }, areaName(area)),
    h("span", { class: "odds" }),
    h("span", { class: "total" }),
    h("span", { class: "mine" }),
  );
}

function renderAreas(rnd) {
  const box = $("#areas");
  const offered = rnd?.areas || [];
  const names = offered.map((a) => a.area);
  if (box.dataset.keys !== names.join(",") && names.length) {
    box.dataset.keys = names.join(",");
    const isMain = (area) => MAIN_AREAS.includes(area) || STREET.test(area);
    const main = names.filter(isMain);
    const types = names.filter((area) => !isMain(area));
    box.replaceChildren(
      h("div", { class: "ch-main" }, ...main.map((area) => areaBox(area, true))),
      h("div", { class: "ch-types" }, ...types.map((area) => areaBox(area, false))),
    );
  }
  const wins = rnd?.phase === "result" ? rnd.result?.wins || [] : null;
  for (const a of offered) {
    const button = box.querySelector(`.ch-bet[data-area='${a.area}']`);
    if (!button) continue;
    button.disabled = rnd?.phase !== "betting" || !a.open;
    button.dataset.outcome = wins ? (wins.includes(a.area) ? "won" : "lost") : "";
    button.classList.toggle("staked", Boolean(a.mine));
    button.querySelector(".odds").textContent = a.odds;
    const total = button.querySelector(".total");
    total.dataset.value = String(a.total || 0);
    total.textContent = t("area_total", { amount: coins(a.total || 0) });
    const mine = button.querySelector(".mine");
    mine.dataset.value = String(a.mine || 0);
    mine.textContent = a.mine ? t("area_mine", { amount: coins(a.mine) }) : "";
    button.setAttribute("aria-label", `${areaName(a.area)} ${a.odds}`);
  }
}

/**
 * The bets still standing from the windows closed before this one (保险楚汉德州's earlier streets):
 * one read-only row per street, each bet at the odds it was placed at, with the area's total, and
 * the player's total on the coup. They stay until the result, a reload included (the round's
 * `earlier_windows`).
 */
function renderEarlier(rnd, you) {
  const box = $("#earlier-bets");
  const wins = rnd?.phase === "result" ? rnd.result?.wins || [] : [];
  const rows = (rnd?.earlier_windows || [])
    .map((w) => ({ window: w.window, bets: w.areas.filter((a) => a.mine) }))
    .filter((w) => w.bets.length);
  box.hidden = !rows.length;
  box.dataset.staked = rows.length ? String(you?.staked || 0) : "";
  if (!rows.length) return box.replaceChildren();
  // A first street's area has no street in its name: say it here, where streets sit side by side.
  const name = (area, w) => (STREET.test(area) ? areaName(area) : `${areaName(area)} · ${t("street", { n: w + 1 })}`);
  box.replaceChildren(
    ...rows.map((row) =>
      h(
        "div",
        { class: "ch-earlier-row", dataset: { window: String(row.window) } },
        ...row.bets.map((a) =>
          h(
            "span",
            { class: "ch-earlier-bet", dataset: { area: a.area, outcome: wins.includes(a.area) ? "won" : "" } },
            h("span", { class: "name" }, name(a.area, row.window)),
            h("span", { class: "odds" }, a.odds),
            h("span", { class: "mine", dataset: { value: String(a.mine) } }, t("area_mine", { amount: coins(a.mine) })),
            h("span", { class: "total" }, t("area_total", { amount: coins(a.total || 0) })),
          ),
        ),
      ),
    ),
    h("div", { class: "ch-earlier-sum" }, t("coup_staked", { amount: coins(you?.staked || 0) })),
  );
}

function renderOutcome(rnd) {
  const box = $("#outcome");
  const result = rnd?.phase === "result" ? rnd.result : null;
  box.dataset.winner = result ? result.winner : "";
  box.dataset.round = result ? String(rnd.id) : "";
  if (!result) return box.replaceChildren();
  const category = rnd.totals?.[result.winner === "chu" ? "chu" : "han"]?.category;
  box.replaceChildren(
    h("strong", { class: "sg-line won" }, t(`winner_${result.winner}`)),
    category ? h("span", { class: "sg-line" }, t("winning_type", { category: t(`cat_${category}`) })) : "",
  );
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
            t("bet_line", { area: areaName(bet.area), amount: coins(bet.amount), net: `${bet.net > 0 ? "+" : ""}${coins(bet.net)}` }),
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

function renderRoads(roads) {
  const winners = (roads?.winners || []).slice(-ROAD_SHOWN);
  $("#roads").replaceChildren(
    ...(winners.length
      ? winners.map((winner) => h("span", { class: `mark ${winner}`, dataset: { winner } }, t(`road_${winner}`)))
      : [h("span", { class: "muted" }, t("road_empty"))]),
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

$("#cancel-bets").addEventListener("click", () => betIntent("cancel"));
$("#repeat-bets").addEventListener("click", () => betIntent("repeat"));
$("#reveal-button").addEventListener("click", () => send("reveal"));

kit.start();
