// The 推筒子 (Push the Tubes) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The wheel is the view's `wheel` (shown before the deal), the
// tiles are the view's `hands` (a hidden tile is null: drawn face down), the buttons are
// exactly the view's `choices` (no raise, or one of the raises), the countdown is the hand's
// `deadline`, and the result panel shows the `result` message with both pools. The view's
// keys are in docs/rules/tuitongzi.md.

import { renderCountdown, renderPhase, renderSeatRow, seatBadges, tileHead } from "./felt.js";
import { openOutcomePanel, playerCell, renderResultFoot, resultRow } from "./results.js";
import { $, anotherHand, clock, coins, h, seatedTable, t, tick } from "./tablekit.js";
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

const actors = () => kit.actorsIn(["raise"]);

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

const tiles = tubeTiles;

function kindLabel(kind, points) {
  if (!kind) return "";
  if (kind === "points") return points === 1 ? t("kind_one_point") : t("kind_points", { points });
  return t(`kind_${kind}`);
}

function raiseSaid(view, index) {
  const raised = view?.raises?.[index];
  if (raised === null || raised === undefined) return "";
  return raised ? t("raised_said", { amount: coins(raised) }) : t("no_raise_said");
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

function seatTile(index, seat, snap, view) {
  const acting = actors().includes(index);
  const name = seat?.name || t("empty_seat");
  const said = raiseSaid(view, index);
  const result = view?.result;
  return h(
    "section",
    { class: `tt-seat${acting ? " turn" : ""}${view && view.start === index ? " first" : ""}`, dataset: { seat: index }, "aria-label": name },
    tileHead("tt", name, seatBadges(seat, { snap, view })),
    h("div", { class: "mtiles tt-tiles" }, tiles(view?.hands?.[index], "small")),
    h(
      "div",
      { class: "tt-seat-foot" },
      view ? h("span", { class: "tt-left" }, t("coins_left", { amount: coins(view.coins[index]) })) : null,
      said ? h("span", { class: "said" }, said) : null,
      result ? h("span", { class: "tt-kind" }, kindLabel(result.kinds[index], result.points[index])) : null,
      acting ? clock(snap.hand.deadline) : null,
    ),
  );
}

function renderCenter(snap, view) {
  renderPhase(view);
  renderCountdown(view?.phase === "raise" ? snap.hand.deadline : null);
  // The wheel's number is shown from the start of the hand, before any tile is dealt.
  const wheel = $("#wheel");
  const value = view?.wheel ?? null;
  wheel.dataset.value = value ? String(value) : "";
  wheel.classList.toggle("spinning", view?.phase === "wheel");
  for (const li of wheel.children) li.classList.toggle("chosen", Number(li.dataset.number) === value);
  $("#wheel-note").textContent = value ? t("wheel_says", { value, name: seatName(view.start) }) : "";
  for (const [id, amount] of [["#ante-pool", view?.ante_pool], ["#raise-pool", view?.raise_pool]]) {
    const el = $(id);
    el.textContent = typeof amount === "number" ? coins(amount) : "–";
    el.dataset.value = typeof amount === "number" ? String(amount) : "";
  }
  kit.renderStatus(() => {
    if (view?.phase !== "raise") return "";
    if (isMyTurn()) return t("your_turn_raise");
    return mySeat() !== null ? t("decided_wait") : t("countdown_note");
  });
}

function renderMine(view) {
  const seat = mySeat();
  $("#my-hand").replaceChildren(...(seat !== null ? tiles(view?.hands?.[seat], "large") : []));
  const mine = view?.mine;
  $("#my-kind").textContent = mine ? kindLabel(mine.kind, mine.points) : "";
  $("#my-choice").textContent =
    seat !== null && view ? [t("ante_amount", { amount: coins(view.antes[seat]) }), raiseSaid(view, seat)].filter(Boolean).join(" · ") : "";
}

function choiceButton(choice) {
  if (choice.type === "pass") return button(t("no_raise"), "pass", choice, "secondary");
  return button(t("raise_amount", { amount: coins(choice.amount) }), "raise", choice, "primary", { amount: choice.amount });
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
  const nameOf = (index) => rows.find((r) => r.index === index)?.name || seatName(index);

  const shown = details.shown_hands || view?.hands || [];
  const kinds = details.kinds || view?.result?.kinds || [];
  const points = details.points || view?.result?.points || [];
  const raises = details.raises || view?.raises || [];
  const body = rows.map((row) => {
    const raised = raises[row.index];
    return resultRow(
      row,
      seat,
      playerCell(row, seatName, raised ? t("raised_said", { amount: coins(raised) }) : ""),
      h(
        "td",
        { class: "tt-hand-cell" },
        h("div", { class: "mtiles" }, tiles(shown[row.index], "tiny")),
        h("span", { class: "tt-kind" }, kindLabel(kinds[row.index], points[row.index])),
      ),
    );
  });
  panel.querySelector("tbody").replaceChildren(...body);
  const pools = details.pools || view?.result?.pools || [];
  panel.querySelector(".tt-pools-result").replaceChildren(
    ...pools.map((pool) => {
      const name = t(pool.pool === "raise" ? "raise_pool" : "ante_pool");
      const text = pool.amount
        ? t("pool_won_by", { pool: name, amount: coins(pool.amount), names: pool.winners.map(nameOf).join(", ") })
        : t("pool_empty", { pool: name });
      return h("li", { dataset: { pool: pool.pool, amount: pool.amount } }, text);
    }),
  );
  renderResultFoot(panel, result);
}

// ---- Wiring -------------------------------------------------------------

kit.start();
