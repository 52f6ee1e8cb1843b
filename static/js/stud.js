// The client of the stud pot games (梭哈 suoha, 填大坑 tiandakeng), which draw the same page:
// seats around the oval with their bets, their cards (the face-down ones first) and what they
// said this round; the pot, the phase, the round and the limits in the middle; the betting
// buttons; the viewer's own cards, large; the result with every hand shown down.
//
// It never decides a rule: the buttons are the view's `choices`, every card shown is one the
// engine's view for this seat carries, and a refused action comes back as an `error` under
// the buttons. Each game's module passes what is its own (see `studTable`).

import { betButtons, turnActors, turnStatus } from "./betting.js";
import { badge, moneyLine, ovalSeat, renderPhase, renderPot, seatBadges } from "./felt.js";
import { endedLine, openResultPanel, playerCell, renderFinalHands, renderResultFoot, resultRow, resultRows } from "./results.js";
import { $, clock, coins, h, seatedTable, t, tick } from "./tablekit.js";

/**
 * Start the table client of a stud game. `game` gives:
 * - `prefix`: its pages' class prefix ("sh" → `.sh-seat`, `.sh-state`);
 * - `cardRow(view, index, size)`: a seat's card elements, the face-down ones (class `hole`) first;
 * - `seatCategory(result, index)` / `finalCategory(result, index)`: the words under a seat's cards
 *   and beside its hand in the result panel once the hand is decided ("" for none);
 * - `limits(view)`: the notes on the limits of the hand in play;
 * - `ownChoices`: its own choices' types → their button kind (the label is the type's);
 * - `actorsOf(snap)`: the seats the table waits for (default `turnActors`);
 * - `noWinnerTitle`: the title's label when the hand ends with no winner (填大坑's 烂锅);
 * - `renderMine(view, seat, box)`: more for the viewer's own cards (`view` null until dealt).
 */
export function studTable(game) {
  const { prefix, cardRow, seatCategory, finalCategory, limits, ownChoices = {}, actorsOf = turnActors } = game;
  const model = {};
  const kit = seatedTable({
    model,
    render,
    onState(msg, previous) {
      const before = previous?.hand;
      if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== msg.hand.view?.turn) kit.setMessage("");
    },
  });
  const { button, finishedView, liveView, mySeat, seatName } = kit;

  function isMyTurn() {
    const seat = mySeat();
    return seat !== null && actorsOf(model.snapshot).includes(seat) && (liveView()?.choices || []).length > 0;
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

  function render() {
    const snap = model.snapshot;
    const view = liveView();
    kit.markPage(isMyTurn());
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
      const category = view?.result ? seatCategory(view.result, index) : "";
      return ovalSeat(
        {
          prefix,
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
          ? h("div", { class: "round-bet", dataset: { amount: view.round_bets[index] } }, t("round_in", { amount: coins(view.round_bets[index]) }))
          : null,
        category ? h("div", { class: "category" }, category) : null,
        view && view.phase !== "finished" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
        turn ? clock(snap.hand?.deadline, { tag: "div" }) : null,
      );
    });
    $("#seats").replaceChildren(...els);
  }

  function renderCenter(snap, view) {
    renderPot(view || finishedView());
    renderPhase(view);
    const playing = view && view.phase !== "finished";
    $("#round").textContent = playing ? t("round", { round: view.round }) : "";
    $("#limits").textContent = playing ? limits(view).join(" · ") : "";
    kit.renderStatus(() => (playing ? turnStatus(isMyTurn(), actorsOf(snap), seatName) : ""));
  }

  function renderActions(snap, view) {
    const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
    const own = (choice) => (ownChoices[choice.type] ? button(t(choice.type), choice.type, choice, ownChoices[choice.type]) : null);
    const buttons = betButtons(button, choices, { callAmount: view?.to_call, raiseKey: "raise_to" }, own);
    kit.renderActionBar(buttons, choices.length ? snap.hand.deadline : null);
  }

  /** The viewer's cards, large: the face-down ones (only this seat sees them) and the face-up ones. */
  function renderMine(live) {
    const box = $("#my-hand");
    const seat = mySeat();
    const view = live || finishedView();
    const dealt = seat !== null && view && Array.isArray(view.up?.[seat]);
    box.replaceChildren(...(dealt ? cardRow(view, seat, "") : []));
    game.renderMine?.(dealt ? view : null, seat, box);
  }

  function renderResult() {
    const result = model.result;
    const view = finishedView();
    const finished = view?.result || null;
    const panel = openResultPanel(model, view);
    if (!panel) return;
    const winners = finished ? (finished.winner === null ? [] : [finished.winner]) : (result?.seats || []).filter((r) => r.won).map((r) => r.index);
    const names = winners.map(seatName).join("、");
    let title = winners.includes(mySeat()) ? t("you_win") : t("winner_is", { names });
    if (!winners.length && game.noWinnerTitle) title = t(game.noWinnerTitle);
    panel.querySelector(".title").textContent = title;
    panel.querySelector(".sub").textContent = endedLine(finished?.ended_by || result?.details?.ended_by, finished?.pot ?? result?.details?.pot);
    const rows = resultRows(result, finished?.deltas, seatName).map((row) => resultRow(row, mySeat(), playerCell(row, seatName)));
    panel.querySelector("tbody").replaceChildren(...rows);
    renderResultFoot(panel, result);
    // The reveal: every seat whose face-down cards this viewer's view carries (the showdown's, and its own).
    const shown = (view?.down || []).map((down, index) => (down ? index : null)).filter((index) => index !== null);
    renderFinalHands(panel, shown, seatName, (index) => [
      h("div", { class: "cards" }, cardRow(view, index, "tiny")),
      h("span", { class: "category" }, view.result ? finalCategory(view.result, index) : ""),
    ]);
  }

  kit.start();
  return kit;
}
