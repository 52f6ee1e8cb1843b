// The 牛牛 (bull) table client, for 牛牛 (抢庄, with a bank) and 通比牛牛 (no bank): render the
// snapshot the server sends, send intents.
//
// It never decides a rule. The buttons are the view's `choices` (a bid for the bank, a bet
// multiple, or 摊牌 with three cards), the countdown is the hand's `deadline`, and the cards
// shown are the view's `hands` (the server hides what the rules hide). A hand that is shown
// turns face up card by card, then its category and multiple appear; the result panel waits
// for the last hand to turn. Messages: docs/protocol.md; the view's keys: docs/rules/niuniu.md.

import { cardBack, cardElement } from "./cards.js";
import { badge, renderCountdown, renderPhase, renderSeatRow, seatBadges, tileHead } from "./felt.js";
import { playerCell, renderResultFoot, resultRow, resultRows, settledView, titleByOutcome, winnersText } from "./results.js";
import { $, anotherHand, clock, h, root, seatedTable, t, tick } from "./tablekit.js";

const STEP_MS = 160; // one card of a shown hand turning after another
const FLIP_MS = 260;
const REVEAL_MS = 5 * STEP_MS + FLIP_MS;

const model = { selected: [], revealedAt: {} };

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    if (!previous) settleRevealed(msg); // what was face up before the page opened is not turned again
    if (anotherHand(previous, msg)) {
      kit.setMessage("");
      model.selected = [];
    }
  },
});
const { button, mySeat, playerName: seatName } = kit;

// ---- Reading the snapshot -----------------------------------------------

const liveView = kit.liveView;

/** The hand the felt shows: the live one, else the last one between hands. */
function feltView() {
  return liveView() || model.snapshot?.last_hand?.view || null;
}

function handId() {
  return model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id ?? null;
}

function actors() {
  const hand = model.snapshot?.hand;
  return hand && hand.view?.phase !== "finished" ? hand.actors || [] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actors().includes(seat);
}

function categoryText(view, index) {
  const category = view?.categories?.[index];
  if (!category) return "";
  return `${t(`cat_${category}`)} ${t("multiple", { n: view.multiples[index] })}`;
}

/** What a seat chose so far: its bid for the bank, then its bet. */
function saidText(view, index) {
  if (!view) return "";
  const parts = [];
  const grab = view.grabs?.[index];
  if (view.mode === "banker" && view.phase === "grab" && grab !== null && grab !== undefined) {
    parts.push(grab ? t("said_grab", { n: grab }) : t("said_no_grab"));
  }
  if (view.banker === index) parts.push(t("banker_times", { n: view.banker_multiple }));
  const bet = view.bets?.[index];
  if (bet) parts.push(t("said_bet", { n: bet }));
  return parts.join(" · ");
}

// ---- Card by card -------------------------------------------------------

/** Mark every hand face up in the page's first state as turned long ago (a reload shows them at once). */
function settleRevealed(msg) {
  const view = msg.hand?.view || msg.last_hand?.view;
  const id = msg.hand?.id ?? msg.last_hand?.id;
  (view?.hands || []).forEach((cards, index) => {
    if (Array.isArray(cards) && (view.shown?.[index] || view.phase === "finished")) {
      model.revealedAt[`${id}:${index}`] = -REVEAL_MS;
    }
  });
}

/** Milliseconds since this seat's hand was first drawn face up here (0 the first time). */
function sinceRevealed(index) {
  const key = `${handId()}:${index}`;
  const now = performance.now();
  if (!(key in model.revealedAt)) model.revealedAt[key] = now;
  return now - model.revealedAt[key];
}

/** Milliseconds until every face-up hand of the felt has finished turning. */
function revealLeft(view) {
  if (!view) return 0;
  let left = 0;
  (view.hands || []).forEach((cards, index) => {
    if (Array.isArray(cards) && (view.shown?.[index] || view.phase === "finished")) {
      const key = `${handId()}:${index}`;
      const at = model.revealedAt[key];
      left = Math.max(left, at === undefined ? REVEAL_MS : at + REVEAL_MS - performance.now());
    }
  });
  return left;
}

/** A shown hand, split as it was shown (three, then two), turning card by card. */
function shownHand(view, index, size) {
  const split = view.splits?.[index];
  const cards = split ? [...split[0], ...split[1]] : view.hands[index];
  const elapsed = sinceRevealed(index);
  const animate = elapsed < REVEAL_MS;
  const els = cards.map((card, i) => {
    const el = cardElement(card, { size });
    if (animate) {
      el.classList.add("nn-flip");
      el.style.animationDelay = `${i * STEP_MS - elapsed}ms`;
    }
    if (split && i === 3) el.classList.add("nn-gap");
    return el;
  });
  const label = h("span", { class: `nn-cat${animate ? " nn-late" : ""}`, dataset: { category: view.categories[index] || "" } }, categoryText(view, index));
  if (animate) label.style.animationDelay = `${5 * STEP_MS - elapsed}ms`;
  return [h("div", { class: "cards nn-cards", dataset: { shown: "yes" } }, els), label];
}

function seatCards(view, index, size) {
  if (!view) return [];
  const cards = view.hands?.[index];
  if (Array.isArray(cards) && (view.shown?.[index] || view.phase === "finished")) return shownHand(view, index, size);
  if (Array.isArray(cards)) return [h("div", { class: "cards nn-cards" }, cards.map((c) => cardElement(c, { size })))];
  if (view.phase === "show") return [h("div", { class: "cards nn-cards" }, Array.from({ length: 5 }, () => cardBack({ size })))];
  return [];
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = liveView();
  kit.markPage(isMyTurn());
  root.dataset.mode = feltView()?.mode || "";
  kit.renderTopBar();
  renderSeats(snap);
  renderCenter(snap, view);
  renderMine(feltView());
  renderResult(view); // before the actions: the Ready button hides behind an open result panel
  renderActions(snap, view);
  tick();
}

function renderSeats(snap) {
  const view = feltView();
  renderSeatRow(snap, mySeat(), (index, seat) => seatTile(index, seat, snap, view));
}

/** The banker's badge (with its multiple), before the badges every game shows. */
function bankerBadges(index, seat, snap, view) {
  const banker = view && view.banker === index && badge("nn-banker", `${t("banker_short")} ×${view.banker_multiple}`, t("banker"));
  return seatBadges(seat, { snap, view, own: [banker] });
}

function seatTile(index, seat, snap, view) {
  const acting = actors().includes(index);
  const name = seat?.name || t("empty_seat");
  const tile = h(
    "section",
    { class: `nn-seat${acting ? " turn" : ""}${view?.banker === index ? " is-banker" : ""}`, dataset: { seat: index }, "aria-label": name },
    tileHead("nn", name, bankerBadges(index, seat, snap, view)),
  );
  if (view) {
    const said = saidText(view, index);
    tile.append(
      h("div", { class: "nn-seat-body" }, seatCards(view, index, "tiny")),
      h(
        "div",
        { class: "nn-seat-foot" },
        said ? h("span", { class: "said" }, said) : null,
        acting ? clock(snap.hand.deadline) : null,
      ),
    );
  } else if (seat?.name) {
    tile.append(h("div", { class: "nn-seat-foot" }, seat.ready ? "" : t("waiting_players_short")));
  }
  return tile;
}

function bankNote(view) {
  if (!view) return "";
  if (view.mode === "banker" && view.banker !== null && view.banker !== undefined) {
    const name = seatName(view.banker);
    if (view.grab_tied?.length > 1) {
      return `${t("tie_drawn", { names: view.grab_tied.map(seatName).join(", "), name })} · ${t("banker_is", { name, n: view.banker_multiple })}`;
    }
    return t("banker_is", { name, n: view.banker_multiple });
  }
  if (view.phase === "finished" && Number.isInteger(view.result?.best)) return t("best_is", { name: seatName(view.result.best) });
  return "";
}

function renderCenter(snap, view) {
  renderPhase(view);
  renderCountdown(view && view.phase !== "finished" ? snap.hand.deadline : null);
  $("#bank-note").textContent = bankNote(view);
  kit.renderStatus(() => {
    if (!view || view.phase === "finished") return "";
    const seat = mySeat();
    if (isMyTurn()) return t(`your_turn_${view.phase}`);
    if (seat !== null && view.phase === "bet" && view.banker === seat) return t("banker_waits");
    return seat !== null ? t("decided_wait") : t("countdown_note");
  });
}

function toggleCard(card) {
  const at = model.selected.indexOf(card);
  if (at >= 0) model.selected.splice(at, 1);
  else if (model.selected.length < 3) model.selected.push(card);
  render();
}

function renderMine(view) {
  const seat = mySeat();
  const box = $("#my-hand");
  const category = $("#my-category");
  const said = $("#my-said");
  if (!view || seat === null) {
    box.replaceChildren();
    category.textContent = "";
    said.textContent = "";
    return;
  }
  const cards = view.hands?.[seat];
  if (Array.isArray(cards) && (view.shown?.[seat] || view.phase === "finished")) {
    box.replaceChildren(...shownHand(view, seat, ""));
    category.textContent = "";
  } else if (Array.isArray(cards)) {
    const choosing = isMyTurn() && view.phase === "show";
    box.replaceChildren(
      h(
        "div",
        { class: "cards nn-cards" },
        cards.map((card) => {
          const el = cardElement(card);
          if (model.selected.includes(card)) el.classList.add("selected");
          if (choosing) {
            el.tabIndex = 0;
            el.addEventListener("click", () => toggleCard(card));
            el.addEventListener("keydown", (e) => (e.key === "Enter" || e.key === " ") && toggleCard(card));
          }
          return el;
        }),
      ),
    );
    category.textContent = view.hand_category ? `${t(`cat_${view.hand_category}`)} ${t("multiple", { n: view.hand_multiple })}` : "";
  } else {
    box.replaceChildren();
    category.textContent = "";
  }
  said.textContent = saidText(view, seat);
}

function choiceButton(choice) {
  if (choice.type === "grab") {
    return choice.multiple
      ? button(t("grab_times", { n: choice.multiple }), "grab", choice, "primary", { multiple: choice.multiple })
      : button(t("no_grab"), "grab", choice, "secondary", { multiple: 0 });
  }
  return button(t("bet_times", { n: choice.multiple }), "bet", choice, "primary", { multiple: choice.multiple });
}

/** 摊牌: the three cards picked (when they are one of the offered splits), else the server's hint. */
function showButtons(snap, view) {
  const hint = snap.hand.hint;
  const picked = [...model.selected].sort();
  const chosen = (view.choices || []).find((c) => c.type === "show" && [...c.three].sort().join() === picked.join());
  const hintButton = button(t("hint"), "hint", () => {
    model.selected = hint ? [...hint.three] : [];
    render();
  }, "secondary");
  const show = chosen
    ? button(t("show_selected"), "show", chosen, "primary", { picked: "yes" })
    : button(t("show"), "show", hint || view.choices[0], "primary");
  return [hintButton, show];
}

function renderActions(snap, view) {
  const acting = isMyTurn() && !snap?.you?.trustee && view;
  let buttons = [];
  if (acting) buttons = view.phase === "show" ? showButtons(snap, view) : (view.choices || []).map(choiceButton);
  kit.renderActionBar(buttons, acting ? snap.hand.deadline : null);
}

function renderResult(live) {
  const panel = $("#result");
  const result = model.result;
  const settled = settledView(model, live);
  const view = settled.view;
  let show = settled.show;
  // The panel waits until the last shown hand has turned over on the felt.
  const left = show ? revealLeft(feltView()) : 0;
  window.clearTimeout(model.revealTimer);
  if (left > 0) {
    show = false;
    model.revealTimer = window.setTimeout(render, left + 20);
  }
  panel.hidden = !show;
  if (!show) return;
  const seat = mySeat();
  const rows = resultRows(result, view?.result?.deltas, seatName);
  const winners = winnersText(rows, seatName, { byDelta: true });
  titleByOutcome(panel, rows.find((r) => r.index === seat), winners);
  panel.querySelector(".sub").textContent = [bankNote(view), winners].filter(Boolean).join(" · ");

  const body = rows.map((row) => {
    const split = view?.splits?.[row.index];
    const bet = view?.bets?.[row.index];
    const role = view?.banker === row.index ? t("banker") : bet ? t("said_bet", { n: bet }) : "";
    const handCell = split
      ? h(
          "td",
          { class: "nn-hand-cell" },
          h("div", { class: "cards" }, [...split[0], ...split[1]].map((c, i) => {
            const el = cardElement(c, { size: "tiny" });
            if (i === 3) el.classList.add("nn-gap");
            return el;
          })),
          h("span", { class: "nn-cat", dataset: { category: view.categories[row.index] || "" } }, categoryText(view, row.index)),
        )
      : h("td", { class: "nn-hand-cell muted" }, "–");
    return resultRow(row, seat, playerCell(row, seatName, role), handCell);
  });
  panel.querySelector("tbody").replaceChildren(...body);
  renderResultFoot(panel, result);
}

// ---- Wiring -------------------------------------------------------------

kit.start();
