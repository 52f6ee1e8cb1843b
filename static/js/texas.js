// The 必下德州 (must-bet Texas hold'em) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The action buttons are exactly the view's `choices`
// (check, raise to a fixed stake, bet a fixed stake, fold), the one countdown is
// the hand's `deadline`, the hole cards shown are the view's `hands` (the
// server hides what the rules hide), and the result panel shows the `result`
// message. Messages are described in docs/protocol.md; the view's keys in
// docs/rules/texas.md.

import { cardBack, cardElement } from "./cards.js";
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
  return hand && hand.view?.phase === "betting" ? hand.actors || [] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

function seatName(index) {
  const row = model.result?.seats?.find((r) => r.index === index);
  return model.snapshot?.table?.seats?.[index]?.name || row?.name || t("empty_seat");
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
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
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
  if (view && view.dealer === index) badges.push(h("span", { class: "dz-badge tx-dealer", title: t("dealer") }, t("dealer_short")));
  const blinds = view?.blind_seats || [];
  if (view && blinds[0] === index) badges.push(h("span", { class: "dz-badge tx-blind", title: t("small_blind") }, t("small_blind_short")));
  if (view && blinds[1] === index) badges.push(h("span", { class: "dz-badge tx-blind", title: t("big_blind") }, t("big_blind_short")));
  if (seat?.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
  if (seat?.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
  if (seat && seat.connected === false && !seat.is_bot && seat.name) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
  return badges;
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
    h(
      "div",
      { class: "tx-seat-head" },
      h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase()),
      h("div", { class: "who" }, h("div", { class: "name" }, name), h("div", { class: "badges" }, seatBadges(index, seat, snap, view))),
    ),
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
        acting && snap.hand.deadline ? h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
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
  const pot = $("#pot");
  const amount = view ? view.pot : null;
  pot.textContent = amount === null ? "–" : coins(amount);
  pot.dataset.value = amount === null ? "" : String(amount);

  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  const countdown = $("#countdown");
  if (view?.phase === "betting" && snap.hand.deadline) {
    countdown.replaceChildren(h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }));
  } else {
    countdown.replaceChildren();
  }
  let status = "";
  if (!snap?.hand) status = t("waiting_players");
  else if (view?.phase === "betting") {
    const seat = mySeat();
    if (isMyTurn()) status = t("your_turn_bet");
    else if (seat !== null && view.decided[seat]) status = t("decided_wait");
    else status = t("countdown_note");
  }
  if (snap && mySeat() === null) status = t("spectating");
  $("#status").textContent = status;
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
  const bar = $("#actions");
  const buttons = [];
  const seat = mySeat();
  const you = snap?.you;
  if (seat !== null && isMyTurn() && !you?.trustee && view) {
    for (const choice of view.choices || []) buttons.push(choiceButton(choice, view));
    if (snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  }
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  bar.replaceChildren(...buttons);
  kit.renderTrusteeAndMessage();
}

function potName(i) {
  return i === 0 ? t("main_pot") : t("side_pot", { n: i });
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

  const board = details.board || view?.board || [];
  panel.querySelector(".tx-result-board").replaceChildren(...board.map((c) => cardElement(c, { size: "small" })));

  const shown = details.shown_hands || view?.hands || [];
  const categories = details.categories || (view?.best || []).map((b) => b?.category || null);
  const folded = view?.folded || [];
  const stakes = view?.stakes || [];
  const body = rows.map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    const cards = shown[row.index];
    const handCell = Array.isArray(cards)
      ? h("td", { class: "tx-hand-cell" }, h("div", { class: "cards" }, cards.map((c) => cardElement(c, { size: "tiny" }))), h("span", { class: "tx-cat" }, categoryLabel(categories[row.index])))
      : h("td", { class: "tx-hand-cell muted" }, folded[row.index] ? t("state_folded") : "–");
    return h(
      "tr",
      { class: row.index === seat ? "me" : "", dataset: { seat: row.index } },
      h("td", {}, row.name || seatName(row.index), typeof stakes[row.index] === "number" ? h("span", { class: "role-note" }, ` · ${t("stake_amount", { amount: coins(stakes[row.index]) })}`) : null),
      handCell,
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
    );
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
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

kit.start();
