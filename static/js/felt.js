// What the seated games draw alike on the felt: the seats around an oval (梭哈, 填大坑,
// 炸金花, 扯旋) or in a row above the viewer's own (必下德州, 二八杠, 推筒子, 牛牛), the
// badges a seat wears, its money line, the pot and the phase in the middle. Each game
// passes what is its own (its class prefix, its own badges, what goes under the head);
// the classes and data-attributes drawn are the ones its stylesheet and tests read.

import { $, coins, h, t } from "./tablekit.js";

/**
 * Place seat `index` of `count` around an oval: the viewer (`viewer`, or seat 0 for a
 * spectator) at the bottom, then in the order of play to the right. Returns the
 * position `k` (0 is the bottom) and the inline style that puts it there.
 */
export function ovalPlace(index, count, viewer) {
  const k = (index - (viewer ?? 0) + count) % count;
  const angle = Math.PI / 2 - (2 * Math.PI * k) / count;
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 + 38 * Math.sin(angle);
  // Clamped so that a seat near the edge of a narrow screen stays whole.
  const left = `clamp(var(--seat-half-w), ${x.toFixed(1)}%, calc(100% - var(--seat-half-w)))`;
  const top = `clamp(var(--seat-half-h), ${y.toFixed(1)}%, calc(100% - var(--seat-half-h)))`;
  return { k, style: `left:${left};top:${top}` };
}

/** A seat badge: `<span class="dz-badge {kind}">`, with a tooltip when `title` is given. */
export function badge(kind, text, title = null) {
  return h("span", { class: `dz-badge ${kind}`, title }, text);
}

/**
 * The badges of a seat: the game's `own` first (the dealer, the banker…; nulls skipped),
 * then the ones every game shows: bot, 托管 (trustee), offline, and ready between hands.
 */
export function seatBadges(seat, { snap, view, own = [] }) {
  const badges = own.filter(Boolean);
  if (seat?.is_bot) badges.push(badge("bot", t("bot")));
  if (seat?.trustee) badges.push(badge("trustee", t("trustee")));
  if (seat?.name && seat.connected === false && !seat.is_bot) badges.push(badge("offline", t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(badge("ready", t("ready")));
  return badges;
}

/**
 * One seat around the oval felt: `<section class="{prefix}-seat">` placed by `ovalPlace`,
 * marked `me`, `turn` and with its `state` word as a class, data-seat, data-pos and `data`;
 * inside, the name line (with "(you)" and the state as `{prefix}-state`), the badges,
 * then `children`.
 */
export function ovalSeat({ prefix, index, count, viewer, seat, turn, state = "", badges = [], data = {} }, ...children) {
  const place = ovalPlace(index, count, viewer);
  const mine = index === viewer;
  const name = seat.name || t("empty_seat");
  return h(
    "section",
    {
      class: `${prefix}-seat${mine ? " me" : ""}${turn ? " turn" : ""}${state ? ` ${state}` : ""}`,
      style: place.style,
      dataset: { seat: index, pos: place.k, ...data },
      "aria-label": name,
    },
    h(
      "div",
      { class: "head" },
      h("span", { class: "name" }, name, mine ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
      state ? h("span", { class: `${prefix}-state ${state}` }, t(`state_${state}`)) : null,
    ),
    badges.length ? h("div", { class: "badges" }, badges) : null,
    ...children,
  );
}

/** What the seat has put into the pot this hand (its data-bet is what the tests read). */
export function betIn(view, index) {
  return h("span", { class: "bet", dataset: { bet: view.bets?.[index] ?? "" } }, t("bet_in", { amount: coins(view.bets?.[index]) }));
}

/** The seat's money line: what it has put in, then what it has left. */
export function moneyLine(view, index) {
  return h("div", { class: "money" }, betIn(view, index), h("span", { class: "left" }, t("coins_left", { amount: coins(view.coins?.[index]) })));
}

/** The seats other than the viewer's, in table order from the one after it (its own is drawn below the felt). */
export function otherSeats(count, viewer) {
  const start = viewer === null ? 0 : viewer + 1;
  const order = [];
  for (let k = 0; k < count; k += 1) {
    const index = (start + k) % count;
    if (index !== viewer) order.push(index);
  }
  return order;
}

/** Fill #seats with a `tile(index, seat)` for every seat but the viewer's; data-count says how many. */
export function renderSeatRow(snap, viewer, tile) {
  const box = $("#seats");
  const seats = snap?.table?.seats || [];
  const order = otherSeats(seats.length, viewer);
  box.dataset.count = String(order.length);
  box.replaceChildren(...order.map((index) => tile(index, seats[index])));
}

/** The head of a seat tile in a row: `<div class="{prefix}-seat-head">` with an initial, the name and the badges. */
export function tileHead(prefix, name, badges) {
  return h(
    "div",
    { class: `${prefix}-seat-head` },
    h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase()),
    h("div", { class: "who" }, h("div", { class: "name" }, name), h("div", { class: "badges" }, badges)),
  );
}

/** Write the pot (#pot, its data-value what the tests read) of `view`, or "–" without one. */
export function renderPot(view) {
  const pot = $("#pot");
  pot.textContent = coins(view?.pot);
  pot.dataset.value = view ? String(view.pot) : "";
}

/** Write the phase of the hand (#phase), or "waiting for the next hand" between hands. */
export function renderPhase(view) {
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
}

/** Put the hand's countdown in the middle of the felt (#countdown) when `deadline` is given, else empty it. */
export function renderCountdown(deadline) {
  $("#countdown").replaceChildren(...(deadline ? [h("span", { class: "clock", dataset: { deadline } })] : []));
}
