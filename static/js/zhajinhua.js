// The 炸金花 (zhajinhua) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (看牌, 跟注,
// 加注, 比牌, 弃牌) with the amounts the engine lists, and off turn the hand's
// `out_of_turn` (看牌), every card shown is one
// the engine's view for this seat carries (face down otherwise), and a refused
// action comes back as an `error` shown under the buttons. Messages are in
// docs/protocol.md; the view's keys in docs/rules/zhajinhua.md.

import { betButtons, turnActors, turnStatus } from "./betting.js";
import { cardBack, cardElement } from "./cards.js";
import { badge, moneyLine, ovalSeat, renderPhase, renderPot, seatBadges } from "./felt.js";
import { endedLine, openResultPanel, playerCell, renderFinalHands, renderResultFoot, resultRow, resultRows } from "./results.js";
import { $, clock, h, seatedTable, t, tick } from "./tablekit.js";

// Display order only (A high, 2 low); the server ranks hands.
const RANKS = "23456789TJQKA";

const model = {
  picking: false, // the 比牌 target picker is open
};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand;
    const view = msg.hand?.view;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== view?.turn) {
      setMessage("");
      model.picking = false;
    }
  },
  onAct() {
    model.picking = false;
  },
});
const { act, button, finishedView, mySeat, seatName, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = kit.liveView;

const actorsOf = turnActors;

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat);
}

function sortCards(cards) {
  const weight = (c) => RANKS.indexOf(c.slice(0, -1)) * 4 + "dchs".indexOf(c.slice(-1));
  return [...cards].sort((a, b) => weight(b) - weight(a));
}

/** The seat's state word: 暗 blind, 明 seen, 弃牌 folded, 出局 out (lost a 比牌). */
function seatState(view, index) {
  const status = view?.status?.[index];
  if (status === "folded") return "folded";
  if (status === "lost") return "lost";
  if (!status) return null;
  return view.looked?.[index] ? "seen" : "blind";
}

/** What the seat did last (from the public log). */
function lastSaid(view, index) {
  const log = view?.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.seat !== index) continue;
    if (entry.type === "look") return t("said_look");
    if (entry.type === "call") return t("said_call", { amount: entry.amount });
    if (entry.type === "raise") return t("said_raise", { amount: entry.amount });
    if (entry.type === "fold") return entry.reason === "cannot_cover" ? t("said_cannot_cover") : t("said_fold");
    if (entry.type === "compare") return entry.winner === index ? t("said_compare_won") : t("said_compare_lost");
  }
  return "";
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  renderInfo(snap, view);
  renderSeats(snap, view || finishedView());
  renderCenter(snap, view);
  renderResult();
  renderActions(snap, view);
  renderMine(view);
  tick();
}

function renderInfo(snap, view) {
  kit.renderTopBar();
  $("#ante").textContent = view?.ante ?? snap?.table?.tier?.base_stake ?? "–";
  $("#stake").textContent = view?.stake ?? "–";
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const box = $("#seats");
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const state = seatState(view, index);
    const dealer = view && view.dealer === index && badge("dealer", t("dealer"));
    const cards = view?.hands?.[index];
    const mine = index === mySeat();
    let cardRow = null;
    if (Array.isArray(cards)) {
      // Face up only where the view says this viewer may see them (the viewer's own are below).
      if (!mine || view.phase === "finished") {
        cardRow = h("div", { class: "cards shown" }, sortCards(cards).map((c) => cardElement(c, { size: "tiny" })));
      }
    } else if (view && state && !mine) {
      cardRow = h("div", { class: "cards" }, [0, 1, 2].map(() => cardBack({ size: "tiny" })));
    }
    const category = view?.categories?.[index];
    const turn = actors.includes(index);
    return ovalSeat(
      {
        prefix: "zj",
        index,
        count: seats.length,
        viewer: mySeat(),
        seat,
        turn,
        state: state || "",
        badges: seatBadges(seat, { snap, view, own: [dealer] }),
        data: { state: state || "" },
      },
      view && state ? moneyLine(view, index) : null,
      cardRow,
      category && (!mine || view.phase === "finished") ? h("div", { class: "category" }, t(`cat_${category}`)) : null,
      view?.phase === "betting" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      turn ? clock(snap.hand?.deadline, { tag: "div" }) : null,
    );
  });
  box.replaceChildren(...els);
}

function renderCenter(snap, view) {
  renderPot(view || finishedView());
  renderPhase(view);
  $("#round").textContent = view?.round ? `${t("round", { round: view.round })} · ${t("round_cap", { rounds: view.caps?.max_rounds })}` : "";
  const compares = view?.compares || [];
  const last = compares[compares.length - 1];
  $("#compare-note").textContent = last
    ? t("compare_note", { seat: seatName(last.seat), target: seatName(last.target), winner: seatName(last.winner) })
    : "";
  kit.renderStatus(() => (view && view.phase !== "finished" ? turnStatus(isMyTurn(), actorsOf(snap), seatName) : ""));
}

function renderActions(snap, view) {
  const targets = $("#targets");
  const you = snap?.you;
  // On the viewer's turn the view's choices; off turn what the server lets the seat do out of turn
  // (看牌 look, from the deal on: the hand's `out_of_turn`). Under 托管 neither.
  const myTurn = isMyTurn();
  const offTurn = view?.phase === "betting" ? snap?.hand?.out_of_turn || [] : [];
  const choices = you?.trustee || !view ? [] : myTurn ? view.choices || [] : offTurn;
  const compares = choices.filter((c) => c.type === "compare");
  // 比牌 choices draw no button each: one button (below) opens the picker of their targets.
  const own = (choice) => (choice.type === "look" ? button(t("look"), "look", choice, "secondary") : null);
  const buttons = betButtons(button, choices, { callAmount: view?.call_cost, raiseKey: "raise_amount" }, own);
  if (compares.length) {
    // 比牌 costs twice the call (docs/rules/zhajinhua.md); the engine charges it, this only labels it.
    const cost = view.compare_cost ?? 0;  // the server's figure; the client decides no rule
    const open = () => {
      model.picking = !model.picking;
      render();
    };
    buttons.splice(buttons.length - 1, 0, button(t("compare_amount", { amount: cost }), "compare", open, "secondary", { amount: cost }));
  }
  kit.renderActionBar(buttons, myTurn && choices.length ? snap.hand.deadline : null);

  targets.hidden = !(model.picking && compares.length);
  targets.replaceChildren(
    h("span", { class: "caption" }, t("choose_target")),
    ...compares.map((c) => button(seatName(c.target), "compare-target", () => act(c), "primary small", { target: c.target })),
    button(t("cancel"), "cancel-compare", () => { model.picking = false; render(); }, "ghost small"),
  );
}

/** The viewer's three cards: face down until 看牌 (the view sends them only then). */
function renderMine(liveView) {
  const box = $("#my-hand");
  const seat = mySeat();
  const view = liveView || finishedView();
  const category = $("#my-category");
  if (seat === null || !view) {
    box.replaceChildren();
    category.textContent = "";
    return;
  }
  const cards = view.hand;
  if (Array.isArray(cards)) {
    box.replaceChildren(...sortCards(cards).map((c) => cardElement(c)));
    box.dataset.shown = "yes";
    category.textContent = view.hand_category ? t(`cat_${view.hand_category}`) : "";
  } else {
    box.replaceChildren(cardBack(), cardBack(), cardBack());
    box.dataset.shown = "no";
    const out = ["folded", "lost"].includes(view.status?.[seat]);
    category.textContent = view.phase === "finished" ? "" : out ? t("cards_hidden_out") : t("cards_face_down");
  }
}

function renderResult() {
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const panel = openResultPanel(model, view);
  if (!panel) return;
  const winners = finished?.winners || (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  const title = winners.includes(mySeat()) && winners.length === 1
    ? t("you_win")
    : winners.length > 1 ? t("winners_split", { names }) : t("winner_is", { names });
  panel.querySelector(".title").textContent = title;
  panel.querySelector(".sub").textContent = endedLine(finished?.ended_by || result?.details?.ended_by, finished?.pot ?? result?.details?.pot);
  const rows = resultRows(result, finished?.deltas, seatName).map((row) => resultRow(row, mySeat(), playerCell(row, seatName)));
  panel.querySelector("tbody").replaceChildren(...rows);
  renderResultFoot(panel, result);
  // Only the hands this viewer's view carries: the rules decide who sees what.
  const hands = (view?.hands || []).map((cards, index) => (Array.isArray(cards) ? index : null)).filter((index) => index !== null);
  renderFinalHands(panel, hands, seatName, (index) => [
    h("div", { class: "cards" }, sortCards(view.hands[index]).map((c) => cardElement(c, { size: "tiny" }))),
    h("span", { class: "category" }, view.categories?.[index] ? t(`cat_${view.categories[index]}`) : ""),
  ]);
}

// ---- Wiring -------------------------------------------------------------

kit.start();
