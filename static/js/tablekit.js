// What every table client shares: the labels and DOM helpers, the socket with
// its connection badge, the message line and the countdowns (`connectTable`),
// and for the seated games (斗地主, 炸金花, 必下德州) the common handling of
// `state`/`result`/`error`/`cancelled`, act / ready / leave, 托管, the
// balance shown, the action bar and the status line (`seatedTable`). Each game's
// client draws its own felt, with the seats, pot and phase helpers of felt.js, the
// result panel's of results.js and the pot games' betting buttons of betting.js.
//
// The page (templates/tables/_table_base.html) provides #table-app and two JSON
// script tags: the client config and the labels, translated on the server.

import { ENGLISH } from "./lang.js";
import { TableSocket } from "./socket.js";

export const config = JSON.parse(document.getElementById("table-config").textContent);
export const LABELS = JSON.parse(document.getElementById("table-labels").textContent);
export const root = document.getElementById("table-app");

export const $ = (selector) => root.querySelector(selector);

/**
 * Show a frame's names in the page's language, in place, and return the frame.
 *
 * One frame goes to every socket of a table whatever its language, so names of data
 * (room tiers, games, player levels, the bots) come in Chinese (`name`) and English
 * (`name_en`); an English page keeps the English one under the usual key.
 */
export function localize(msg) {
  if (!ENGLISH || !msg || typeof msg !== "object") return msg;
  const pick = (obj, key) => {
    if (obj && typeof obj[`${key}_en`] === "string") obj[key] = obj[`${key}_en`];
  };
  const table = msg.table;
  pick(table, "game_name");
  pick(table?.tier, "name");
  pick(table?.tier, "game_name");
  for (const seat of table?.seats || []) {
    pick(seat, "name");
    pick(seat, "level");
  }
  for (const result of [msg, msg.last_hand?.result]) {
    if (result?.type === "result") for (const row of result.seats || []) pick(row, "name");
  }
  return msg;
}

/** Format a coin amount for display ("–" when unknown). */
export const coins = (n) => (typeof n === "number" ? n.toLocaleString() : "–");

/** Return the label `key` with its {placeholders} filled in. */
export function t(key, params = {}) {
  let text = LABELS[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replaceAll(`{${name}}`, String(value));
  return text;
}

/** Create an element: h("div", {class: "x", dataset: {a: 1}}, child, "text"). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") el.className = value;
    else if (name === "dataset") Object.assign(el.dataset, value);
    else if (name === "style") el.style.cssText = value;
    else if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else el.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** Show the connection state in the top bar's badge. */
export function renderConnection(status, detail = {}) {
  const el = $("#connection");
  el.dataset.status = status;
  const text = {
    connecting: t("connecting"),
    connected: t("connected"),
    reconnecting: t("reconnecting", { seconds: detail.seconds ?? "" }),
    closed: t("login_again"),
    gone: t("table_gone"),
    too_many: t("too_many_tables", { seconds: detail.seconds ?? "" }),
  }[status] || t("disconnected");
  const label = el.querySelector(".label");
  if (status === "closed") {
    // Reopening this page while logged out leads to the log-in page, which comes back here.
    label.replaceChildren(h("a", { href: window.location.pathname, "data-action": "log-in-again" }, text));
  } else if (status === "gone") {
    label.replaceChildren(h("a", { href: config.lobbyUrl, "data-action": "back-to-lobby" }, text));
  } else {
    label.textContent = text;
  }
  el.title = text;
}

const drawnAs = new WeakMap();

/**
 * Put `nodes` into `box` unless they would draw exactly what it shows: a state that changes
 * nothing there (another seat's move, a card dealt elsewhere) then leaves the buttons and
 * cards a player is tapping in place, so a redraw never swallows a tap. Nodes that draw the
 * same HTML and `key` carry the same actions, so the ones in place are kept with their
 * listeners: `key` must name whatever those listeners send that the HTML does not show.
 */
export function replaceIfChanged(box, nodes, key = "") {
  const drawn = key + "\n" + nodes.map((node) => (node instanceof Element ? node.outerHTML : String(node))).join("");
  if (drawnAs.get(box) === drawn) return;
  drawnAs.set(box, drawn);
  box.replaceChildren(...nodes);
}

/** Show the seconds left to a countdown's deadline (its data-deadline, epoch milliseconds). */
function showClock(el) {
  const left = Math.max(0, Math.ceil((Number(el.dataset.deadline) - Date.now()) / 1000));
  el.textContent = t("seconds", { seconds: left });
  el.classList.toggle("urgent", left <= 5);
  return el;
}

/** A countdown to `deadline` (epoch milliseconds) that `tick` fills in, or null without a deadline. */
export function clock(deadline, { tag = "span", mine = false } = {}) {
  return deadline ? h(tag, { class: mine ? "clock mine" : "clock", dataset: { deadline } }) : null;
}

/** Refresh every countdown from its deadline. */
export function tick() {
  for (const el of root.querySelectorAll(".clock[data-deadline]")) showClock(el);
}

/** True when the state `msg` is not of the hand `previous` showed (a new hand, or none on either side). */
export function anotherHand(previous, msg) {
  return !previous?.hand || !msg.hand || previous.hand.id !== msg.hand.id;
}

/** Draw the player's balance into #my-balance (its data-value is what the tests read). */
export function renderBalance(value) {
  const el = $("#my-balance");
  el.textContent = coins(value ?? null);
  el.dataset.value = typeof value === "number" ? String(value) : "";
}

/**
 * Open the table's socket and keep the badge, the message line and the clocks alive.
 *
 * `model` gains `message`, `messageKind` and `pending`; `onMessage` gets every
 * server message; `render` redraws the whole page; `Socket` is TableSocket or
 * a subclass with its own idea of which snapshots are stale.
 */
export function connectTable({ model, onMessage, render, Socket = TableSocket }) {
  Object.assign(model, { message: "", messageKind: "", pending: false, ...model });
  const socket = new Socket(config.wsPath, {
    onMessage: (msg) => onMessage(localize(msg)),
    onStatus: (status, detail) => {
      // A fresh connection has nothing in flight: let the buttons work again.
      if (status === "connected") model.pending = false;
      renderConnection(status, detail);
    },
  });

  function setMessage(text, kind = "") {
    model.message = text;
    model.messageKind = text ? kind : "";
  }

  /** Draw the message line (#hand-message): a refused action in red, a note otherwise. */
  function renderMessage() {
    const note = $("#hand-message");
    note.textContent = model.message;
    note.dataset.kind = model.messageKind;
  }

  function start() {
    window.setInterval(tick, 250);
    render();
    renderConnection("connecting");
    socket.connect();
    // Exposed for debugging in the console and for the browser tests' diagnostics.
    window.tableClient = { model, socket };
  }

  return { socket, setMessage, renderMessage, start };
}

/**
 * The shared client of the seated games: what `state`, `result`, `error` and
 * `cancelled` do to the model, the intents every seat sends, and the top bar,
 * 托管 and Ready controls they draw alike.
 *
 * `onState(msg, previous)` lets the game drop what the new snapshot made stale
 * (selected cards, an open picker, a note); `onAct()` runs before an action is sent.
 */
export function seatedTable({ model, render, onState = () => {}, onAct = () => {} }) {
  Object.assign(model, { snapshot: null, result: null, resultDismissed: null, restoredHand: null, balance: null, ...model });
  const kit = connectTable({ model, onMessage: handleMessage, render });
  const { socket, setMessage } = kit;

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
    // A state answers the action in flight unless only other seats moved in a simultaneous round.
    if (!othersActed(previous, msg)) model.pending = false;
    // Spectators' broadcasts carry no balance: keep the one the connect-time state gave.
    model.balance = shownBalance(msg) ?? model.balance;
    onState(msg, previous);
    if (model.result && msg.hand && msg.hand.id !== model.result.hand) model.result = null;
    restoreLastHand(msg);
    render();
  }

  /**
   * Between hands the snapshot carries the last hand's result (`last_hand.result`), so a page
   * opened or reloaded after a settlement, or one whose `result` notice got lost, shows the same
   * result panel as one that saw the notice; a player who had pressed Ready sees it dismissed,
   * and a cancelled hand's reason comes back as the note it was.
   */
  function restoreLastHand(msg) {
    const last = msg.last_hand;
    if (msg.hand || !last || model.restoredHand === last.id) return;
    model.restoredHand = last.id;
    const seat = msg.you?.seat;
    const ready = typeof seat === "number" && msg.table?.seats?.[seat]?.ready;
    if (last.result && model.result?.hand !== last.id) {
      takeResult(last.result);
      if (ready) model.resultDismissed = last.id;
    } else if (last.status === "cancelled" && last.cancel_reason && !ready && !model.message) {
      setMessage(last.cancel_reason, "note");
    }
  }

  function applyResult(msg) {
    takeResult(msg);
    model.restoredHand = msg.hand;
    render();
  }

  function takeResult(msg) {
    model.result = msg;
    const verify = document.querySelector('#result [data-testid="verify-link"]');
    if (verify && config.verifyUrl && Number.isInteger(msg.hand)) {
      verify.href = config.verifyUrl.replace("{id}", String(msg.hand));
      verify.hidden = false;
    }
    const mine = (msg.seats || []).find((row) => row.index === mySeat());
    if (mine && typeof mine.balance === "number") model.balance = mine.balance;
  }

  function applyCancelled(msg) {
    model.result = null;
    setMessage(msg.reason || "", "note");
    render();
  }

  /**
   * True when `msg` shows that other seats acted in the same simultaneous round (必下德州's
   * betting countdown: every undecided seat acts at once) while this seat is still to act.
   * With an action of ours in flight, such a state is not its answer: the buttons stay
   * disabled, or a second click would act twice and be refused once the first landed.
   */
  function othersActed(previous, msg) {
    const before = previous?.hand;
    const after = msg.hand;
    const seat = msg.you?.seat;
    if (!before || !after || before.id !== after.id || before.status !== after.status) return false;
    const was = before.actors || [];
    const now = after.actors || [];
    return now.includes(seat) && now.length < was.length && now.every((s) => was.includes(s));
  }

  function applyError(msg) {
    model.pending = false;
    setMessage(msg.message || msg.code || "", "error");
    render();
  }

  /** Return the coins to show as the player's balance: the wallet plus what is in escrow for this hand. */
  function shownBalance(msg) {
    const you = msg.you || {};
    if (typeof you.balance !== "number") return null;
    const carried = typeof you.seat === "number" ? msg.table?.seats?.[you.seat]?.carried : null;
    return you.balance + (typeof carried === "number" ? carried : 0);
  }

  let actsSent = 0;

  function act(action) {
    if (model.pending) return;
    model.pending = true;
    onAct();
    setMessage("");
    socket.act(action);
    render();
    // An answer always comes (a new state or an error); if it got lost, ask for the table again.
    const sent = ++actsSent;
    window.setTimeout(() => {
      if (model.pending && actsSent === sent) {
        model.pending = false;
        socket.send({ type: "resync" });
        render();
      }
    }, 5000);
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

  function mySeat() {
    const seat = model.snapshot?.you?.seat;
    return typeof seat === "number" ? seat : null;
  }

  /** The hand in play's view, or null between hands. */
  function liveView() {
    return model.snapshot?.hand?.view || null;
  }

  /** The finished hand's view: the live one while it settles, then the table's last hand. */
  function finishedView() {
    const live = liveView();
    if (live?.phase === "finished") return live;
    const last = model.snapshot?.last_hand;
    if (last?.view?.phase === "finished" && (!model.result || model.result.hand === last.id)) return last.view;
    return null;
  }

  /** The name of the player at seat `index` ("empty seat" when nobody sits there). */
  function seatName(index) {
    return model.snapshot?.table?.seats?.[index]?.name || t("empty_seat");
  }

  /** The name of the player at seat `index`, else the one the `result` gives (who left after the hand), else "empty seat". */
  function playerName(index) {
    const row = model.result?.seats?.find((r) => r.index === index);
    return model.snapshot?.table?.seats?.[index]?.name || row?.name || t("empty_seat");
  }

  /** The seats the hand waits for while its phase is one of `phases` (none in the others). */
  function actorsIn(phases) {
    const hand = model.snapshot?.hand;
    return hand && phases.includes(hand.view?.phase) ? hand.actors || [] : [];
  }

  /** Mark #table-app with the hand's phase, the snapshot's seq and whether it is this seat's turn (the tests wait on these). */
  function markPage(myTurn) {
    root.dataset.phase = liveView()?.phase || "waiting";
    root.dataset.seq = model.snapshot ? String(model.snapshot.seq) : "";
    root.dataset.myTurn = myTurn ? "yes" : "no";
  }

  /** True between hands (no hand yet, or the last one finished). */
  function between() {
    const snap = model.snapshot;
    return !snap?.hand || snap.hand.view?.phase === "finished";
  }

  /** A button that sends `payload` as an action, or calls it when it is a function. */
  function button(label, action, payload, kind, data = {}, title = null) {
    const onclick = typeof payload === "function" ? payload : () => act(payload);
    return h("button", { type: "button", class: `dz-btn ${kind}`, dataset: { action, ...data }, onclick, disabled: model.pending, title }, label);
  }

  /** The top bar: tier, hand number, balance, level and the Leave button. */
  function renderTopBar() {
    const snap = model.snapshot;
    $("#tier-name").textContent = snap?.table?.tier?.name || "";
    $("#hand-number").textContent = snap?.hand ? t("hand_number", { number: snap.hand.number }) : "";
    renderBalance(model.balance);
    const seat = mySeat();
    const level = $("#my-level");
    level.textContent = seat === null ? "–" : snap?.table?.seats?.[seat]?.level || "–";
    level.title = level.textContent; // a phone may cut a long level short (table.css)
    $("#leave").hidden = seat === null || !between();
    renderSeedHash();
  }

  /**
   * The hand's seed hash (provably fair): published from the deal on, kept between hands for the
   * last hand, short until tapped; a tap shows all 64 digits and copies them.
   */
  function renderSeedHash() {
    const snap = model.snapshot;
    const hash = snap?.hand?.seed_sha256 || snap?.last_hand?.seed_sha256 || "";
    const box = $("#seed-hash");
    if (!box) return;
    box.hidden = !hash;
    const code = box.querySelector("code");
    const button = box.querySelector("button");
    if (box.dataset.hash !== hash) {
      box.dataset.hash = hash;
      button.setAttribute("aria-expanded", "false");
      box.querySelector(".copied").hidden = true;
    }
    const full = button.getAttribute("aria-expanded") === "true";
    code.textContent = full ? hash : `${hash.slice(0, 12)}…`;
    button.title = hash;
  }

  function toggleSeedHash() {
    const box = $("#seed-hash");
    const button = box.querySelector("button");
    const full = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(full));
    renderSeedHash();
    const hash = box.dataset.hash;
    const copied = box.querySelector(".copied");
    copied.hidden = true;
    if (full && hash && navigator.clipboard?.writeText) {
      // Copying needs a secure context (https or localhost); the whole hash is shown and selectable anyway.
      navigator.clipboard.writeText(hash).then(() => { copied.hidden = false; }, () => {});
    }
    if (full) window.getSelection()?.selectAllChildren(box.querySelector("code"));
  }

  /** A countdown to when this seat's player stands up unless they press Ready (`ready_by`), or null. */
  function readyClock() {
    const mine = model.snapshot?.table?.seats?.[mySeat()];
    if (!between() || !mine?.ready_by || mine.ready) return null;
    return showClock(h("span", { class: "clock ready-by", dataset: { deadline: mine.ready_by } }));
  }

  /**
   * The Ready button, when the seat may start the next hand and no result panel covers it;
   * both it and the result panel's Next hand count down to `ready_by` while others wait.
   */
  function readyButton() {
    const seat = mySeat();
    const mine = model.snapshot?.table?.seats?.[seat];
    const next = $("#result").querySelector('[data-action="next-hand"]');
    next.querySelector(".ready-by")?.remove();
    const nextClock = readyClock();
    if (nextClock) next.append(nextClock);
    if (seat === null || !between() || !mine || mine.ready || !$("#result").hidden) return null;
    const ready = button(t("ready_button"), "ready", sendReady, "primary");
    const countdown = readyClock();
    if (countdown) ready.append(countdown);
    return ready;
  }

  /**
   * Draw the action bar (#actions): the game's `buttons`, the seat's own countdown when
   * `deadline` is given, the Ready button between hands; then 托管 and the message line.
   */
  function renderActionBar(buttons, deadline = null) {
    const clockMine = clock(deadline, { mine: true });
    const ready = readyButton();
    $("#actions").replaceChildren(...buttons, ...(clockMine ? [clockMine] : []), ...(ready ? [ready] : []));
    renderTrusteeAndMessage();
  }

  /**
   * Write the status line (#status): "waiting for players" with no hand, `during()`'s text
   * while one is dealt, "spectating" for a viewer without a seat.
   */
  function renderStatus(during = () => "") {
    const snap = model.snapshot;
    let status = !snap?.hand ? t("waiting_players") : during() || "";
    if (snap && mySeat() === null) status = t("spectating");
    $("#status").textContent = status;
  }

  /** The 托管 (trustee) toggle and banner, then the message line. */
  function renderTrusteeAndMessage() {
    const you = model.snapshot?.you;
    const trustee = $("#trustee");
    // Under 托管 the banner's own button takes it back: the toggle hides, so one 取消托管 shows.
    trustee.hidden = mySeat() === null || between() || Boolean(you?.trustee);
    trustee.textContent = you?.trustee ? t("trustee_off") : t("trustee_on");
    trustee.dataset.on = you?.trustee ? "yes" : "no";
    $("#trustee-banner").hidden = !(you?.trustee && !between());
    kit.renderMessage();
  }

  function start() {
    $("#trustee").addEventListener("click", () => socket.send({ type: "trustee", on: !model.snapshot?.you?.trustee }));
    $("#trustee-cancel").addEventListener("click", () => socket.send({ type: "trustee", on: false }));
    $("#leave").addEventListener("click", leaveTable);
    $("#seed-hash button").addEventListener("click", toggleSeedHash);
    $("#result").querySelector('[data-action="next-hand"]').addEventListener("click", sendReady);
    $("#result").querySelector('[data-action="leave"]').addEventListener("click", leaveTable);
    kit.start();
  }

  return {
    socket,
    setMessage,
    act,
    sendReady,
    leaveTable,
    mySeat,
    liveView,
    finishedView,
    seatName,
    playerName,
    actorsIn,
    markPage,
    between,
    button,
    readyButton,
    renderTopBar,
    renderActionBar,
    renderStatus,
    renderTrusteeAndMessage,
    start,
  };
}
