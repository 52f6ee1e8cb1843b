// The 斗地主 table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. Buttons appear only when the view's `choices`,
// `can_play` and `can_pass` allow them, a refused action comes back as an
// `error` message shown next to the hand, and every screen is drawn from the
// last `state` (plus the last `result`). Messages are described in docs/protocol.md.

import { TableSocket } from "./socket.js";
import { cardBack, cardElement, sortHighToLow } from "./cards.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const LABELS = JSON.parse(document.getElementById("table-labels").textContent);
const root = document.getElementById("table-app");
const JOKER_NAMES = { DJ: LABELS.big_joker, XJ: LABELS.small_joker };

/** Return the label `key` with its {placeholders} filled in. */
function t(key, params = {}) {
  let text = LABELS[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** Create an element: h("div", {class: "x", dataset: {a: 1}}, child, "text"). */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

const $ = (selector) => root.querySelector(selector);

const model = {
  snapshot: null, // the last `state` message
  result: null, // the last `result` message, kept until the player moves on
  resultDismissed: null, // hand id whose result panel the player closed
  balance: null,
  selected: new Set(),
  message: "", // shown next to the hand: a refused action, a hint note
  messageKind: "",
  pending: false, // an act is on its way: avoid double sends
};

const socket = new TableSocket(config.wsPath, {
  onMessage: handleMessage,
  onStatus: (status, detail) => {
    // A fresh connection has nothing in flight: let the buttons work again.
    if (status === "connected") model.pending = false;
    renderConnection(status, detail);
  },
});

// ---- Incoming messages --------------------------------------------------

function handleMessage(msg) {
  if (msg.type === "state") applyState(msg);
  else if (msg.type === "result") applyResult(msg);
  else if (msg.type === "error") applyError(msg);
  else if (msg.type === "cancelled") applyCancelled(msg);
  else if (msg.type === "moved" && msg.url) window.location.assign(msg.url);
}

function applyState(msg) {
  const previous = model.snapshot;
  model.snapshot = msg;
  model.pending = false;
  // Spectators' broadcasts carry no balance: keep the one the connect-time state gave.
  model.balance = shownBalance(msg) ?? model.balance;
  const view = msg.hand?.view;
  const hand = new Set(view?.hand || []);
  for (const card of [...model.selected]) if (!hand.has(card)) model.selected.delete(card);
  // A new turn or hand makes the previous note stale.
  const before = previous?.hand;
  if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== view?.turn) setMessage("");
  if (model.result && msg.hand && msg.hand.id !== model.result.hand) model.result = null;
  render();
}

function applyResult(msg) {
  model.result = msg;
  const mine = mySeatResult(msg);
  if (mine && typeof mine.balance === "number") model.balance = mine.balance;
  render();
}

/** Return the coins to show as the player's balance: the wallet plus what is in play. */
function shownBalance(msg) {
  const you = msg.you || {};
  if (typeof you.balance !== "number") return null;
  // Coins carried into a hand sit in escrow until settlement: count them as the player's.
  const carried = typeof you.seat === "number" ? msg.table?.seats?.[you.seat]?.carried : null;
  return you.balance + (typeof carried === "number" ? carried : 0);
}

function applyCancelled(msg) {
  model.result = null;
  setMessage(msg.reason || "", "note");
  render();
}

function applyError(msg) {
  model.pending = false;
  setMessage(msg.message || msg.code || "", "error");
  render();
}

// ---- Outgoing intents ---------------------------------------------------

function act(action) {
  if (model.pending) return;
  model.pending = true;
  setMessage("");
  socket.act(action);
  render();
  // An answer always comes (a new state or an error); if it got lost, ask for the table again.
  const sent = model.snapshot?.seq;
  window.setTimeout(() => {
    if (model.pending && model.snapshot?.seq === sent) {
      model.pending = false;
      socket.send({ type: "resync" });
      render();
    }
  }, 5000);
}

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

function sendReady() {
  if (model.result) model.resultDismissed = model.result.hand;
  socket.send({ type: "ready" });
  render();
}

function leaveTable() {
  socket.send({ type: "leave" });
  window.setTimeout(() => window.location.assign(config.lobbyUrl), 300);
}

// ---- Reading the snapshot -----------------------------------------------

function currentView() {
  return model.snapshot?.hand?.view || null;
}

function mySeat() {
  const seat = model.snapshot?.you?.seat;
  return typeof seat === "number" ? seat : null;
}

function mySeatResult(result) {
  const seat = mySeat();
  return (result?.seats || []).find((row) => row.index === seat) || null;
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

function setMessage(text, kind = "") {
  model.message = text;
  model.messageKind = text ? kind : "";
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

function renderConnection(status, detail = {}) {
  const el = $("#connection");
  el.dataset.status = status;
  const text = {
    connecting: t("connecting"),
    connected: t("connected"),
    reconnecting: t("reconnecting", { seconds: detail.seconds ?? "" }),
    closed: t("login_again"),
  }[status] || t("disconnected");
  el.querySelector(".label").textContent = text;
  el.title = text;
}

function renderInfo(snap, view) {
  const tier = snap?.table?.tier;
  $("#tier-name").textContent = tier?.name || "";
  $("#hand-number").textContent = snap?.hand ? t("hand_number", { number: snap.hand.number }) : "";
  $("#base-stake").textContent = view?.stake ?? tier?.base_stake ?? "–";
  $("#multiple").textContent = view?.multiple ? `×${view.multiple}` : "–";
  $("#bid").textContent = view?.bid ? t("bid_points", { points: view.bid }) : "–";
  const balance = $("#my-balance");
  balance.textContent = model.balance === null ? "–" : model.balance.toLocaleString();
  balance.dataset.value = model.balance === null ? "" : String(model.balance);
  const seat = mySeat();
  $("#my-level").textContent = seat === null ? "–" : snap?.table?.seats?.[seat]?.level || "–";
  const between = !snap?.hand || view?.phase === "finished";
  $("#leave").hidden = seat === null || !between;
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

function button(label, action, payload, kind, data = {}) {
  const onclick = typeof payload === "function" ? payload : () => act(payload);
  return h("button", { type: "button", class: `dz-btn ${kind}`, dataset: { action, ...data }, onclick, disabled: model.pending }, label);
}

function renderActions(snap, view) {
  const bar = $("#actions");
  const buttons = [];
  const seat = mySeat();
  const you = snap?.you;
  const between = !snap?.hand || view?.phase === "finished";
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
  const mine = snap?.table?.seats?.[seat];
  if (seat !== null && between && mine && !mine.ready && $("#result").hidden) {
    buttons.push(button(t("ready_button"), "ready", sendReady, "primary"));
  }
  bar.replaceChildren(...buttons);

  const trustee = $("#trustee");
  trustee.hidden = seat === null || between;
  trustee.textContent = you?.trustee ? t("trustee_off") : t("trustee_on");
  trustee.dataset.on = you?.trustee ? "yes" : "no";
  $("#trustee-banner").hidden = !(you?.trustee && !between);

  const note = $("#hand-message");
  note.textContent = model.message;
  note.dataset.kind = model.messageKind;
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
  panel.querySelector(".title").textContent = winner === "landlord" ? t("landlord_wins") : t("farmers_win");
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

/** Refresh every countdown from its deadline (epoch milliseconds). */
function tick() {
  for (const el of root.querySelectorAll(".clock[data-deadline]")) {
    const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
    el.textContent = t("seconds", { seconds: left });
    el.classList.toggle("urgent", left <= 5);
  }
}

// ---- Wiring -------------------------------------------------------------

$("#trustee").addEventListener("click", () => {
  const on = model.snapshot?.you?.trustee;
  socket.send({ type: "trustee", on: !on });
});
$("#trustee-cancel").addEventListener("click", () => socket.send({ type: "trustee", on: false }));
$("#leave").addEventListener("click", leaveTable);
$("#result").querySelector('[data-action="next-hand"]').addEventListener("click", sendReady);
$("#result").querySelector('[data-action="leave"]').addEventListener("click", leaveTable);
window.addEventListener("resize", fitHand);
window.setInterval(tick, 250);

render();
renderConnection("connecting");
socket.connect();

// Exposed for debugging in the console and for the browser test's diagnostics.
window.tableClient = { model, socket };
