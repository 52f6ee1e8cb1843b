// The 十三水 (Thirteen Cards) table client: arrange 13 cards into three piles, then watch 比牌.
//
// The server decides every rule: it refuses an arrangement that is not allowed (倒水) and scores
// 比牌. The page only helps: the quick picks are the view's `choices` (the server's suggestions),
// and `pileValue` below values a pile the same way the rules do (games/shisanshui/piles.py) so the
// page can name each pile and explain 倒水 before the player confirms. The hand ends as soon as the
// last seat confirms; a page that watched it being arranged then reveals 比牌 pile by pile before
// the result panel (a page opened or reloaded later shows it all at once). Messages:
// docs/protocol.md; the view's keys: docs/rules/shisanshui.md.

import { cardBack, cardElement } from "./cards.js";
import { playerCell } from "./results.js";
import { $, coins, h, root, seatedTable, t, tick } from "./tablekit.js";

const PILES = ["front", "middle", "back"];
const SIZES = { front: 3, middle: 5, back: 5 };
const KINDS = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind", "straight_flush"];
const RANKS = "23456789TJQKA";
const REVEAL_STEPS = 4; // front, middle, back, then the totals with 打枪 and 全垒打
const STEP_MS = 1500;

const model = { draft: null, selected: new Set(), draftHand: null, reveal: null };

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    if (!previous?.hand || !msg.hand || previous.hand.id !== msg.hand.id) kit.setMessage("");
    // The hand this page watched being arranged is over: reveal it from now.
    const was = previous?.hand;
    const finished = msg.hand?.id === was?.id ? msg.hand?.view?.phase === "finished" : msg.last_hand?.id === was?.id;
    if (was?.view?.phase === "arranging" && finished) model.reveal = { hand: was.id, start: Date.now() };
  },
});
const { button, mySeat } = kit;

// ---- Piles: what the rules say about them, for the labels and the 倒水 note ----------------

const rankOf = (card) => RANKS.indexOf(card[0]) + 2;

/** Value a 3- or 5-card pile as [kind, ranks...]; compare two with `comparePiles`. */
function pileValue(cards) {
  const ranks = cards.map(rankOf).sort((a, b) => b - a);
  const counts = new Map();
  for (const r of ranks) counts.set(r, (counts.get(r) || 0) + 1);
  const order = [...counts.keys()].sort((a, b) => counts.get(b) - counts.get(a) || b - a);
  const grouped = order.flatMap((r) => Array(counts.get(r)).fill(r));
  const shape = order.map((r) => counts.get(r)).join("");
  if (cards.length === 3) return [shape[0] === "3" ? 3 : shape[0] === "2" ? 1 : 0, ...grouped];
  const flush = new Set(cards.map((c) => c[1])).size === 1;
  let straight = null;
  if (counts.size === 5 && ranks[0] - ranks[4] === 4) straight = ranks;
  if (ranks.join() === "14,5,4,3,2") straight = [5, 4, 3, 2, 1];
  if (straight) return [flush ? 8 : 4, ...straight];
  if (flush) return [5, ...ranks];
  const kind = { 41: 7, 32: 6, 311: 3, 221: 2, 2111: 1 }[shape] ?? 0;
  return [kind, ...grouped];
}

function comparePiles(a, b) {
  for (let i = 0; i < 6; i += 1) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x - y;
  }
  return 0;
}

const kindLabel = (cards) => t(`kind_${KINDS[pileValue(cards)[0]]}`);

/** Which pile is too strong for its place (倒水), or "" when the full piles are allowed. */
function daoShui(draft) {
  if (!PILES.every((p) => draft[p].length === SIZES[p])) return "";
  const [f, m, b] = PILES.map((p) => pileValue(draft[p]));
  if (comparePiles(f, m) > 0) return "front";
  if (comparePiles(m, b) > 0) return "middle";
  return "";
}

// ---- Reading the snapshot -----------------------------------------------

function liveView() {
  return model.snapshot?.hand?.view || null;
}

/** The view to draw: the live hand's, else the last hand's final view (between hands). */
function shownView() {
  return liveView() || model.snapshot?.last_hand?.view || null;
}

function arranging(view) {
  const seat = mySeat();
  return Boolean(view && view.phase === "arranging" && seat !== null && !view.confirmed[seat]);
}

function seatName(index) {
  const row = model.result?.seats?.find((r) => r.index === index);
  return model.snapshot?.table?.seats?.[index]?.name || row?.name || t("empty_seat");
}

function shownHandId() {
  return model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id ?? null;
}

/** How far the reveal has gone: 0 front … 3 totals (all of it unless this page is revealing it now). */
function revealStep(view) {
  if (!view?.result) return -1;
  const reveal = model.reveal;
  if (!reveal || reveal.hand !== shownHandId()) return REVEAL_STEPS - 1;
  return Math.min(REVEAL_STEPS - 1, Math.floor((Date.now() - reveal.start) / STEP_MS));
}

/** Whether 比牌 is being revealed now (the result panel waits for it). */
function revealing() {
  const reveal = model.reveal;
  return Boolean(reveal && reveal.hand === shownHandId() && Date.now() - reveal.start < REVEAL_STEPS * STEP_MS);
}

/** The 水 `seat` won from `other` on each pile and in all (after 打枪/全垒打), or null. */
function pairFor(view, seat, other) {
  const pair = (view.result?.pairs || []).find((p) => p.seats.includes(seat) && p.seats.includes(other));
  if (!pair) return null;
  const sign = pair.seats[0] === seat ? 1 : -1;
  return {
    piles: pair.piles ? pair.piles.map((w) => w * sign) : null,
    water: pair.water * sign,
    shot: pair.shot,
    special: pair.special,
  };
}

// ---- The draft: the piles being arranged, kept across a reload -----------

function draftKey(handId) {
  return `ss-draft-${handId}`;
}

function ensureDraft(view) {
  const handId = model.snapshot?.hand?.id;
  if (model.draftHand === handId && model.draft) return;
  model.draftHand = handId;
  model.selected = new Set();
  model.draft = { front: [], middle: [], back: [] };
  try {
    const saved = JSON.parse(window.sessionStorage.getItem(draftKey(handId)) || "null");
    const mine = new Set(view.hand || []);
    if (saved && PILES.every((p) => Array.isArray(saved[p]) && saved[p].every((c) => mine.has(c)))) model.draft = saved;
  } catch {
    // No storage (private mode): a reload starts the arrangement again.
  }
}

function saveDraft() {
  try {
    window.sessionStorage.setItem(draftKey(model.draftHand), JSON.stringify(model.draft));
  } catch {
    // As above.
  }
}

function placed() {
  return new Set(PILES.flatMap((p) => model.draft[p]));
}

function toggleCard(card) {
  if (model.selected.has(card)) model.selected.delete(card);
  else model.selected.add(card);
  render();
}

function putInto(pile) {
  const chosen = [...model.selected];
  if (!chosen.length) return;
  if (model.draft[pile].length + chosen.length > SIZES[pile]) {
    kit.setMessage(t("pile_full", { size: SIZES[pile] }), "note");
  } else {
    model.draft[pile] = [...model.draft[pile], ...chosen];
    model.selected = new Set();
    kit.setMessage("");
    saveDraft();
  }
  render();
}

function takeBack(pile, card) {
  model.draft[pile] = model.draft[pile].filter((c) => c !== card);
  saveDraft();
  render();
}

function usePick(choice) {
  model.draft = { front: [...choice.front], middle: [...choice.middle], back: [...choice.back] };
  model.selected = new Set();
  kit.setMessage("");
  saveDraft();
  render();
}

function clearDraft() {
  model.draft = { front: [], middle: [], back: [] };
  model.selected = new Set();
  saveDraft();
  render();
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = shownView();
  const live = liveView();
  root.dataset.phase = live?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = arranging(live) ? "yes" : "no";
  root.dataset.revealing = revealing() ? "yes" : "no";
  kit.renderTopBar();
  renderSeats(snap, view);
  renderCenter(snap, live, view);
  renderMine(view);
  renderResult(live);
  renderActions(snap, live);
  tick();
}

function otherSeats(snap) {
  const seats = snap?.table?.seats || [];
  const me = mySeat();
  const order = [];
  for (let k = 1; k <= seats.length; k += 1) {
    const index = ((me ?? -1) + k) % seats.length;
    if (index !== me) order.push(index);
  }
  return order;
}

function waterText(w) {
  return `${w > 0 ? "+" : ""}${w}`;
}

function waterClass(w) {
  return w > 0 ? "won" : w < 0 ? "lost" : "";
}

/** A seat's piles as the reveal has shown them so far (face down before their turn). */
function pileRows(view, index, step, versus) {
  const arranged = view.arrangements?.[index];
  if (!arranged) return null;
  const pair = versus !== null && versus !== index ? pairFor(view, versus, index) : null;
  if (arranged.special) {
    return h(
      "div",
      { class: "ss-rows" },
      h("div", { class: "ss-row" }, h("span", { class: "ss-special" }, step >= REVEAL_STEPS - 1 ? t(`special_${arranged.special}`) : "")),
      h("div", { class: "ss-row" }, h("div", { class: "cards" }, (step >= REVEAL_STEPS - 1 ? [...arranged.front, ...arranged.middle, ...arranged.back] : []).map((c) => cardElement(c, { size: "tiny" })))),
    );
  }
  return h(
    "div",
    { class: "ss-rows" },
    PILES.map((pile, p) => {
      const shown = step >= p;
      const w = pair?.piles ? -pair.piles[p] : null;
      return h(
        "div",
        { class: "ss-row", dataset: { pile, shown: shown ? "yes" : "no" } },
        h("span", { class: "label" }, t(`${pile}_short`)),
        h("div", { class: "cards" }, arranged[pile].map((c) => (shown ? cardElement(c, { size: "tiny" }) : cardBack({ size: "tiny" })))),
        shown ? h("span", { class: "kind" }, kindLabel(arranged[pile])) : null,
        shown && w !== null ? h("span", { class: `pile-water ${waterClass(w)}`, dataset: { water: w } }, waterText(w)) : null,
      );
    }),
  );
}

function seatBadges(seat, snap, view) {
  const badges = [];
  if (seat?.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
  if (seat?.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
  if (seat && seat.connected === false && !seat.is_bot && seat.name) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
  if (seat?.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
  return badges;
}

function renderSeats(snap, view) {
  const box = $("#seats");
  const me = mySeat();
  const step = revealStep(view);
  box.replaceChildren(
    ...otherSeats(snap).map((index) => {
      const seat = snap.table.seats[index];
      const name = seat?.name || t("empty_seat");
      const acting = view?.phase === "arranging" && !view.confirmed[index];
      const tile = h(
        "section",
        { class: `ss-seat${acting ? " acting" : ""}`, dataset: { seat: index }, "aria-label": name },
        h("div", { class: "ss-seat-head" }, h("span", { class: "name" }, name), h("span", { class: "badges" }, seatBadges(seat, snap, view))),
      );
      if (!view) return tile;
      const head = tile.firstChild;
      if (view.phase === "arranging") {
        head.append(h("span", { class: "said" }, view.confirmed[index] ? t("state_confirmed") : t("state_arranging")));
        tile.append(h("div", { class: "cards ss-backs" }, cardBack({ size: "tiny" }), cardBack({ size: "tiny" }), cardBack({ size: "tiny" })));
      } else {
        const total = view.result.water[index];
        if (step >= REVEAL_STEPS - 1) head.append(h("span", { class: `water ${waterClass(total)}`, dataset: { water: total } }, t("water", { water: waterText(total) })));
        tile.append(pileRows(view, index, step, me));
      }
      return tile;
    }),
  );
}

function renderCenter(snap, view, shown) {
  $("#phase").textContent = revealing() ? t("phase_comparing") : view ? t(`phase_${view.phase}`) : t("phase_waiting");
  const countdown = $("#countdown");
  if (view?.phase === "arranging" && snap.hand.deadline) {
    countdown.replaceChildren(h("span", { class: "clock", dataset: { deadline: snap.hand.deadline } }));
  } else {
    countdown.replaceChildren();
  }
  let status = "";
  const seat = mySeat();
  if (!snap?.hand) status = t("waiting_players");
  else if (view?.phase === "arranging") {
    if (arranging(view)) status = t("tap_cards");
    else if (seat !== null) status = t("arranged_wait");
    else status = t("arranging_note");
  }
  if (snap && seat === null) status = t("spectating");
  $("#status").textContent = revealing() ? "" : status;
  renderPairs(shown);
}

function renderPairs(view) {
  const list = $("#pairs");
  const step = revealStep(view);
  if (!view?.result || step < 0) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...view.result.pairs.map((pair) => {
      const [a, b] = pair.seats;
      const parts = [h("strong", {}, t("vs", { a: seatName(a), b: seatName(b) })), " "];
      if (pair.piles) {
        pair.piles.forEach((w, p) => {
          if (step >= p) parts.push(`${t(`${PILES[p]}_short`)} ${waterText(w)} · `);
        });
      } else if (pair.special && step >= REVEAL_STEPS - 1) {
        parts.push(`${t(`special_${pair.special}`)} · `);
      }
      if (step >= REVEAL_STEPS - 1) {
        parts.push(h("strong", { class: waterClass(pair.water) }, `${t("total_water")} ${waterText(pair.water)}`));
        if (pair.shot !== null) parts.push(h("span", { class: "badge shot" }, t("shot")));
        if (view.result.home_run !== null && pair.seats.includes(view.result.home_run)) parts.push(h("span", { class: "badge home-run" }, t("home_run")));
      }
      return h("li", { dataset: { a, b, water: pair.water } }, parts);
    }),
  );
}

// While a player arranges, the others' confirmations keep sending states: their own hand, piles,
// picks and buttons are drawn again only when something these show has changed, so that a redraw
// never swallows a tap in progress.
const drawn = { mine: null, actions: null };

function unchanged(slot, ...inputs) {
  const key = JSON.stringify(inputs);
  if (drawn[slot] === key) return true;
  drawn[slot] = key;
  return false;
}

function renderMine(view) {
  const seat = mySeat();
  const pilesBox = $("#piles");
  const handBox = $("#my-hand");
  const picks = $("#picks");
  const dao = $("#dao-shui");
  const drafting = view && seat !== null && arranging(view) && !model.snapshot?.you?.trustee;
  if (drafting) ensureDraft(view);
  if (!drafting) drawn.mine = null;
  else if (unchanged("mine", view.hand, view.choices, view.special, model.draft, [...model.selected])) return;
  picks.replaceChildren();
  dao.hidden = true;
  if (!view || seat === null) {
    pilesBox.replaceChildren();
    handBox.replaceChildren();
    return;
  }
  if (drafting) {
    const used = placed();
    const bad = daoShui(model.draft);
    pilesBox.replaceChildren(
      ...PILES.map((pile) => {
        const cards = model.draft[pile];
        return h(
          "div",
          {
            class: `ss-pile${cards.length === SIZES[pile] ? " full" : ""}`,
            role: "button",
            tabindex: "0",
            title: t("put_here"),
            dataset: { pile, count: cards.length, dao: bad === pile ? "yes" : "no" },
            onclick: () => putInto(pile),
          },
          h("span", { class: "label", title: t(pile) }, t(`${pile}_short`)),
          h(
            "div",
            { class: "cards" },
            cards.map((c) => {
              const el = cardElement(c);
              el.addEventListener("click", (event) => {
                event.stopPropagation();
                takeBack(pile, c);
              });
              return el;
            }),
          ),
          cards.length === SIZES[pile] ? h("span", { class: "kind" }, kindLabel(cards)) : null,
        );
      }),
    );
    handBox.replaceChildren(
      ...(view.hand || [])
        .filter((c) => !used.has(c))
        .map((c) => {
          const el = cardElement(c);
          if (model.selected.has(c)) el.classList.add("selected");
          el.addEventListener("click", () => toggleCard(c));
          return el;
        }),
    );
    (view.choices || []).forEach((choice, i) => {
      if (choice.type === "special") {
        picks.append(button(t("declare", { name: t(`special_${view.special.name}`), water: view.special.water }), "special", choice, "secondary"));
      } else {
        picks.append(button(t("pick", { n: i + 1 }), "pick", () => usePick(choice), "ghost", { pick: i }));
      }
    });
    if (bad) {
      dao.hidden = false;
      dao.textContent = t(`dao_shui_${bad}`);
    }
    return;
  }
  // Confirmed, or 比牌: my piles as they stand (revealed pile by pile with the others').
  handBox.replaceChildren();
  const mine = view.arrangements?.[seat] || view.mine;
  if (!mine) {
    pilesBox.replaceChildren();
    return;
  }
  const step = view.result ? revealStep(view) : REVEAL_STEPS - 1;
  if (mine.special) {
    pilesBox.replaceChildren(h("div", { class: "ss-pile full" }, h("span", { class: "ss-special" }, t(`special_${mine.special}`))));
    return;
  }
  pilesBox.replaceChildren(
    ...PILES.map((pile, p) => {
      let total = null;
      if (view.result && step >= p) {
        total = 0;
        for (const other of otherSeats(model.snapshot)) total += pairFor(view, seat, other)?.piles?.[p] ?? 0;
      }
      return h(
        "div",
        { class: "ss-pile full", dataset: { pile, count: mine[pile].length } },
        h("span", { class: "label", title: t(pile) }, t(`${pile}_short`)),
        h("div", { class: "cards" }, mine[pile].map((c) => cardElement(c))),
        h("span", { class: "kind" }, kindLabel(mine[pile])),
        total !== null ? h("span", { class: `pile-water ${waterClass(total)}`, dataset: { water: total } }, waterText(total)) : null,
      );
    }),
  );
}

function renderActions(snap, view) {
  const bar = $("#actions");
  const buttons = [];
  const ready = revealing() ? null : kit.readyButton();
  if (!arranging(view) || snap?.you?.trustee || ready) drawn.actions = null;
  else if (unchanged("actions", model.draft, model.pending, snap.hand.deadline)) {
    kit.renderTrusteeAndMessage();
    return;
  }
  if (arranging(view) && !snap?.you?.trustee) {
    const full = PILES.every((p) => model.draft[p].length === SIZES[p]);
    const allowed = full && !daoShui(model.draft);
    const confirm = button(t("confirm"), "confirm", () => kit.act({ type: "arrange", ...model.draft }), "primary");
    confirm.disabled = model.pending || !allowed;
    buttons.push(confirm, button(t("clear"), "clear", clearDraft, "ghost"));
    if (snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  }
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
  const show = (result || view?.phase === "finished") && model.resultDismissed !== handId && !revealing();
  panel.hidden = !show;
  if (!show) return;
  const seat = mySeat();
  const water = result?.details?.water || view?.result?.water || [];
  const rows = result?.seats || (view?.result?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }));
  const mine = rows.find((r) => r.index === seat);
  const winners = rows.filter((r) => r.won || (r.delta ?? 0) > 0).map((r) => r.name || seatName(r.index));
  const winnersText = winners.length ? t(winners.length > 1 ? "winners_are" : "winner_is", { names: winners.join(", ") }) : "";
  let title;
  if (mine && mine.delta > 0) title = t("you_win", { amount: coins(mine.delta) });
  else if (mine && mine.delta < 0) title = t("you_lose", { amount: coins(-mine.delta) });
  else if (mine) title = t("you_even");
  else title = winnersText || t("phase_finished");
  panel.querySelector(".title").textContent = title;
  panel.dataset.outcome = mine ? (mine.delta > 0 ? "won" : mine.delta < 0 ? "lost" : "even") : "";
  panel.querySelector(".sub").textContent = winnersText;
  panel.querySelector("tbody").replaceChildren(
    ...rows.map((row) => {
      const delta = row.delta ?? 0;
      const w = water[row.index] ?? 0;
      return h(
        "tr",
        { class: row.index === seat ? "me" : "", dataset: { seat: row.index } },
        playerCell(row, seatName),
        h("td", { class: `water ${waterClass(w)}`, dataset: { water: w } }, waterText(w)),
        h("td", { class: `delta ${waterClass(delta)}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
        h("td", { class: "rake" }, row.rake ?? "–"),
        h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
      );
    }),
  );
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

// The reveal moves on with the clock, not with messages: redraw while it runs, and once after.
window.setInterval(() => {
  if (model.reveal && Date.now() - model.reveal.start < REVEAL_STEPS * STEP_MS + 1000) render();
}, 400);

kit.start();
