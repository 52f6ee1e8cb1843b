// The mahjong table client (血战到底 and 广东推倒胡): render the snapshot the server sends, send intents.
//
// It never decides a rule: every button is one of the view's `actions` (胡 win, 杠 kong, 碰 pung,
// 过 pass, 出牌 discard, 换三张 exchange, 定缺 void), lit only when listed, and every tile shown is
// one this seat's view carries (the others' hands stay backs until they win or the hand ends).
// A refused action comes back as an `error` under the buttons. The view: docs/rules/xuezhan.md.

import { turnStatus } from "./betting.js";
import { seatBadges } from "./felt.js";
import { openResultPanel, playerCell } from "./results.js";
import { $, coins as fmt, h, root, seatedTable, t, tick } from "./tablekit.js";
import { tileBack, tileElement } from "./tiles.js";

const model = { selected: [] };

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand;
    const after = msg.hand;
    if (!before || !after || before.id !== after.id || before.view?.phase !== after.view?.phase || before.view?.turn !== after.view?.turn) {
      model.selected = [];
      setMessage("");
    }
  },
  onAct() {
    model.selected = [];
  },
});
const { act, button, finishedView, mySeat, seatName, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = kit.liveView;
const SEATS = 4;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  return hand.actors || [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat) && (currentView()?.actions || []).length > 0;
}

function tileLabel(tile) {
  const n = tile.slice(0, -1);
  const suit = tile.slice(-1);
  return suit === "z" ? t(`honour_${n}`) : t(`tile_${suit}`, { n });
}

function tiles(list, size, view) {
  return (list || []).map((tile) => {
    if (!tile) return tileBack({ size });
    const el = tileElement(tile, { size, label: tileLabel(tile) });
    if (view?.wild && tile === view.wild) el.classList.add("wild");
    return el;
  });
}

/** A meld: three or four tiles; a concealed kong shows its two ends face down. */
function meldElement(meld, view) {
  const count = meld.kind === "kong" ? 4 : 3;
  const list = Array.from({ length: count }, (_, i) => (meld.concealed && (i === 0 || i === 3 || !meld.tile) ? null : meld.tile));
  return h("span", { class: `mj-meld ${meld.kind}`, dataset: { kind: meld.kind, tile: meld.tile || "" } }, tiles(list, "tiny", view));
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  kit.markPage(isMyTurn());
  root.dataset.game = view?.game || "";
  kit.renderTopBar();
  $("#base").textContent = view?.base ?? snap?.table?.tier?.base_stake ?? "–";
  const shown = view || finishedView();
  renderSeats(snap, shown);
  renderCenter(snap, view, shown);
  renderResult();
  renderMine(view);
  renderActions(snap, view);
  tick();
}

const PLACES = ["me", "right", "top", "left"];

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const k = (index - (mySeat() ?? 0) + SEATS) % SEATS;
    const mine = index === mySeat();
    const won = view?.won?.includes(index);
    const own = [];
    if (view && view.dealer === index) own.push(h("span", { class: "dz-badge dealer" }, t("dealer")));
    if (won) own.push(h("span", { class: "dz-badge won" }, t("won")));
    if (view?.voids?.[index]) own.push(h("span", { class: "dz-badge void", dataset: { suit: view.voids[index] } }, t("void_is", { suit: t(`suit_${view.voids[index]}`) })));
    else if (view && view.phase === "void" && view.void_done?.[index]) own.push(h("span", { class: "dz-badge" }, t("chose")));
    if (view && view.phase === "exchange" && view.exchange_done?.[index]) own.push(h("span", { class: "dz-badge" }, t("chose")));
    const badges = seatBadges(seat, { snap, view, own });
    const turn = actors.includes(index);
    const delta = view?.deltas?.[index];
    return h(
      "section",
      {
        class: `mj-seat ${PLACES[k]}${mine ? " me" : ""}${turn ? " turn" : ""}${won ? " has-won" : ""}`,
        dataset: { seat: index, pos: k },
        "aria-label": seat.name || t("empty_seat"),
      },
      h(
        "div",
        { class: "head" },
        h("span", { class: "name" }, seat.name || t("empty_seat"), mine ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
        view && !mine ? h("span", { class: "count" }, t("tiles_in_hand", { n: view.hand_counts[index] })) : null,
        typeof delta === "number" && delta ? h("span", { class: `delta ${delta > 0 ? "won" : "lost"}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${fmt(delta)}`) : null,
        turn && snap.hand?.deadline ? h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
      ),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      view && !mine && view.melds[index].length ? h("div", { class: "melds" }, view.melds[index].map((m) => meldElement(m, view))) : null,
      view ? h("div", { class: "discards", dataset: { seat: index } }, tiles(view.discards[index], "mini", view)) : null,
    );
  });
  $("#seats").replaceChildren(...els);
}

function renderCenter(snap, view, shown) {
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  $("#wall").textContent = shown ? t("wall_left", { n: shown.wall_count }) : "";
  const wild = $("#wild");
  wild.hidden = !shown?.wild;
  if (shown?.wild) {
    wild.replaceChildren(
      h("span", { class: "caption" }, t("flipped")),
      ...tiles([shown.indicator], "small"),
      h("span", { class: "caption" }, t("wild")),
      ...tiles([shown.wild], "small", shown),
    );
    wild.dataset.tile = shown.wild;
  }
  const direction = $("#direction");
  direction.hidden = !shown?.exchange;
  if (shown?.exchange) {
    direction.textContent = t(`direction_${shown.exchange.direction}`);
    direction.dataset.direction = shown.exchange.direction;
  }
  const claim = $("#claim-tile");
  claim.hidden = !view?.claim;
  if (view?.claim) {
    const key = view.claim.kind === "rob" ? "rob_on" : "claim_on";
    claim.replaceChildren(h("span", {}, t(key, { name: seatName(view.claim.from), tile: tileLabel(view.claim.tile) })), ...tiles([view.claim.tile], "small", view));
    claim.dataset.tile = view.claim.tile;
  }
  const aside = $("#won-aside");
  const winners = shown && shown.game === "xuezhan" && shown.phase !== "finished" ? shown.won : [];
  aside.hidden = !winners.length;
  aside.replaceChildren(
    ...(winners.length ? [h("h3", {}, t("won_aside"))] : []),
    ...winners.map((s) => {
      const pay = (shown.payments || []).find((p) => p.kind === "win" && p.seat === s);
      return h(
        "div",
        { class: "won-row", dataset: { seat: s } },
        h("span", { class: "who" }, seatName(s)),
        pay ? h("span", { class: "fan" }, t("fan_total", { n: pay.fan })) : null,
        h("div", { class: "tiles" }, tiles(shown.shown_hands?.[s], "mini", shown)),
      );
    }),
  );
  kit.renderStatus(() => {
    if (!view || view.phase === "finished") return "";
    if (isMyTurn() && view.phase === "turn") return t("pick_discard");
    return turnStatus(isMyTurn(), actorsOf(snap), seatName);
  });
}

/** The hand sorted, the tile just drawn set apart at the right. */
function handOrder(view) {
  const hand = [...(view.hand || [])];
  if (view.drawn && hand.includes(view.drawn)) {
    hand.splice(hand.lastIndexOf(view.drawn), 1);
    return { rest: hand, drawn: view.drawn };
  }
  return { rest: hand, drawn: null };
}

function handTiles(view) {
  const { rest, drawn } = handOrder(view);
  return drawn ? [...rest, drawn] : rest;
}

function selectedTiles(view) {
  const list = handTiles(view);
  return model.selected.map((i) => list[i]).filter(Boolean);
}

/** What the hint picks, as positions in the hand (the default selection). */
function hintSelection(view) {
  const hint = model.snapshot?.hand?.hint;
  const list = handTiles(view);
  const picks = hint?.type === "discard" ? [hint.tile] : hint?.type === "exchange" ? hint.tiles : [];
  const used = [];
  for (const tile of picks) {
    const at = list.findIndex((x, i) => x === tile && !used.includes(i));
    if (at >= 0) used.push(at);
  }
  return used;
}

function onTile(index) {
  const view = currentView();
  if (!isMyTurn() || model.snapshot?.you?.trustee || model.pending) return;
  const list = handTiles(view);
  const tile = list[index];
  if (view.phase === "turn") {
    if (model.selected.length === 1 && model.selected[0] === index) {
      sendDiscard(view);
      return;
    }
    model.selected = [index];
  } else if (view.phase === "exchange") {
    if (model.selected.includes(index)) model.selected = model.selected.filter((i) => i !== index);
    else {
      const suit = tile.slice(-1);
      const same = model.selected.filter((i) => list[i].slice(-1) === suit);
      model.selected = [...same, index].slice(-3);
    }
  }
  render();
}

function sendDiscard(view) {
  const [tile] = selectedTiles(view);
  const action = (view.actions || []).find((a) => a.type === "discard" && a.tile === tile);
  if (action) act(action);
  else {
    setMessage(t("pick_discard"), "note");
    render();
  }
}

function renderMine(view) {
  const box = $("#my-hand");
  const melds = $("#my-melds");
  const seat = mySeat();
  const shown = view || finishedView();
  if (seat === null || !shown || !shown.hand) {
    box.replaceChildren();
    melds.replaceChildren();
    return;
  }
  if (view && isMyTurn() && !model.selected.length && (view.phase === "turn" || view.phase === "exchange")) model.selected = hintSelection(view);
  const { rest, drawn } = handOrder(shown);
  const all = drawn ? [...rest, drawn] : rest;
  const received = new Set(view?.phase === "void" ? view.received || [] : []);
  const els = tiles(all, "", shown).map((el, i) => {
    el.dataset.index = String(i);
    if (model.selected.includes(i)) el.classList.add("selected");
    if (drawn && i === all.length - 1) el.classList.add("drawn");
    if (received.has(all[i])) el.classList.add("received");
    if (shown.voids?.[seat] && all[i].slice(-1) === shown.voids[seat]) el.classList.add("void-suit");
    el.addEventListener("click", () => onTile(i));
    return el;
  });
  box.replaceChildren(...els);
  box.dataset.tiles = all.join(" ");
  melds.replaceChildren(...(shown.melds[seat] || []).map((m) => meldElement(m, shown)));
}

function renderDialog(view, mine) {
  const dialog = $("#dialog");
  const phase = mine ? view.phase : null;
  dialog.hidden = phase !== "exchange" && phase !== "void";
  if (dialog.hidden) return [];
  dialog.querySelector(".mj-dialog-title").textContent = t(phase === "exchange" ? "exchange_title" : "void_title");
  dialog.dataset.kind = phase;
  if (phase === "void") {
    const hint = model.snapshot?.hand?.hint;
    return (view.actions || []).map((a) =>
      button(t("void_button", { suit: t(`suit_${a.suit}`) }), `void-${a.suit}`, a, hint?.suit === a.suit ? "primary" : "secondary", { suit: a.suit }),
    );
  }
  const picked = selectedTiles(view).sort();
  const action = (view.actions || []).find((a) => [...a.tiles].sort().join() === picked.join());
  const b = button(t("exchange_button"), "exchange", action || {}, "primary");
  if (!action) b.disabled = true;
  return [b];
}

function renderActions(snap, view) {
  const buttons = [];
  const mine = Boolean(view && isMyTurn() && !snap?.you?.trustee);
  buttons.push(...renderDialog(view, mine));
  if (mine && view.phase === "claim") {
    // All four claim buttons, lit only when the rules allow them now.
    const allowed = new Set((view.actions || []).map((a) => a.type));
    for (const [type, kind] of [["win", "primary"], ["kong", "secondary"], ["pung", "secondary"], ["pass", "ghost"]]) {
      const b = button(t(type), type, { type }, kind);
      if (!allowed.has(type)) {
        b.disabled = true;
        b.classList.add("unlit");
      }
      buttons.push(b);
    }
  } else if (mine && view.phase === "turn") {
    for (const a of view.actions) {
      if (a.type === "win") buttons.push(button(t("self_win"), "win", a, "primary"));
      else if (a.type === "kong") buttons.push(button(t("kong_tile", { tile: tileLabel(a.tile) }), "kong", a, "secondary", { tile: a.tile }));
    }
    const [tile] = selectedTiles(view);
    const legal = (view.actions || []).some((a) => a.type === "discard" && a.tile === tile);
    const b = button(legal ? t("discard_tile", { tile: tileLabel(tile) }) : t("discard"), "discard", () => sendDiscard(view), "primary", { tile: legal ? tile : "" });
    if (!legal) b.disabled = true;
    buttons.push(b);
  }
  kit.renderActionBar(buttons, mine ? snap.hand.deadline : null);
}

function paymentKind(p) {
  if (p.kind === "kong") return t(`pay_kong_${p.kong}`);
  if (p.kind === "win") return t(p.self_drawn ? "pay_self_drawn" : "pay_win");
  return t(`pay_${p.kind}`);
}

function renderPayments(view) {
  const list = (view?.payments || []).filter((p) => p.paid.some(([, , amount]) => amount));
  $("#result .payments-title").textContent = t("payments");
  const items = list.map((p) =>
    h(
      "li",
      { class: "payment", dataset: { kind: p.kind, seat: p.seat } },
      h("strong", { class: "kind" }, paymentKind(p)),
      p.kind === "win" ? h("span", { class: "win-tile" }, tiles([p.tile], "mini", view)) : null,
      p.kind === "win"
        ? h(
            "span",
            { class: "fans" },
            [...p.patterns.map(([key, fan]) => `${t(`fan_${view.table}_${key}`)}${fan ? ` ${fan}` : ""}`), t("fan_total", { n: p.fan })].join(" · "),
          )
        : null,
      h(
        "span",
        { class: "paid" },
        p.paid.filter(([, , amount]) => amount).map(([payer, payee, amount]) => t("paid_by", { payer: seatName(payer), payee: seatName(payee), amount: fmt(amount) })).join("; "),
      ),
    ),
  );
  $("#payments").replaceChildren(...(items.length ? items : [h("li", { class: "muted" }, t("no_payments"))]));
}

function renderResult() {
  const result = model.result;
  const view = finishedView();
  const panel = openResultPanel(model, view);
  if (!panel) return;
  const winners = [...new Set((view?.payments || []).filter((p) => p.kind === "win").map((p) => p.seat))];
  panel.querySelector(".title").textContent = !winners.length
    ? t("nobody_won")
    : winners.includes(mySeat()) ? t("you_win") : t("winner_is", { names: winners.map(seatName).join("、") });
  const endedBy = view?.result?.ended_by || result?.details?.ended_by;
  panel.querySelector(".sub").textContent = endedBy ? t(`ended_${endedBy}`) : "";
  const rows = (result?.seats || (view?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }))).map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    return h(
      "tr",
      { class: row.index === mySeat() ? "me" : "", dataset: { seat: row.index } },
      playerCell(row, seatName),
      h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
      h("td", { class: "rake" }, row.rake ?? "–"),
      h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
    );
  });
  panel.querySelector("tbody").replaceChildren(...rows);
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  renderPayments(view);
  const hands = view?.result?.hands || [];
  const box = panel.querySelector(".final-hands");
  box.hidden = !hands.length;
  box.querySelector(".rows").replaceChildren(
    ...hands.map((hand, index) =>
      h(
        "div",
        { class: "final-row", dataset: { seat: index } },
        h("span", { class: "who" }, seatName(index)),
        h("div", { class: "tiles" }, ...(view.melds[index] || []).map((m) => meldElement(m, view)), ...tiles(hand, "mini", view)),
      ),
    ),
  );
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

kit.start();
