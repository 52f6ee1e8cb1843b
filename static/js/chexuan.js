// The 扯旋 (chexuan) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (簸簸 amounts, then 休 check,
// 跟 call, 大 raise, 敲 all in, 丢 fold, then the three splits) with the amounts the engine
// lists; every card shown is one the engine's view for this seat carries (face down
// otherwise); a refused action comes back as an `error` shown under the buttons. Messages
// are in docs/protocol.md; the view's keys in docs/rules/chexuan.md.

import { betButtons } from "./betting.js";
import { cardBack, cardElement } from "./cards.js";
import { badge, betIn, ovalSeat, renderPhase, renderPot, seatBadges } from "./felt.js";
import { endedLine, openResultPanel, playerCell, renderFinalHands, renderResultFoot, resultRow, resultRows } from "./results.js";
import { $, clock, coins as fmt, h, seatedTable, t, tick } from "./tablekit.js";

const model = {};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand;
    const view = msg.hand?.view;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.phase !== view?.phase || before.view?.turn !== view?.turn) {
      setMessage("");
    }
  },
});
const { button, finishedView, mySeat, seatName, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = kit.liveView;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  return hand.actors || [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat);
}

/** A pair's name as the view gives it: one of 003's named pairs, or "points_<n>". */
function pairName(label) {
  if (typeof label !== "string") return "";
  if (label.startsWith("points_")) return t("pair_points", { points: label.slice(7) });
  return t(`pair_${label}`);
}

/** What the seat did last this hand (from the public log). */
function lastSaid(view, index) {
  const log = view?.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.seat === index) return t(`said_${entry.type}`, { amount: entry.amount ?? "" });
  }
  return "";
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  kit.renderTopBar();
  const seat = mySeat();
  $("#ante").textContent = view?.base ?? snap?.table?.tier?.base_stake ?? "–";
  $("#my-limit").textContent = seat !== null && typeof view?.bobo?.[seat] === "number" ? fmt(view.bobo[seat]) : "–";
  renderSeats(snap, view || finishedView());
  renderCenter(snap, view);
  renderResult();
  renderActions(snap, view);
  renderMine(view);
  tick();
}

function cardRow(cards, size = "tiny") {
  return h("div", { class: "cards" }, (cards || []).map((c) => (c ? cardElement(c, { size }) : cardBack({ size }))));
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const mine = index === mySeat();
    const status = view?.status?.[index];
    const state = status === "folded" || status === "allin" ? status : "";
    const dealer = view && view.dealer === index && badge("dealer", t("dealer"));
    const limit = view?.bobo?.[index];
    const limitText = typeof limit === "number" ? t("limit", { amount: fmt(limit) }) : view?.bobo_set?.[index] ? t("limit_set") : t("limit_unset");
    const split = view?.splits?.[index];
    let cards = null;
    if (split && view.phase === "finished") {
      cards = h(
        "div",
        { class: "split" },
        split.map((pair, k) => h("div", { class: `part ${k ? "tail" : "head"}` }, cardRow(pair), h("span", { class: "pair-name" }, pairName(view.split_names?.[index]?.[k])))),
      );
    } else if (!mine && view?.hands?.[index]?.length) {
      cards = cardRow(view.hands[index]);
    }
    const special = view?.result?.specials?.[index];
    const turn = actors.includes(index) && view?.phase === "betting";
    return ovalSeat(
      {
        prefix: "cx",
        index,
        count: seats.length,
        viewer: mySeat(),
        seat,
        turn,
        state,
        badges: seatBadges(seat, { snap, view, own: [dealer] }),
        data: { state },
      },
      view && seat.name
        ? h(
            "div",
            { class: "money" },
            h("span", { class: "limit", dataset: { limit: limit ?? "" } }, limitText),
            view.phase !== "bobo" ? betIn(view, index) : null,
          )
        : null,
      cards,
      special ? h("div", { class: "special" }, t(`pair_${special}`)) : null,
      view?.phase === "betting" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      view?.phase === "split" && view.split_done?.[index] ? h("div", { class: "said" }, t("split_done")) : null,
      actors.includes(index) ? clock(snap.hand?.deadline, { tag: "div" }) : null,
    );
  });
  $("#seats").replaceChildren(...els);
}

function renderCenter(snap, view) {
  renderPot(view || finishedView());
  renderPhase(view);
  $("#round").textContent = view?.phase === "betting" ? t("round", { round: view.round }) : "";
  kit.renderStatus(() => {
    if (!view || view.phase === "finished") return "";
    const actors = actorsOf(snap);
    if (isMyTurn()) return t("your_turn");
    if (view.phase === "betting" && actors.length) return t("waiting_for", { name: actors.map(seatName).join(", ") });
    return view.phase === "split" ? t("split_waiting") : "";
  });
}

function renderActions(snap, view) {
  const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
  const own = (choice) => {
    const kind = choice.type;
    if (kind === "bobo") return button(t("set_limit", { amount: fmt(choice.amount) }), "bobo", choice, "primary", { amount: choice.amount });
    if (kind === "allin") return button(t("allin_amount", { amount: view.left }), "allin", choice, "secondary", { amount: view.left });
    if (kind === "split") {
      const index = choices.indexOf(choice);
      const [head, tail] = view.split_options?.[index] || [];
      const label = t("split_choice", { head: pairName(head), tail: pairName(tail) });
      return button(label, "split", choice, "primary split-choice", { index, head: choice.head.join(" ") });
    }
    return null;
  };
  const buttons = betButtons(button, choices, { callAmount: view?.call_cost, raiseKey: "raise_amount" }, own);
  kit.renderActionBar(buttons, isMyTurn() && choices.length ? snap.hand.deadline : null);
}

/** The viewer's cards: the first two face down to the others, all face up here. */
function renderMine(liveView) {
  const box = $("#my-hand");
  const note = $("#my-note");
  const seat = mySeat();
  const view = liveView || finishedView();
  if (seat === null || !view) {
    box.replaceChildren();
    note.textContent = "";
    return;
  }
  const split = view.splits?.[seat];
  if (split) {
    box.replaceChildren(
      ...split.map((pair, k) =>
        h("div", { class: `part ${k ? "tail" : "head"}` }, h("span", { class: "caption" }, t(k ? "tail" : "head")), cardRow(pair, ""), h("span", { class: "pair-name" }, pairName(view.split_names?.[seat]?.[k]))),
      ),
    );
  } else {
    box.replaceChildren(...(view.hands?.[seat] || []).map((c) => (c ? cardElement(c) : cardBack())));
  }
  box.dataset.count = String((view.hands?.[seat] || []).length);
  let text = "";
  if (view.phase === "bobo" && isMyTurn()) text = t("choose_limit");
  else if (view.phase === "split" && isMyTurn()) text = t("choose_split");
  const special = view.result?.specials?.[seat];
  if (special === "sanhua_shi" || special === "sanhua_liu") text = `${t(`pair_${special}`)}: ${t("no_win_no_loss")}`;
  note.textContent = text;
}

function renderResult() {
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const panel = openResultPanel(model, view);
  if (!panel) return;
  const endedBy = finished?.ended_by || result?.details?.ended_by;
  const winners = finished?.winners || (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  let title = t("no_result");
  if (endedBy !== "void" && winners.length) {
    title = winners.includes(mySeat()) && winners.length === 1 ? t("you_win") : winners.length > 1 ? t("winners_split", { names }) : t("winner_is", { names });
  }
  panel.querySelector(".title").textContent = title;
  panel.querySelector(".sub").textContent = endedLine(endedBy, finished?.pot ?? result?.details?.pot);
  const rows = resultRows(result, finished?.deltas, seatName).map((row) => resultRow(row, mySeat(), playerCell(row, seatName)));
  panel.querySelector("tbody").replaceChildren(...rows);
  renderResultFoot(panel, result);
  // Only the splits this viewer's view carries: the hands shown down.
  const shown = (view?.splits || []).map((split, index) => (Array.isArray(split) ? index : null)).filter((index) => index !== null);
  renderFinalHands(panel, shown, seatName, (index) => {
    const special = view.result?.specials?.[index];
    return [
      ...view.splits[index].map((pair, k) =>
        h("div", { class: "part" }, h("span", { class: "caption" }, t(k ? "tail" : "head")), cardRow(pair), h("span", { class: "pair-name" }, pairName(view.split_names?.[index]?.[k]))),
      ),
      special ? h("span", { class: "special" }, t(`pair_${special}`)) : null,
    ];
  });
}

// ---- Wiring -------------------------------------------------------------

kit.start();
