// The 推筒子 (Push the Tubes) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. The wheel is the view's `wheel` (shown before the deal), the
// tiles are the view's `hands` (a hidden tile is null: drawn face down), the buttons are
// exactly the view's `choices` (no raise, or one of the raises), the countdown is the hand's
// `deadline`, and the result panel shows the `result` message with both pools. The view's
// keys are in docs/rules/tuitongzi.md.

import { tileBack, tileElement } from "./tiles.js";
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
  return hand && hand.view?.phase === "raise" ? hand.actors || [] : [];
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

/** A hand as the view gives it: a tile string face up, null face down. */
function tiles(list, size) {
  return (list || []).map((tile) => (tile ? tileElement(tile, { size, label: tileLabel(tile) }) : tileBack({ size })));
}

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
  if (seat?.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
  if (seat?.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
  if (seat && seat.connected === false && !seat.is_bot && seat.name) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
  return badges;
}

function seatTile(index, seat, snap, view) {
  const acting = actors().includes(index);
  const name = seat?.name || t("empty_seat");
  const said = raiseSaid(view, index);
  const result = view?.result;
  return h(
    "section",
    { class: `tt-seat${acting ? " turn" : ""}${view && view.start === index ? " first" : ""}`, dataset: { seat: index }, "aria-label": name },
    h(
      "div",
      { class: "tt-seat-head" },
      h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase()),
      h("div", { class: "who" }, h("div", { class: "name" }, name), h("div", { class: "badges" }, seatBadges(index, seat, snap, view))),
    ),
    h("div", { class: "mtiles tt-tiles" }, tiles(view?.hands?.[index], "small")),
    h(
      "div",
      { class: "tt-seat-foot" },
      view ? h("span", { class: "tt-left" }, t("coins_left", { amount: coins(view.coins[index]) })) : null,
      said ? h("span", { class: "said" }, said) : null,
      result ? h("span", { class: "tt-kind" }, kindLabel(result.kinds[index], result.points[index])) : null,
      acting && snap.hand.deadline ? h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
    ),
  );
}

function renderCenter(snap, view) {
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  const countdown = $("#countdown");
  if (view?.phase === "raise" && snap.hand.deadline) {
    countdown.replaceChildren(h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }));
  } else {
    countdown.replaceChildren();
  }
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
  let status = "";
  if (!snap?.hand) status = t("waiting_players");
  else if (view?.phase === "raise") {
    const seat = mySeat();
    if (isMyTurn()) status = t("your_turn_raise");
    else if (seat !== null) status = t("decided_wait");
    else status = t("countdown_note");
  }
  if (snap && mySeat() === null) status = t("spectating");
  $("#status").textContent = status;
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
  const nameOf = (index) => rows.find((r) => r.index === index)?.name || seatName(index);
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

  const shown = details.shown_hands || view?.hands || [];
  const kinds = details.kinds || view?.result?.kinds || [];
  const points = details.points || view?.result?.points || [];
  const raises = details.raises || view?.raises || [];
  const body = rows.map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    const raised = raises[row.index];
    return h(
      "tr",
      { class: row.index === seat ? "me" : "", dataset: { seat: row.index } },
      h("td", {}, row.name || seatName(row.index), raised ? h("span", { class: "role-note" }, ` · ${t("raised_said", { amount: coins(raised) })}`) : null),
      h(
        "td",
        { class: "tt-hand-cell" },
        h("div", { class: "mtiles" }, tiles(shown[row.index], "tiny")),
        h("span", { class: "tt-kind" }, kindLabel(kinds[row.index], points[row.index])),
      ),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
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
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

kit.start();
