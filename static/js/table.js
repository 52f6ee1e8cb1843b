// The 斗地主 table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. Buttons appear only when the view's `choices`,
// `can_play` and `can_pass` allow them, a refused action comes back as an
// `error` message shown next to the hand, and every screen is drawn from the
// last `state` (plus the last `result`). Messages are described in docs/protocol.md.

import { cardBack, cardElement, sortHighToLow } from "./cards.js";
import { $, h, root, seatedTable, t, tick } from "./tablekit.js";

const JOKER_NAMES = { DJ: t("big_joker"), XJ: t("small_joker") };

const model = {
  selected: new Set(),
};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const view = msg.hand?.view;
    const hand = new Set(view?.hand || []);
    for (const card of [...model.selected]) if (!hand.has(card)) model.selected.delete(card);
    // A new turn or hand makes the previous note stale.
    const before = previous?.hand;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== view?.turn) setMessage("");
  },
});
const { act, button, mySeat, setMessage } = kit;

// ---- Outgoing intents ---------------------------------------------------

function playSelected() {
  const view = currentView();
  if (!view) return;
  const cards = (view.hand || []).filter((card) => model.selected.has(card));
  if (!cards.length) {
    setMessage(t("select_cards"), "note");
    render();
    return;
  }
  act({ type: "play", cards });
}

/** 提示: select the play the server suggests; the client suggests nothing itself. */
function showHint() {
  const hand = model.snapshot?.hand;
  const view = currentView();
  const hint = view && "hint" in view ? view.hint : hand && "hint" in hand ? hand.hint : undefined;
  if (hint === undefined) {
    setMessage(t("hint_unavailable"), "note");
  } else if (!hint || hint.type !== "play" || !(hint.cards || []).length) {
    setMessage(t("hint_none"), "note");
  } else {
    model.selected = new Set(hint.cards);
    setMessage("");
  }
  render();
}

function toggleCard(card) {
  if (model.selected.has(card)) model.selected.delete(card);
  else model.selected.add(card);
  if (model.messageKind === "error") setMessage("");
  render();
}

// ---- Reading the snapshot -----------------------------------------------

function currentView() {
  return model.snapshot?.hand?.view || null;
}

function isMyTurn() {
  const seat = mySeat();
  const hand = model.snapshot?.hand;
  if (seat === null || !hand?.view || hand.view.phase === "finished") return false;
  return hand.view.turn === seat || (hand.actors || []).includes(seat);
}

function seatName(index) {
  const seat = model.snapshot?.table?.seats?.[index];
  return seat?.name || t("empty_seat");
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
  renderResult(view); // before the actions: the Ready button hides behind an open result panel
  renderActions(snap, view);
  renderHand(view);
  tick();
}

function renderInfo(snap, view) {
  kit.renderTopBar();
  $("#base-stake").textContent = view?.stake ?? snap?.table?.tier?.base_stake ?? "–";
  $("#multiple").textContent = view?.multiple ? `×${view.multiple}` : "–";
  $("#bid").textContent = view?.bid ? t("bid_points", { points: view.bid }) : "–";
}

function seatPositions(count) {
  const base = mySeat() ?? 0;
  return { bottom: base, right: (base + 1) % count, left: (base + 2) % count };
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const count = Math.max(seats.length, 3);
  const pos = seatPositions(count);
  for (const [where, index] of Object.entries(pos)) {
    const box = $(`#seat-${where}`);
    box.replaceChildren(seatInfo(index, seats[index], snap, view, where), trickFor(index, view, where));
    box.dataset.seat = index;
    box.classList.toggle("turn", Boolean(view && view.phase !== "finished" && actorsOf(snap).includes(index)));
  }
}

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand) return [];
  if (hand.actors?.length) return hand.actors;
  return typeof hand.view?.turn === "number" ? [hand.view.turn] : [];
}

function seatInfo(index, seat, snap, view, where) {
  const badges = [];
  if (view && typeof view.landlord === "number") {
    const landlord = view.landlord === index;
    badges.push(h("span", { class: `dz-badge role ${landlord ? "landlord" : "farmer"}` }, landlord ? t("landlord") : t("farmer")));
  }
  if (seat?.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
  if (seat?.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
  if (seat && seat.connected === false && !seat.is_bot) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
  if (view?.doubles?.[index] === true) badges.push(h("span", { class: "dz-badge multiple" }, t("said_double")));
  // What this seat plays for if the hand ended now (the engine's per-seat multiple).
  const own = view?.multiples?.[index];
  if (typeof own === "number" && view.phase !== "finished") {
    badges.push(h("span", { class: "dz-badge multiple", title: t("multiple"), dataset: { multiple: own } }, `×${own}`));
  }

  const name = seat?.name || t("empty_seat");
  const avatar = h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase());
  const lines = h(
    "div",
    { class: "who" },
    h("div", { class: "name" }, name, where === "bottom" ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
    h("div", { class: "level" }, seat?.level || ""),
    h("div", { class: "badges" }, badges),
  );
  const parts = [avatar, lines];
  const count = view?.counts?.[index];
  if (where !== "bottom" && typeof count === "number") {
    parts.push(
      h("div", { class: "count", title: t("cards_left", { count }), dataset: { count } }, cardBack({ size: "tiny" }), h("span", {}, count)),
    );
  }
  if (actorsOf(snap).includes(index) && snap?.hand?.deadline && view?.phase !== "finished") {
    parts.push(h("div", { class: "clock", dataset: { deadline: snap.hand.deadline } }, ""));
  }
  return h("div", { class: "seat-info" }, parts);
}

function trickFor(index, view, where) {
  const box = h("div", { class: "trick", dataset: { seat: index } });
  if (!view) return box;
  const entry = view.trick?.[index];
  if (entry && entry !== "pass" && Array.isArray(entry.cards) && entry.cards.length) {
    const cards = h("div", { class: "cards" }, sortHighToLow(entry.cards).map((c) => cardElement(c, { size: "small", names: JOKER_NAMES })));
    box.append(cards);
  } else if (entry === "pass") {
    box.append(h("span", { class: "said" }, t("said_pass")));
  } else if (entry && entry.type) {
    box.append(h("span", { class: "said" }, saidLabel(entry)));
  } else {
    const said = auctionWord(index, view);
    if (said) box.append(h("span", { class: "said" }, said));
  }
  return box;
}

/** Say what a seat last declared while the landlord is chosen (叫分, 抢地主, 加倍). */
function auctionWord(index, view) {
  if (!["bidding", "robbing", "doubling"].includes(view.phase)) return "";
  const doubled = view.doubles?.[index];
  if (view.phase === "doubling" && typeof doubled === "boolean") return doubled ? t("said_double") : t("said_no_double");
  const robbed = view.robs?.[index];
  if (view.phase !== "bidding" && typeof robbed === "boolean") return robbed ? t("said_rob") : t("said_no_rob");
  const bid = view.bids?.[index];
  if (bid === 0) return t("said_no_bid");
  if (typeof bid === "number") return t("said_bid", { points: bid });
  return "";
}

function saidLabel(entry) {
  if (entry.type === "bid") return t("said_bid", { points: entry.points });
  if (entry.type === "rob") return t("said_rob");
  if (entry.type === "double") return t("said_double");
  return t("said_pass");
}

function renderCenter(snap, view) {
  const bottom = $("#bottom-cards");
  const cards = view?.bottom;
  if (Array.isArray(cards) && cards.length) {
    bottom.replaceChildren(...cards.map((c) => cardElement(c, { size: "small", names: JOKER_NAMES })));
  } else if (view && view.phase !== "finished") {
    bottom.replaceChildren(cardBack({ size: "small" }), cardBack({ size: "small" }), cardBack({ size: "small" }));
  } else {
    bottom.replaceChildren();
  }
  $(".dz-bottom").hidden = !bottom.children.length;
  // 明牌 (易发): the face-up card of the deal that picked the first bidder.
  const shown = view?.shown_card;
  const shownCard = typeof shown === "string" ? shown : shown?.card;
  const shownBox = $("#shown-card");
  shownBox.hidden = !shownCard || view?.phase === "playing";
  if (shownCard) {
    const holder = typeof shown?.seat === "number" ? h("span", { class: "caption" }, seatName(shown.seat)) : null;
    shownBox.querySelector(".cards").replaceChildren(cardElement(shownCard, { size: "small", names: JOKER_NAMES }), holder || "");
  }

  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
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

function choiceButton(choice, phase) {
  if (choice.type === "bid") {
    return button(t("bid_points", { points: choice.points }), "bid", choice, "primary", { points: choice.points });
  }
  if (choice.type === "rob") return button(t("rob"), "rob", choice, "primary");
  if (choice.type === "double") return button(t("double"), "double", choice, "primary");
  if (choice.type === "pass") {
    const label = { bidding: "no_bid", robbing: "no_rob", doubling: "no_double" }[phase] || "pass";
    return button(t(label), "pass", choice, "");
  }
  return button(choice.type, choice.type, choice, "");
}

function renderActions(snap, view) {
  const bar = $("#actions");
  const buttons = [];
  const seat = mySeat();
  const you = snap?.you;
  if (seat !== null && isMyTurn() && !you?.trustee && view) {
    const choices = (view.choices || []).filter((c) => view.phase !== "playing" || c.type !== "play");
    if (view.phase === "playing") {
      const canPass = view.can_pass || choices.some((c) => c.type === "pass");
      if (canPass) buttons.push(button(t("pass"), "pass", { type: "pass" }, ""));
      if (view.can_play) {
        buttons.push(button(t("hint"), "hint", showHint, "secondary"));
        buttons.push(button(t("play"), "play", playSelected, "primary"));
      }
    } else {
      for (const choice of choices) buttons.push(choiceButton(choice, view.phase));
    }
    if (snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  }
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  bar.replaceChildren(...buttons);
  kit.renderTrusteeAndMessage();
}

function renderHand(view) {
  const box = $("#my-hand");
  const cards = view?.hand;
  if (!Array.isArray(cards)) {
    box.replaceChildren();
    return;
  }
  const els = sortHighToLow(cards).map((card) => {
    const el = cardElement(card, { names: JOKER_NAMES });
    el.classList.toggle("selected", model.selected.has(card));
    el.setAttribute("role", "button");
    el.tabIndex = 0;
    el.setAttribute("aria-pressed", model.selected.has(card) ? "true" : "false");
    el.addEventListener("click", () => toggleCard(card));
    el.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        toggleCard(card);
      }
    });
    return el;
  });
  box.replaceChildren(...els);
  fitHand();
}

/** Overlap the hand's cards so that all of them fit the width available. */
function fitHand() {
  const box = $("#my-hand");
  const count = box.children.length;
  if (!count) return;
  const style = getComputedStyle(box);
  const cardWidth = parseFloat(style.getPropertyValue("--card-w")) || 64;
  const width = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const widest = cardWidth * 0.6;
  const step = count > 1 ? Math.min(widest, (width - cardWidth) / (count - 1)) : widest;
  box.style.setProperty("--step", `${Math.max(step, 12)}px`);
}

function renderResult(liveView) {
  const panel = $("#result");
  const result = model.result;
  // The finished hand's view: the live one while it settles, then the table's last hand.
  const lastView = model.snapshot?.last_hand?.id === result?.hand ? model.snapshot?.last_hand?.view : null;
  const view = liveView?.phase === "finished" ? liveView : lastView;
  const finished = view?.result || (result?.details?.hands ? result.details : null);
  const handId = result?.hand ?? model.snapshot?.hand?.id;
  const show = (result || finished) && model.resultDismissed !== handId;
  panel.hidden = !show;
  if (!show) return;
  const winner = result?.winner || finished?.winner;
  const titles = { landlord: "landlord_wins", farmers: "farmers_win", void: "hand_void" };
  panel.querySelector(".title").textContent = t(titles[winner] || "farmers_win");
  const spring = view?.spring ?? result?.details?.spring;
  const multiple = result?.multiple ?? finished?.multiple;
  const bid = finished?.bid ?? result?.details?.bid;
  const facts = [
    spring ? t(spring) : "",
    bid ? `${t("bid")} ${t("bid_points", { points: bid })}` : "",
    multiple ? `${t("multiple")} ×${multiple}` : "",
  ];
  panel.querySelector(".sub").textContent = facts.filter(Boolean).join(" · ");

  const landlord = view?.landlord ?? result?.details?.landlord;
  const rows = (result?.seats || (finished?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }))).map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    const role = typeof landlord === "number" ? (row.index === landlord ? t("landlord") : t("farmer")) : "";
    return h(
      "tr",
      { class: row.index === mySeat() ? "me" : "", dataset: { seat: row.index } },
      h("td", {}, row.name || seatName(row.index), role ? h("span", { class: "role-note" }, ` · ${role}`) : null),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
    );
  });
  panel.querySelector("tbody").replaceChildren(...rows);
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");

  const hands = finished?.hands;
  const handsBox = panel.querySelector(".final-hands");
  handsBox.hidden = !Array.isArray(hands);
  if (Array.isArray(hands)) {
    handsBox.querySelector(".rows").replaceChildren(
      ...hands.map((cards, index) =>
        h("div", { class: "final-row" }, h("span", { class: "who" }, seatName(index)),
          h("div", { class: "cards" }, sortHighToLow(cards || []).map((c) => cardElement(c, { size: "tiny", names: JOKER_NAMES })))),
      ),
    );
  }
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

window.addEventListener("resize", fitHand);
kit.start();
