// The 填大坑 (tiandakeng) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (不加 check, 跟注 call,
// 加注 raise, 全压 all in, 放弃 fold), every card shown is one the engine's view for this
// seat carries (the others' two face-down cards stay backs until the showdown), and a
// refused action comes back as an `error` under the buttons. The view: docs/rules/tiandakeng.md.

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

/** A seat's cards: two face down (backs unless this viewer may see them), then the face-up ones; 借牌 marked. */
function cardRow(view, index, size) {
  const down = view.down?.[index];
  const holes = Array.isArray(down) ? down.map((c) => cardElement(c, { size })) : [cardBack({ size }), cardBack({ size })];
  holes.forEach((el) => el.classList.add("hole"));
  const shared = new Set((view.shared || []).filter((s) => s.seats.includes(index)).map((s) => s.card));
  const up = (view.up?.[index] || []).map((c) => {
    const el = cardElement(c, { size });
    if (shared.has(c)) el.classList.add("shared");
    return el;
  });
  return [...holes, ...up];
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
    const category = view?.result?.specials?.[index];
    const points = view?.result?.points?.[index];
    return ovalSeat(
      {
        prefix: "tk",
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
      typeof points === "number" ? h("div", { class: "category" }, [t("points", { points }), category ? ` · ${t(`cat_${category}`)}` : ""].join("")) : null,
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
    if (view.level) limits.push(t("lanpot_level", { pot: fmt(view.carry_in), times: 2 ** view.level }));
    if (view.round === 3) limits.push(t("allin_total", { amount: fmt(view.allin ?? view.allin_total) }));
  }
  $("#limits").textContent = limits.join(" · ");
  kit.renderStatus(() => (view && view.phase !== "finished" ? turnStatus(isMyTurn(), actorsOf(snap), seatName) : ""));
}

function renderActions(snap, view) {
  const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
  const own = (choice) => (choice.type === "allin" ? button(t("allin"), "allin", choice, "secondary") : null);
  const buttons = betButtons(button, choices, { callAmount: view?.to_call, raiseKey: "raise_to" }, own);
  kit.renderActionBar(buttons, choices.length ? snap.hand.deadline : null);
}

/** The viewer's cards, large: the two face-down ones (only this seat sees them) and the face-up ones. */
function renderMine(liveView) {
  const box = $("#my-hand");
  const seat = mySeat();
  const view = liveView || finishedView();
  if (seat === null || !view || !Array.isArray(view.up?.[seat])) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(...cardRow(view, seat, ""));
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
  const winners = finished ? (finished.winner === null ? [] : [finished.winner]) : (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  panel.querySelector(".title").textContent = !winners.length
    ? t("lanpot")
    : winners.includes(mySeat()) ? t("you_win") : t("winner_is", { names });
  panel.querySelector(".sub").textContent = endedLine(finished?.ended_by || result?.details?.ended_by, finished?.pot ?? result?.details?.pot);
  const rows = resultRows(result, finished?.deltas, seatName).map((row) => resultRow(row, mySeat(), playerCell(row, seatName)));
  panel.querySelector("tbody").replaceChildren(...rows);
  renderResultFoot(panel, result);
  // The reveal: every seat whose face-down cards this viewer's view carries (the showdown's, and its own).
  const shown = (view?.down || []).map((card, index) => (card ? index : null)).filter((index) => index !== null);
  renderFinalHands(panel, shown, seatName, (index) => [
    h("div", { class: "cards" }, cardRow(view, index, "tiny")),
    h(
      "span",
      { class: "category" },
      [
        typeof view.result?.points?.[index] === "number" ? t("points", { points: view.result.points[index] }) : "",
        view.result?.specials?.[index] ? t(`cat_${view.result.specials[index]}`) : "",
        view.result?.xiqian?.[index] ? t("xiqian_paid", { amount: view.result.xiqian[index] }) : "",
      ]
        .filter(Boolean)
        .join(" · "),
    ),
  ]);
}

kit.start();
