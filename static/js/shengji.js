// The 升级 (shengji) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the hand comes sorted by the server (plain suits, then the
// trumps grouped), the cards that may be chosen are the view's `playable`, the 提示 is the
// view's `hint`, the declare buttons are the hand's `out_of_turn` (报主 while dealing) and
// the 反主 buttons the view's `choices`; a refused play comes back as an `error` with the
// reason, shown under the buttons. The view's keys are in docs/rules/shengji.md.

import { turnStatus } from "./betting.js";
import { cardElement } from "./cards.js";
import { openResultPanel, playerCell } from "./results.js";
import { $, coins as fmt, h, replaceIfChanged, seatedTable, t, tick } from "./tablekit.js";

const SUIT_SYMBOL = { s: "♠", h: "♥", c: "♣", d: "♦" };

const model = {
  selected: [], // indexes into the view's hand
};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand?.view;
    const view = msg.hand?.view;
    if (!view || before?.turn !== view.turn || before?.phase !== view.phase || (before?.hand || []).length !== (view.hand || []).length) {
      model.selected = [];
      if (previous?.hand?.id !== msg.hand?.id || before?.turn !== view?.turn) setMessage("");
    }
  },
  onAct() {},
});
const { act, button, finishedView, mySeat, seatName, setMessage } = kit;

const currentView = kit.liveView;

function isMyTurn() {
  const seat = mySeat();
  const hand = model.snapshot?.hand;
  return seat !== null && hand?.view?.phase !== "finished" && (hand?.actors || []).includes(seat);
}

function cardWords(cards) {
  return cards
    .map((c) => (c === "DJ" ? t("big_joker") : c === "XJ" ? t("small_joker") : `${SUIT_SYMBOL[c[1]]}${c[0] === "T" ? "10" : c[0]}`))
    .join(" ");
}

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  kit.renderTopBar();
  renderSeats(snap, view || finishedView());
  renderCenter(snap, view || finishedView());
  renderHand(view || finishedView());
  renderActions(snap, view);
  renderResult();
  tick();
}

/** Four places: the viewer at the bottom, then in the order of play (right, top, left). */
const PLACES = ["bottom", "right", "top", "left"];

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const me = mySeat() ?? 0;
  const actors = snap?.hand?.actors || [];
  const trick = view?.trick?.length ? view.trick : view?.phase === "play" ? [] : [];
  const els = seats.map((seat, index) => {
    const place = PLACES[(index - me + 4) % 4];
    const played = trick.find((p) => p.seat === index);
    const badges = [];
    if (view && view.declarer === index) badges.push(h("span", { class: "dz-badge declarer" }, t("declarer")));
    if (seat.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
    if (seat.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
    if (seat.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
    const turn = actors.includes(index) && view?.phase !== "finished";
    return h(
      "section",
      { class: `sj-seat ${place}${index === mySeat() ? " me" : ""}${turn ? " turn" : ""}`, dataset: { seat: index, place } },
      h("div", { class: "head" }, h("span", { class: "name" }, seat.name || t("empty_seat")), view ? h("span", { class: "count" }, t("cards_left", { n: view.counts?.[index] ?? 0 })) : null),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      played
        ? h("div", { class: "played", dataset: { cards: played.cards.join(" ") } }, played.cards.map((c) => cardElement(c, { size: "tiny" })))
        : null,
      played?.failed_throw ? h("div", { class: "note" }, t("failed_throw", { cards: cardWords(played.failed_throw) })) : null,
      turn && snap.hand?.deadline ? h("div", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
    );
  });
  $("#seats").replaceChildren(...els);
}

function renderCenter(snap, view) {
  $("#phase").textContent = view ? t(`phase_${view.phase}`, { n: view.dealt }) : t("phase_waiting");
  const info = $("#trump-info");
  if (view?.level) {
    const trump = view.suit ? `${t("trump")} ${SUIT_SYMBOL[view.suit]}` : t("no_trump");
    info.textContent = `${trump} · ${t("hand_level", { level: view.level === "T" ? "10" : view.level })}`;
    info.dataset.suit = view.suit || "none";
  } else {
    info.textContent = "";
    info.dataset.suit = "";
  }
  const points = $("#points");
  points.textContent = view ? `${t("defender_points")} ${view.defender_points}` : "";
  points.dataset.value = view ? String(view.defender_points) : "";
  const me = mySeat() ?? 0;
  const levels = view?.levels;
  $("#side-levels").textContent = levels
    ? `${t("our_level", { level: levels[me % 2] })} · ${t("their_level", { level: levels[1 - (me % 2)] })}`
    : "";
  const bottom = $("#bottom");
  bottom.hidden = !view?.bottom;
  if (view?.bottom) bottom.replaceChildren(h("span", { class: "caption" }, t("bottom")), ...view.bottom.map((c) => cardElement(c, { size: "tiny" })));
  kit.renderStatus(() => (view && view.phase !== "finished" ? turnStatus(isMyTurn(), snap.hand.actors || [], seatName) : ""));
}

/** The viewer's hand: one row, or two on a narrow screen; only `playable` cards can be chosen. */
function renderHand(view) {
  const box = $("#my-hand");
  const cards = mySeat() === null ? null : view?.hand;
  if (!Array.isArray(cards)) {
    replaceIfChanged(box, []);
    return;
  }
  const live = currentView();
  const choosing = isMyTurn() && ["bury", "play"].includes(live?.phase) && !model.snapshot?.you?.trustee;
  const playable = new Set(live?.playable || []);
  const perRow = window.innerWidth < 700 ? 17 : 33;
  const rows = cards.length > perRow ? [cards.slice(0, Math.ceil(cards.length / 2)), cards.slice(Math.ceil(cards.length / 2))] : [cards];
  let offset = 0;
  const rowEls = rows.map((row) => {
    const start = offset;
    offset += row.length;
    return h(
      "div",
      { class: "row", style: `--n:${row.length}` },
      row.map((card, i) => {
        const index = start + i;
        const el = cardElement(card);
        const may = choosing && playable.has(card);
        el.classList.toggle("trump-group", isTrump(card, live || view));
        el.classList.toggle("selected", model.selected.includes(index));
        el.classList.toggle("dim", choosing && !may);
        el.dataset.index = String(index);
        if (may) {
          el.tabIndex = 0;
          el.addEventListener("click", () => toggle(index));
        }
        return el;
      }),
    );
  });
  replaceIfChanged(box, rowEls);
  box.dataset.count = String(cards.length);
  box.dataset.rows = String(rows.length);
}

function isTrump(card, view) {
  if (!view?.level) return false;
  return card === "XJ" || card === "DJ" || card[0] === view.level || card[1] === view.suit;
}

function toggle(index) {
  const at = model.selected.indexOf(index);
  if (at >= 0) model.selected.splice(at, 1);
  else model.selected.push(index);
  render();
}

function selectedCards(view) {
  return model.selected.map((i) => view.hand[i]).filter(Boolean).sort();
}

/** Select the 提示's cards in the hand (duplicates matched one by one). */
function selectHint(view) {
  const left = [...(view.hint || [])];
  model.selected = [];
  view.hand.forEach((card, index) => {
    const at = left.indexOf(card);
    if (at >= 0) {
      left.splice(at, 1);
      model.selected.push(index);
    }
  });
  render();
}

function renderActions(snap, view) {
  const buttons = [];
  const trustee = snap?.you?.trustee;
  if (view && !trustee) {
    if (view.phase === "dealing") {
      for (const choice of snap.hand.out_of_turn || []) {
        buttons.push(button(t("declare", { cards: cardWords(choice.cards) }), "declare", choice, "primary", { cards: choice.cards.join(" ") }));
      }
    } else if (isMyTurn() && view.phase === "overcall") {
      for (const choice of view.choices || []) {
        if (choice.type === "overcall") buttons.push(button(t("overcall", { cards: cardWords(choice.cards) }), "overcall", choice, "primary", { cards: choice.cards.join(" ") }));
        else buttons.push(button(t("pass"), "pass", choice, "ghost"));
      }
    } else if (isMyTurn() && ["bury", "play"].includes(view.phase)) {
      const cards = selectedCards(view);
      if (view.phase === "bury") {
        const b = button(t("bury", { n: cards.length }), "bury", { type: "bury", cards }, "primary");
        b.disabled = b.disabled || cards.length !== 8;
        buttons.push(b);
      } else {
        const b = button(t("play"), "play", { type: "play", cards }, "primary");
        b.disabled = b.disabled || !cards.length;
        buttons.push(b);
      }
      buttons.push(button(t("hint"), "hint", () => selectHint(view), "secondary"));
      if (model.selected.length) buttons.push(button(t("clear"), "clear", () => { model.selected = []; render(); }, "ghost"));
      if (snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
    }
  }
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  // The buttons send the selected cards and the offered choices, which their HTML does not show.
  const sent = JSON.stringify([model.selected, view?.hand, view?.hint, snap?.hand?.out_of_turn, view?.choices]);
  replaceIfChanged($("#actions"), buttons, sent);
  kit.renderTrusteeAndMessage();
}

function renderResult() {
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const panel = openResultPanel(model, view);
  if (!panel) return;
  const details = finished || result?.details || {};
  let title = "";
  if (details.side === "declarers") title = t("declarers_rise", { n: details.levels_gained });
  else if (details.levels_gained) title = t("defenders_rise", { n: details.levels_gained });
  else if (details.side) title = t("defenders_take_over");
  panel.querySelector(".title").textContent = title;
  panel.querySelector(".sub").textContent =
    typeof details.defender_points === "number" ? t("total_points", { points: details.defender_points, multiple: details.bottom_multiple || 0 }) : "";
  const rows = (result?.seats || (finished?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }))).map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    return h(
      "tr",
      { class: row.index === mySeat() ? "me" : "", dataset: { seat: row.index } },
      playerCell(row, seatName),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? fmt(row.balance) : "–"),
    );
  });
  panel.querySelector("tbody").replaceChildren(...rows);
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

window.addEventListener("resize", () => render());
kit.start();
