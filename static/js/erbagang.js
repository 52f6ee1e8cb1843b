// The 二八杠 (Two-Eight Bar) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The buttons are exactly the view's `choices` (a bid for the bank,
// then a bet), the countdown is the hand's `deadline`, the die is the view's `die` (shown
// before the tiles), the tiles are the view's `hands` (none until they are opened), and the
// result panel shows the `result` message. The view's keys are in docs/rules/erbagang.md.

import { badge, renderCountdown, renderPhase, renderSeatRow, seatBadges, tileHead } from "./felt.js";
import { openOutcomePanel, playerCell, renderResultFoot, resultRow } from "./results.js";
import { $, anotherHand, clock, coins, h, seatedTable, t, tick } from "./tablekit.js";
import { dieElement, tileBack } from "./tiles.js";
import { tubeTiles } from "./tubes.js";

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

const actors = () => kit.actorsIn(["grab", "bet"]);

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

/** The view's tiles of a hand (none face down once a hand is opened). */
const tiles = tubeTiles;

function kindLabel(kind, points) {
  if (!kind) return "";
  if (kind === "points") return points === 0 ? t("kind_zero") : points === 1 ? t("kind_one_point") : t("kind_points", { points });
  return t(`kind_${kind}`);
}

/** What a seat said this hand: its bid, then its bet. */
function seatSaid(view, index) {
  if (!view) return "";
  if (view.phase === "grab") {
    const bid = view.grabs[index];
    if (bid === null) return "";
    return bid ? t("bid_said", { multiple: bid }) : t("no_bid_said");
  }
  if (index === view.banker) return t("pledge", { multiple: view.banker_multiple, amount: coins(view.pledge) });
  return view.bets[index] ? t("bet_said", { amount: coins(view.bets[index]) }) : "";
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  kit.renderTopBar();
  renderSeats(snap, view);
  renderCenter(snap, view);
  renderMine(view);
  renderResult(view); // before the actions: the Ready button hides behind an open result panel
  renderActions(snap, view);
  tick();
}

function renderSeats(snap, view) {
  renderSeatRow(snap, mySeat(), (index, seat) => seatTile(index, seat, snap, view));
}

function handTiles(view, index, size) {
  const shown = view?.hands?.[index];
  if (Array.isArray(shown)) return tiles(shown, size);
  if (view && view.phase === "dice") return [tileBack({ size }), tileBack({ size })];
  return [];
}

function seatTile(index, seat, snap, view) {
  const acting = actors().includes(index);
  const name = seat?.name || t("empty_seat");
  const said = seatSaid(view, index);
  const result = view?.result;
  const won = result?.player_wins?.[index];
  const tile = h(
    "section",
    { class: `eb-seat${acting ? " turn" : ""}${view?.banker === index ? " banker" : ""}`, dataset: { seat: index }, "aria-label": name },
    tileHead("eb", name, seatBadges(seat, { snap, view, own: [view && view.banker === index && badge("eb-banker-badge", t("banker_short"), t("banker"))] })),
    h("div", { class: "mtiles eb-tiles" }, handTiles(view, index, "small")),
    h(
      "div",
      { class: "eb-seat-foot" },
      said ? h("span", { class: "said" }, said) : null,
      result ? h("span", { class: "eb-kind" }, kindLabel(result.kinds[index], result.points[index])) : null,
      typeof won === "boolean" ? h("span", { class: `eb-vs ${won ? "won" : "lost"}` }, won ? t("beat_banker") : t("lost_to_banker")) : null,
      acting ? clock(snap.hand.deadline) : null,
    ),
  );
  return tile;
}

function renderCenter(snap, view) {
  renderPhase(view);
  renderCountdown(view && ["grab", "bet"].includes(view.phase) ? snap.hand.deadline : null);
  const banker = view && view.banker !== null ? view.banker : null;
  $("#banker-note").textContent =
    banker === null ? "" : `${t("banker")}: ${seatName(banker)} · ${t("pledge", { multiple: view.banker_multiple, amount: coins(view.pledge) })}`;
  // The die is shown from the moment it is rolled, before any tile is turned over.
  const die = $("#die");
  const value = view?.die ?? null;
  die.dataset.value = value ? String(value) : "";
  die.replaceChildren(...(value ? [dieElement(value, { label: t("die_label", { value }) })] : []));
  $("#die-note").textContent = value ? t("die_says", { value, name: seatName(view.first) }) : "";
  kit.renderStatus(() => {
    if (!view || !["grab", "bet"].includes(view.phase)) return "";
    const seat = mySeat();
    if (isMyTurn()) return view.phase === "grab" ? t("your_turn_bid") : t("your_turn_bet");
    return seat !== null && seat !== view.banker ? t("decided_wait") : t("countdown_note");
  });
}

function renderMine(view) {
  const seat = mySeat();
  const shown = seat !== null ? view?.hands?.[seat] : null;
  $("#my-hand").replaceChildren(...(Array.isArray(shown) ? tiles(shown, "large") : seat !== null ? handTiles(view, seat, "large") : []));
  const result = view?.result;
  $("#my-kind").textContent = result && seat !== null ? kindLabel(result.kinds[seat], result.points[seat]) : "";
  $("#my-choice").textContent = seat !== null ? seatSaid(view, seat) : "";
}

function choiceButton(choice) {
  if (choice.type === "grab") {
    if (!choice.multiple) return button(t("no_bid"), "grab", choice, "secondary", { multiple: 0 });
    return button(t("bid", { multiple: choice.multiple }), "grab", choice, "primary", { multiple: choice.multiple });
  }
  return button(t("bet_amount", { amount: coins(choice.amount) }), "bet", choice, "primary", { amount: choice.amount });
}

function renderActions(snap, view) {
  const acting = mySeat() !== null && isMyTurn() && !snap?.you?.trustee && view;
  kit.renderActionBar(acting ? (view.choices || []).map(choiceButton) : [], acting ? snap.hand.deadline : null);
}

function renderResult(liveView) {
  const result = model.result;
  const seat = mySeat();
  const opened = openOutcomePanel(model, liveView, seatName, seat);
  if (!opened) return;
  const { panel, view, rows } = opened;
  const details = result?.details || {};
  const sweep = details.sweep ?? view?.result?.sweep;
  const sweepLine = panel.querySelector(".eb-result-sweep");
  sweepLine.textContent = sweep ? t(`sweep_${sweep}`) : "";
  sweepLine.dataset.sweep = sweep || "";

  const shown = details.shown_hands || view?.hands || [];
  const kinds = details.kinds || view?.result?.kinds || [];
  const points = details.points || view?.result?.points || [];
  const banker = details.banker ?? view?.banker;
  const bets = details.bets || view?.bets || [];
  const body = rows.map((row) => {
    const cards = shown[row.index];
    const role = row.index === banker ? t("banker") : bets[row.index] ? t("bet_said", { amount: coins(bets[row.index]) }) : "";
    return resultRow(
      row,
      seat,
      playerCell(row, seatName, role),
      h(
        "td",
        { class: "eb-hand-cell" },
        Array.isArray(cards) ? h("div", { class: "mtiles" }, tiles(cards, "tiny")) : "–",
        h("span", { class: "eb-kind" }, kindLabel(kinds[row.index], points[row.index])),
      ),
    );
  });
  panel.querySelector("tbody").replaceChildren(...body);
  renderResultFoot(panel, result);
}

// ---- Wiring -------------------------------------------------------------

kit.start();
