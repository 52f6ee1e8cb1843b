// The 梭哈 (suoha) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (过 check, 跟 call,
// 加 bet, 梭 all in, 开 open, 弃 fold, and 换牌 swap / keep when a card is dealt face
// down), every card shown is one the engine's view for this seat carries (the other
// seats' 底牌 face down until the showdown), and a refused action comes back as an
// `error` under the buttons. Messages are in docs/protocol.md; the view in docs/rules/suoha.md.

import { betButtons, turnStatus } from "./betting.js";
import { cardBack, cardElement } from "./cards.js";
import { badge, moneyLine, ovalSeat, renderPhase, renderPot, seatBadges } from "./felt.js";
import { endedLine, playerCell, renderFinalHands, renderResultFoot, resultRow, resultRows } from "./results.js";
import { $, clock, coins as fmt, h, root, seatedTable, t, tick } from "./tablekit.js";

const model = {};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== msg.hand.view?.turn) setMessage("");
  },
});
const { act, button, finishedView, mySeat, seatName, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = kit.liveView;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  if (hand.actors?.length) return hand.actors;
  if (hand.view?.phase === "swap") return hand.view.deciding || [];
  return typeof hand.view?.turn === "number" ? [hand.view.turn] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat) && (currentView()?.choices || []).length > 0;
}

/** What the seat did last this round (from the public log). */
function lastSaid(view, index) {
  const log = view?.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.round !== view.round) return "";
    if (entry.seat === index) return t(`said_${entry.type}`);
  }
  return "";
}

/** A seat's five (or fewer) cards: its 底牌 first (face down unless this viewer may see it), then the face-up ones. */
function cardRow(view, index, size) {
  const down = view.down?.[index];
  const hole = down ? cardElement(down, { size }) : cardBack({ size });
  hole.classList.add("hole");
  return [hole, ...(view.up?.[index] || []).map((c) => cardElement(c, { size }))];
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
  kit.renderTopBar();
  $("#base").textContent = view?.base ?? snap?.table?.tier?.base_stake ?? "–";
  renderSeats(snap, view || finishedView());
  renderCenter(snap, view);
  renderResult();
  renderActions(snap, view);
  renderMine(view);
  tick();
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const dealt = view && Array.isArray(view.up?.[index]);
    const leads = view && view.leader === index && view.phase === "betting";
    const turn = actors.includes(index);
    const category = view?.result?.categories?.[index];
    return ovalSeat(
      {
        prefix: "sh",
        index,
        count: seats.length,
        viewer: mySeat(),
        seat,
        turn,
        state: view?.status?.[index] === "folded" ? "folded" : "",
        badges: seatBadges(seat, { snap, view, own: [leads && badge("leads", t("leads"))] }),
      },
      dealt ? moneyLine(view, index) : null,
      dealt ? h("div", { class: "cards", dataset: { seat: index } }, cardRow(view, index, "tiny")) : null,
      dealt && view.phase === "betting" && view.round_bets?.[index]
        ? h("div", { class: "round-bet", dataset: { amount: view.round_bets[index] } }, t("round_in", { amount: fmt(view.round_bets[index]) }))
        : null,
      category ? h("div", { class: "category" }, t(`cat_${category}`)) : null,
      view && view.phase !== "finished" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      turn ? clock(snap.hand?.deadline, { tag: "div" }) : null,
    );
  });
  $("#seats").replaceChildren(...els);
}

function renderCenter(snap, view) {
  renderPot(view || finishedView());
  renderPhase(view);
  $("#round").textContent = view && view.phase !== "finished" ? t("round", { round: view.round }) : "";
  const limits = [];
  if (view && view.phase !== "finished") {
    if (view.round_cap) limits.push(t("round_cap", { amount: fmt(view.round_cap) }));
    limits.push(t("suo_total", { amount: fmt(view.suo ?? view.suo_total) }));
  }
  $("#limits").textContent = limits.join(" · ");
  kit.renderStatus(() => (view && view.phase !== "finished" ? turnStatus(isMyTurn(), actorsOf(snap), seatName) : ""));
}

const OWN_CHOICES = { suo: "secondary", open: "secondary", swap: "primary", keep: "secondary" };

function renderActions(snap, view) {
  const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
  const own = (choice) => (OWN_CHOICES[choice.type] ? button(t(choice.type), choice.type, choice, OWN_CHOICES[choice.type]) : null);
  const buttons = betButtons(button, choices, { callAmount: view?.to_call, raiseKey: "raise_to" }, own);
  kit.renderActionBar(buttons, choices.length ? snap.hand.deadline : null);
}

/** The viewer's cards, large: the 底牌 (only this seat sees it) and the face-up ones; a card to swap in. */
function renderMine(liveView) {
  const box = $("#my-hand");
  const dealtBox = $("#my-dealt");
  const seat = mySeat();
  const view = liveView || finishedView();
  if (seat === null || !view || !Array.isArray(view.up?.[seat])) {
    box.replaceChildren();
    dealtBox.hidden = true;
    return;
  }
  box.replaceChildren(...cardRow(view, seat, ""));
  box.dataset.hole = view.down?.[seat] || "";
  const dealt = view.dealt;
  dealtBox.hidden = !dealt;
  dealtBox.dataset.card = dealt || "";
  dealtBox.replaceChildren(
    ...(dealt ? [h("span", { class: "caption" }, t("new_card")), cardElement(dealt), h("span", { class: "caption" }, t("swap_note"))] : []),
  );
}

function renderResult() {
  const panel = $("#result");
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const handId = result?.hand ?? model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id;
  const show = Boolean(result || finished) && model.resultDismissed !== handId;
  panel.hidden = !show;
  if (!show) return;
  const winners = finished ? [finished.winner] : (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  panel.querySelector(".title").textContent = winners.includes(mySeat()) ? t("you_win") : t("winner_is", { names });
  panel.querySelector(".sub").textContent = endedLine(finished?.ended_by || result?.details?.ended_by, finished?.pot ?? result?.details?.pot);
  const rows = resultRows(result, finished?.deltas, seatName).map((row) => resultRow(row, mySeat(), playerCell(row, seatName)));
  panel.querySelector("tbody").replaceChildren(...rows);
  renderResultFoot(panel, result);
  // The reveal: every seat whose 底牌 this viewer's view carries (the showdown's, and its own).
  const shown = (view?.down || []).map((card, index) => (card ? index : null)).filter((index) => index !== null);
  renderFinalHands(panel, shown, seatName, (index) => [
    h("div", { class: "cards" }, cardRow(view, index, "tiny")),
    h("span", { class: "category" }, view.result?.categories?.[index] ? t(`cat_${view.result.categories[index]}`) : ""),
  ]);
}

kit.start();
