// The 必下德州 (must-bet Texas hold'em) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The action buttons are exactly the view's `choices`
// (check, raise to a fixed stake, bet a fixed stake, fold), the one countdown is
// the hand's `deadline`, the hole cards shown are the view's `hands` (the
// server hides what the rules hide), and the result panel shows the `result`
// message. Messages are described in docs/protocol.md; the view's keys in
// docs/rules/texas.md.

import { cardBack, cardElement } from "./cards.js";
import { badge, renderCountdown, renderPhase, renderPot, renderSeatRow, seatBadges, tileHead } from "./felt.js";
import { openOutcomePanel, playerCell, renderResultFoot, resultRow } from "./results.js";
import { $, anotherHand, clock, coins, h, seatedTable, t, tick } from "./tablekit.js";

const model = {};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    if (anotherHand(previous, msg)) kit.setMessage("");
  },
});
const { button, mySeat, playerName: seatName } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = kit.liveView;

const actors = () => kit.actorsIn(["betting"]);

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

/** The blind a seat posted (0 for the others). */
function posted(view, index) {
  const [small, big] = view.blind_seats || [];
  if (index === small) return Math.min(view.small_blind, view.carried[index]);
  if (index === big) return Math.min(view.big_blind, view.carried[index]);
  return 0;
}

/** Say what a seat is now: out, folded, all-in, or what it chose. */
function seatState(view, index) {
  if (!view) return { key: "", text: "" };
  if (!view.carried[index]) return { key: "out", text: t("state_out") };
  if (view.folded[index]) return { key: "folded", text: t("state_folded") };
  const stake = view.stakes[index];
  if (stake > 0 && view.coins[index] === 0) return { key: "all-in", text: t("state_all_in") };
  if (!view.decided[index]) return { key: "thinking", text: "" };
  if ((view.blind_seats || []).includes(index)) {
    return stake > posted(view, index)
      ? { key: "raised", text: t("said_raise", { amount: coins(stake) }) }
      : { key: "checked", text: t("said_check") };
  }
  return { key: "bet", text: t("said_bet", { amount: coins(stake) }) };
}

function categoryLabel(category) {
  return category ? t(`cat_${category}`) : "";
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  renderInfo(snap, view);
  renderSeats(snap, view);
  renderCenter(snap, view);
  renderMine(view);
  renderResult(view); // before the actions: the Ready button hides behind an open result panel
  renderActions(snap, view);
  tick();
}

function renderInfo(snap, view) {
  kit.renderTopBar();
  const blindsFrom = view || snap?.last_hand?.view;
  $("#blinds").textContent = blindsFrom ? `${coins(blindsFrom.small_blind)}/${coins(blindsFrom.big_blind)}` : "–";
}

function renderSeats(snap, view) {
  renderSeatRow(snap, mySeat(), (index, seat) => seatTile(index, seat, snap, view));
}

/** The dealer and blind buttons, before the badges every game shows. */
function buttonBadges(index, seat, snap, view) {
  const blinds = view?.blind_seats || [];
  const own = [
    view && view.dealer === index && badge("tx-dealer", t("dealer_short"), t("dealer")),
    view && blinds[0] === index && badge("tx-blind", t("small_blind_short"), t("small_blind")),
    view && blinds[1] === index && badge("tx-blind", t("big_blind_short"), t("big_blind")),
  ];
  return seatBadges(seat, { snap, view, own });
}

function holeCards(view, index, size) {
  if (!view) return [];
  const cards = view.hands?.[index];
  if (Array.isArray(cards)) return cards.map((c) => cardElement(c, { size }));
  if (view.folded[index] || !view.carried[index]) return [];
  return [cardBack({ size }), cardBack({ size })];
}

function seatTile(index, seat, snap, view) {
  const state = seatState(view, index);
  const acting = actors().includes(index);
  const name = seat?.name || t("empty_seat");
  const tile = h(
    "section",
    {
      class: `tx-seat${acting ? " turn" : ""}${state.key ? ` is-${state.key}` : ""}`,
      dataset: { seat: index, state: state.key || "" },
      "aria-label": name,
    },
    tileHead("tx", name, buttonBadges(index, seat, snap, view)),
  );
  if (view) {
    const best = view.best?.[index];
    tile.append(
      h(
        "div",
        { class: "tx-seat-body" },
        h("div", { class: "cards tx-hole" }, holeCards(view, index, "tiny")),
        h(
          "div",
          { class: "tx-money" },
          h("div", { class: "tx-stake", dataset: { stake: view.stakes[index] } }, t("stake_amount", { amount: coins(view.stakes[index]) })),
          h("div", { class: "tx-left" }, t("coins_left", { amount: coins(view.coins[index]) })),
        ),
      ),
      h(
        "div",
        { class: "tx-seat-foot" },
        state.text ? h("span", { class: `said tx-state ${state.key}` }, state.text) : null,
        best && view.phase === "finished" ? h("span", { class: "tx-cat" }, categoryLabel(best.category)) : null,
        acting ? clock(snap.hand.deadline) : null,
      ),
    );
  } else if (seat?.name) {
    tile.append(h("div", { class: "tx-seat-foot" }, seat.ready ? "" : t("waiting_players_short")));
  }
  return tile;
}

function renderCenter(snap, view) {
  const board = $("#board");
  const cards = view?.board || (snap?.hand ? [] : snap?.last_hand?.view?.board) || [];
  if (cards.length) board.replaceChildren(...cards.map((c) => cardElement(c, { size: "small" })));
  else board.replaceChildren(...Array.from({ length: 5 }, () => cardBack({ size: "small" })));
  renderPot(view);
  renderPhase(view);
  renderCountdown(view?.phase === "betting" ? snap.hand.deadline : null);
  kit.renderStatus(() => {
    if (view?.phase !== "betting") return "";
    const seat = mySeat();
    if (isMyTurn()) return t("your_turn_bet");
    return seat !== null && view.decided[seat] ? t("decided_wait") : t("countdown_note");
  });
}

function renderMine(view) {
  const seat = mySeat();
  const handBox = $("#my-hand");
  const cards = view?.hand;
  handBox.replaceChildren(...(Array.isArray(cards) ? cards.map((c) => cardElement(c)) : []));
  const best = seat !== null ? view?.best?.[seat] : null;
  $("#my-category").textContent = best ? categoryLabel(best.category) : "";
  const mine = $("#my-stake");
  if (view && seat !== null) {
    const state = seatState(view, seat);
    mine.replaceChildren(
      h("span", { class: "tx-stake", dataset: { stake: view.stakes[seat] } }, t("stake_amount", { amount: coins(view.stakes[seat]) })),
      h("span", { class: "tx-left" }, t("coins_left", { amount: coins(view.coins[seat]) })),
      state.text ? h("span", { class: `said tx-state ${state.key}` }, state.text) : "",
    );
  } else {
    mine.replaceChildren();
  }
}

function choiceButton(choice, view) {
  const seat = mySeat();
  if (choice.type === "check") return button(t("check"), "check", choice, "secondary");
  if (choice.type === "fold") return button(t("fold"), "fold", choice, "");
  if (choice.type === "raise") {
    const extra = choice.amount - view.stakes[seat];
    const el = button(t("raise_to", { amount: coins(choice.amount) }), "raise", choice, "primary", { amount: choice.amount }, t("costs", { amount: coins(extra) }));
    el.append(h("small", { class: "tx-cost" }, `+${coins(extra)}`));
    return el;
  }
  if (choice.type === "bet") {
    const allIn = choice.amount === view.carried[seat];
    const label = allIn ? t("all_in_amount", { amount: coins(choice.amount) }) : t("bet_amount", { amount: coins(choice.amount) });
    return button(label, "bet", choice, "primary", { amount: choice.amount });
  }
  return button(choice.type, choice.type, choice, "");
}

function renderActions(snap, view) {
  const acting = mySeat() !== null && isMyTurn() && !snap?.you?.trustee && view;
  const buttons = acting ? (view.choices || []).map((choice) => choiceButton(choice, view)) : [];
  kit.renderActionBar(buttons, acting ? snap.hand.deadline : null);
}

function potName(i) {
  return i === 0 ? t("main_pot") : t("side_pot", { n: i });
}

function renderResult(liveView) {
  const result = model.result;
  const seat = mySeat();
  const opened = openOutcomePanel(model, liveView, seatName, seat);
  if (!opened) return;
  const { panel, view, rows } = opened;
  const details = result?.details || {};

  const board = details.board || view?.board || [];
  panel.querySelector(".tx-result-board").replaceChildren(...board.map((c) => cardElement(c, { size: "small" })));

  const shown = details.shown_hands || view?.hands || [];
  const categories = details.categories || (view?.best || []).map((b) => b?.category || null);
  const folded = view?.folded || [];
  const stakes = view?.stakes || [];
  const body = rows.map((row) => {
    const cards = shown[row.index];
    const handCell = Array.isArray(cards)
      ? h("td", { class: "tx-hand-cell" }, h("div", { class: "cards" }, cards.map((c) => cardElement(c, { size: "tiny" }))), h("span", { class: "tx-cat" }, categoryLabel(categories[row.index])))
      : h("td", { class: "tx-hand-cell muted" }, folded[row.index] ? t("state_folded") : "–");
    const stake = typeof stakes[row.index] === "number" ? t("stake_amount", { amount: coins(stakes[row.index]) }) : "";
    return resultRow(row, seat, playerCell(row, seatName, stake), handCell);
  });
  panel.querySelector("tbody").replaceChildren(...body);

  const pots = details.pots || view?.result?.pots || [];
  panel.querySelector(".tx-pots").replaceChildren(
    ...pots.map((pot, i) =>
      h(
        "li",
        { dataset: { amount: pot.amount } },
        h("strong", {}, `${potName(i)} ${coins(pot.amount)}`),
        " ",
        t("pot_won_by", { names: (pot.winners || []).map((w) => rows.find((r) => r.index === w)?.name || seatName(w)).join(", ") }),
      ),
    ),
  );
  renderResultFoot(panel, result);
}

// ---- Wiring -------------------------------------------------------------

kit.start();
