// The 二八杠 (Two-Eight Bar) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The buttons are exactly the view's `choices` (a bid for the bank,
// then a bet), the countdown is the hand's `deadline`, the die is the view's `die` (shown
// before the tiles), the tiles are the view's `hands` (none until they are opened), and the
// result panel shows the `result` message. The view's keys are in docs/rules/erbagang.md.

import { dieElement, tileBack, tileElement } from "./tiles.js";
import { $, coins, h, root, seatedTable, t, tick } from "./tablekit.js";

const model = {};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    if (!previous?.hand || !msg.hand || previous.hand.id !== msg.hand.id) kit.setMessage("");
  },
});
const { button, mySeat } = kit;

// ---- Reading the snapshot -----------------------------------------------

function currentView() {
  return model.snapshot?.hand?.view || null;
}

function actors() {
  const hand = model.snapshot?.hand;
  return hand && ["grab", "bet"].includes(hand.view?.phase) ? hand.actors || [] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

function seatName(index) {
  const row = model.result?.seats?.find((r) => r.index === index);
  return model.snapshot?.table?.seats?.[index]?.name || row?.name || t("empty_seat");
}

function tileLabel(tile) {
  return tile === "5z" ? t("tile_white") : t("tile_p", { n: tile.slice(0, -1) });
}

function tiles(list, size) {
  return list.map((tile) => tileElement(tile, { size, label: tileLabel(tile) }));
}

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
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
  kit.renderTopBar();
  renderSeats(snap, view);
  renderCenter(snap, view);
  renderMine(view);
  renderResult(view); // before the actions: the Ready button hides behind an open result panel
  renderActions(snap, view);
  tick();
}

/** Seats in table order starting after the viewer (the viewer's own seat is drawn below the felt). */
function otherSeats(snap) {
  const seats = snap?.table?.seats || [];
  const me = mySeat();
  const start = me === null ? 0 : me + 1;
  const order = [];
  for (let k = 0; k < seats.length; k += 1) {
    const index = (start + k) % seats.length;
    if (index !== me) order.push(index);
  }
  return order;
}

function renderSeats(snap, view) {
  const box = $("#seats");
  const order = otherSeats(snap);
  box.dataset.count = String(order.length);
  box.replaceChildren(...order.map((index) => seatTile(index, snap.table.seats[index], snap, view)));
}

function seatBadges(index, seat, snap, view) {
  const badges = [];
  if (view && view.banker === index) badges.push(h("span", { class: "dz-badge eb-banker-badge", title: t("banker") }, t("banker_short")));
  if (seat?.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
  if (seat?.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
  if (seat && seat.connected === false && !seat.is_bot && seat.name) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
  return badges;
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
    h(
      "div",
      { class: "eb-seat-head" },
      h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase()),
      h("div", { class: "who" }, h("div", { class: "name" }, name), h("div", { class: "badges" }, seatBadges(index, seat, snap, view))),
    ),
    h("div", { class: "mtiles eb-tiles" }, handTiles(view, index, "small")),
    h(
      "div",
      { class: "eb-seat-foot" },
      said ? h("span", { class: "said" }, said) : null,
      result ? h("span", { class: "eb-kind" }, kindLabel(result.kinds[index], result.points[index])) : null,
      typeof won === "boolean" ? h("span", { class: `eb-vs ${won ? "won" : "lost"}` }, won ? t("beat_banker") : t("lost_to_banker")) : null,
      acting && snap.hand.deadline ? h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
    ),
  );
  return tile;
}

function renderCenter(snap, view) {
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  const countdown = $("#countdown");
  if (view && ["grab", "bet"].includes(view.phase) && snap.hand.deadline) {
    countdown.replaceChildren(h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }));
  } else {
    countdown.replaceChildren();
  }
  const banker = view && view.banker !== null ? view.banker : null;
  $("#banker-note").textContent =
    banker === null ? "" : `${t("banker")}: ${seatName(banker)} · ${t("pledge", { multiple: view.banker_multiple, amount: coins(view.pledge) })}`;
  // The die is shown from the moment it is rolled, before any tile is turned over.
  const die = $("#die");
  const value = view?.die ?? null;
  die.dataset.value = value ? String(value) : "";
  die.replaceChildren(...(value ? [dieElement(value, { label: t("die_label", { value }) })] : []));
  $("#die-note").textContent = value ? t("die_says", { value, name: seatName(view.first) }) : "";
  let status = "";
  if (!snap?.hand) status = t("waiting_players");
  else if (view && ["grab", "bet"].includes(view.phase)) {
    const seat = mySeat();
    if (isMyTurn()) status = view.phase === "grab" ? t("your_turn_bid") : t("your_turn_bet");
    else if (seat !== null && seat !== view.banker) status = t("decided_wait");
    else status = t("countdown_note");
  }
  if (snap && mySeat() === null) status = t("spectating");
  $("#status").textContent = status;
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
  const bar = $("#actions");
  const buttons = [];
  if (mySeat() !== null && isMyTurn() && !snap?.you?.trustee && view) {
    for (const choice of view.choices || []) buttons.push(choiceButton(choice));
    if (snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  }
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  bar.replaceChildren(...buttons);
  kit.renderTrusteeAndMessage();
}

function renderResult(liveView) {
  const panel = $("#result");
  const result = model.result;
  // The finished hand's view: the live one while it settles, then the table's last hand.
  const lastView = model.snapshot?.last_hand?.id === result?.hand ? model.snapshot?.last_hand?.view : null;
  const view = liveView?.phase === "finished" ? liveView : lastView;
  const handId = result?.hand ?? model.snapshot?.hand?.id;
  const show = (result || view?.result) && model.resultDismissed !== handId;
  panel.hidden = !show;
  if (!show) return;
  const seat = mySeat();
  const details = result?.details || {};
  const rows = result?.seats || (view?.result?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }));
  const mine = rows.find((r) => r.index === seat);
  const winners = rows.filter((r) => r.won || (r.delta ?? 0) > 0).map((r) => r.name || seatName(r.index));
  const winnersText = t(winners.length > 1 ? "winners_are" : "winner_is", { names: winners.join(", ") });
  let title;
  if (mine && mine.delta > 0) title = t("you_win", { amount: coins(mine.delta) });
  else if (mine && mine.delta < 0) title = t("you_lose", { amount: coins(-mine.delta) });
  else if (mine) title = t("you_even");
  else title = winners.length ? winnersText : t("phase_finished");
  panel.querySelector(".title").textContent = title;
  panel.dataset.outcome = mine ? (mine.delta > 0 ? "won" : mine.delta < 0 ? "lost" : "even") : "";
  panel.querySelector(".sub").textContent = winners.length ? winnersText : "";
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
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    const cards = shown[row.index];
    const role = row.index === banker ? t("banker") : bets[row.index] ? t("bet_said", { amount: coins(bets[row.index]) }) : "";
    return h(
      "tr",
      { class: row.index === seat ? "me" : "", dataset: { seat: row.index } },
      h("td", {}, row.name || seatName(row.index), role ? h("span", { class: "role-note" }, ` · ${role}`) : null),
      h(
        "td",
        { class: "eb-hand-cell" },
        Array.isArray(cards) ? h("div", { class: "mtiles" }, tiles(cards, "tiny")) : "–",
        h("span", { class: "eb-kind" }, kindLabel(kinds[row.index], points[row.index])),
      ),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
    );
  });
  panel.querySelector("tbody").replaceChildren(...body);
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

kit.start();
