// The 炸金花 (zhajinhua) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (看牌, 跟注,
// 加注, 比牌, 弃牌) with the amounts the engine lists, and off turn the hand's
// `out_of_turn` (看牌), every card shown is one
// the engine's view for this seat carries (face down otherwise), and a refused
// action comes back as an `error` shown under the buttons. Messages are in
// docs/protocol.md; the view's keys in docs/rules/zhajinhua.md.

import { cardBack, cardElement } from "./cards.js";
import { $, coins as fmt, h, root, seatedTable, t, tick } from "./tablekit.js";

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
const { act, button, mySeat, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = () => model.snapshot?.hand?.view || null;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  if (hand.actors?.length) return hand.actors;
  return typeof hand.view?.turn === "number" ? [hand.view.turn] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat);
}

function seatName(index) {
  return model.snapshot?.table?.seats?.[index]?.name || t("empty_seat");
}

/** The finished hand's view: the live one while it settles, then the table's last hand. */
function finishedView() {
  const live = currentView();
  if (live?.phase === "finished") return live;
  const last = model.snapshot?.last_hand;
  if (last?.view?.phase === "finished" && (!model.result || model.result.hand === last.id)) return last.view;
  return null;
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
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
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

/** Place seats around an oval: the viewer at the bottom, then in the order of play (to the right). */
function seatPlace(index, count) {
  const k = (index - (mySeat() ?? 0) + count) % count;
  const angle = Math.PI / 2 - (2 * Math.PI * k) / count;
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 + 38 * Math.sin(angle);
  // Clamped so that a seat near the edge of a narrow screen stays whole.
  const left = `clamp(var(--seat-half-w), ${x.toFixed(1)}%, calc(100% - var(--seat-half-w)))`;
  const top = `clamp(var(--seat-half-h), ${y.toFixed(1)}%, calc(100% - var(--seat-half-h)))`;
  return { k, style: `left:${left};top:${top}` };
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const box = $("#seats");
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const place = seatPlace(index, seats.length);
    const state = seatState(view, index);
    const badges = [];
    if (view && view.dealer === index) badges.push(h("span", { class: "dz-badge dealer" }, t("dealer")));
    if (seat.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
    if (seat.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
    if (seat.name && seat.connected === false && !seat.is_bot) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
    if (seat.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
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
    return h(
      "section",
      {
        class: `zj-seat${mine ? " me" : ""}${turn ? " turn" : ""}${state ? ` ${state}` : ""}`,
        style: place.style,
        dataset: { seat: index, pos: place.k, state: state || "" },
        "aria-label": seat.name || t("empty_seat"),
      },
      h(
        "div",
        { class: "head" },
        h("span", { class: "name" }, seat.name || t("empty_seat"), mine ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
        state ? h("span", { class: `zj-state ${state}` }, t(`state_${state}`)) : null,
      ),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      view && state
        ? h(
            "div",
            { class: "money" },
            h("span", { class: "bet", dataset: { bet: view.bets?.[index] ?? "" } }, t("bet_in", { amount: fmt(view.bets?.[index]) })),
            h("span", { class: "left" }, t("coins_left", { amount: fmt(view.coins?.[index]) })),
          )
        : null,
      cardRow,
      category && (!mine || view.phase === "finished") ? h("div", { class: "category" }, t(`cat_${category}`)) : null,
      view?.phase === "betting" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      turn && snap.hand?.deadline ? h("div", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
    );
  });
  box.replaceChildren(...els);
}

function renderCenter(snap, view) {
  const pot = $("#pot");
  const shown = view || finishedView();
  pot.textContent = fmt(shown?.pot);
  pot.dataset.value = shown ? String(shown.pot) : "";
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  $("#round").textContent = view?.round ? `${t("round", { round: view.round })} · ${t("round_cap", { rounds: view.caps?.max_rounds })}` : "";
  const compares = view?.compares || [];
  const last = compares[compares.length - 1];
  $("#compare-note").textContent = last
    ? t("compare_note", { seat: seatName(last.seat), target: seatName(last.target), winner: seatName(last.winner) })
    : "";
  let status = "";
  if (!snap?.hand) status = t("waiting_players");
  else if (view && view.phase !== "finished") {
    const actors = actorsOf(snap);
    if (isMyTurn()) status = t("your_turn");
    else if (actors.length) status = t("waiting_for", { name: actors.map(seatName).join(", ") });
  }
  if (snap && mySeat() === null) status = t("spectating");
  $("#status").textContent = status;
}

function renderActions(snap, view) {
  const bar = $("#actions");
  const targets = $("#targets");
  const buttons = [];
  const you = snap?.you;
  // On the viewer's turn the view's choices; off turn what the server lets the seat do out of turn
  // (看牌 look, from the deal on: the hand's `out_of_turn`). Under 托管 neither.
  const myTurn = isMyTurn();
  const offTurn = view?.phase === "betting" ? snap?.hand?.out_of_turn || [] : [];
  const choices = you?.trustee || !view ? [] : myTurn ? view.choices || [] : offTurn;
  const compares = choices.filter((c) => c.type === "compare");
  for (const choice of choices) {
    if (choice.type === "look") buttons.push(button(t("look"), "look", () => act(choice), "secondary"));
    else if (choice.type === "call") {
      buttons.push(button(t("call_amount", { amount: view.call_cost }), "call", () => act(choice), "primary", { amount: view.call_cost }));
    } else if (choice.type === "raise") {
      buttons.push(button(t("raise_amount", { amount: choice.amount }), "raise", () => act(choice), "primary", { amount: choice.amount }));
    } else if (choice.type === "fold") buttons.push(button(t("fold"), "fold", () => act(choice), "ghost"));
  }
  if (compares.length) {
    // 比牌 costs twice the call (docs/rules/zhajinhua.md); the engine charges it, this only labels it.
    const cost = view.compare_cost ?? 0;  // the server's figure; the client decides no rule
    const open = () => {
      model.picking = !model.picking;
      render();
    };
    buttons.splice(buttons.length - 1, 0, button(t("compare_amount", { amount: cost }), "compare", open, "secondary", { amount: cost }));
  }
  if (myTurn && choices.length && snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  bar.replaceChildren(...buttons);

  targets.hidden = !(model.picking && compares.length);
  targets.replaceChildren(
    h("span", { class: "caption" }, t("choose_target")),
    ...compares.map((c) => button(seatName(c.target), "compare-target", () => act(c), "primary small", { target: c.target })),
    button(t("cancel"), "cancel-compare", () => { model.picking = false; render(); }, "ghost small"),
  );

  kit.renderTrusteeAndMessage();
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
  const panel = $("#result");
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const handId = result?.hand ?? model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id;
  const show = Boolean(result || finished) && model.resultDismissed !== handId;
  panel.hidden = !show;
  if (!show) return;
  const winners = finished?.winners || (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  const title = winners.includes(mySeat()) && winners.length === 1
    ? t("you_win")
    : winners.length > 1 ? t("winners_split", { names }) : t("winner_is", { names });
  panel.querySelector(".title").textContent = title;
  const endedBy = finished?.ended_by || result?.details?.ended_by;
  const pot = finished?.pot ?? result?.details?.pot;
  panel.querySelector(".sub").textContent = [endedBy ? t(`ended_${endedBy}`) : "", typeof pot === "number" ? `${t("pot")} ${fmt(pot)}` : ""]
    .filter(Boolean)
    .join(" · ");
  const rows = (result?.seats || (finished?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }))).map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    return h(
      "tr",
      { class: row.index === mySeat() ? "me" : "", dataset: { seat: row.index } },
      h("td", {}, row.name || seatName(row.index)),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
    );
  });
  panel.querySelector("tbody").replaceChildren(...rows);
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  // Only the hands this viewer's view carries: the rules decide who sees what.
  const hands = (view?.hands || []).map((cards, index) => ({ cards, index })).filter((x) => Array.isArray(x.cards));
  const box = panel.querySelector(".final-hands");
  box.hidden = !hands.length;
  box.querySelector(".rows").replaceChildren(
    ...hands.map(({ cards, index }) =>
      h(
        "div",
        { class: "final-row", dataset: { seat: index } },
        h("span", { class: "who" }, seatName(index)),
        h("div", { class: "cards" }, sortCards(cards).map((c) => cardElement(c, { size: "tiny" }))),
        h("span", { class: "category" }, view.categories?.[index] ? t(`cat_${view.categories[index]}`) : ""),
      ),
    ),
  );
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

kit.start();
