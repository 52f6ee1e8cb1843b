// The 扯旋 (chexuan) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (簸簸 amounts, then 休 check,
// 跟 call, 大 raise, 敲 all in, 丢 fold, then the three splits) with the amounts the engine
// lists; every card shown is one the engine's view for this seat carries (face down
// otherwise); a refused action comes back as an `error` shown under the buttons. Messages
// are in docs/protocol.md; the view's keys in docs/rules/chexuan.md.

import { cardBack, cardElement } from "./cards.js";
import { $, coins as fmt, h, root, seatedTable, t, tick } from "./tablekit.js";

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
const { act, button, mySeat, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = () => model.snapshot?.hand?.view || null;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  return hand.actors || [];
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
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
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

/** Place seats around an oval: the viewer at the bottom, then in the order of play. */
function seatPlace(index, count) {
  const k = (index - (mySeat() ?? 0) + count) % count;
  const angle = Math.PI / 2 - (2 * Math.PI * k) / count;
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 + 38 * Math.sin(angle);
  const left = `clamp(var(--seat-half-w), ${x.toFixed(1)}%, calc(100% - var(--seat-half-w)))`;
  const top = `clamp(var(--seat-half-h), ${y.toFixed(1)}%, calc(100% - var(--seat-half-h)))`;
  return { k, style: `left:${left};top:${top}` };
}

function cardRow(cards, size = "tiny") {
  return h("div", { class: "cards" }, (cards || []).map((c) => (c ? cardElement(c, { size }) : cardBack({ size }))));
}

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const place = seatPlace(index, seats.length);
    const mine = index === mySeat();
    const status = view?.status?.[index];
    const state = status === "folded" || status === "allin" ? status : "";
    const badges = [];
    if (view && view.dealer === index) badges.push(h("span", { class: "dz-badge dealer" }, t("dealer")));
    if (seat.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
    if (seat.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
    if (seat.name && seat.connected === false && !seat.is_bot) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
    if (seat.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
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
    return h(
      "section",
      {
        class: `cx-seat${mine ? " me" : ""}${turn ? " turn" : ""}${state ? ` ${state}` : ""}`,
        style: place.style,
        dataset: { seat: index, pos: place.k, state },
        "aria-label": seat.name || t("empty_seat"),
      },
      h(
        "div",
        { class: "head" },
        h("span", { class: "name" }, seat.name || t("empty_seat"), mine ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
        state ? h("span", { class: `cx-state ${state}` }, t(`state_${state}`)) : null,
      ),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      view && seat.name
        ? h(
            "div",
            { class: "money" },
            h("span", { class: "limit", dataset: { limit: limit ?? "" } }, limitText),
            view.phase !== "bobo" ? h("span", { class: "bet", dataset: { bet: view.bets?.[index] ?? "" } }, t("bet_in", { amount: fmt(view.bets?.[index]) })) : null,
          )
        : null,
      cards,
      special ? h("div", { class: "special" }, t(`pair_${special}`)) : null,
      view?.phase === "betting" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      view?.phase === "split" && view.split_done?.[index] ? h("div", { class: "said" }, t("split_done")) : null,
      actors.includes(index) && snap.hand?.deadline ? h("div", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
    );
  });
  $("#seats").replaceChildren(...els);
}

function renderCenter(snap, view) {
  const pot = $("#pot");
  const shown = view || finishedView();
  pot.textContent = fmt(shown?.pot);
  pot.dataset.value = shown ? String(shown.pot) : "";
  $("#phase").textContent = view ? t(`phase_${view.phase}`) : t("phase_waiting");
  $("#round").textContent = view?.phase === "betting" ? t("round", { round: view.round }) : "";
  let status = "";
  if (!snap?.hand) status = t("waiting_players");
  else if (view && view.phase !== "finished") {
    const actors = actorsOf(snap);
    if (isMyTurn()) status = t("your_turn");
    else if (view.phase === "betting" && actors.length) status = t("waiting_for", { name: actors.map(seatName).join(", ") });
    else if (view.phase === "split") status = t("split_waiting");
  }
  if (snap && mySeat() === null) status = t("spectating");
  $("#status").textContent = status;
}

function renderActions(snap, view) {
  const buttons = [];
  const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
  choices.forEach((choice, index) => {
    const kind = choice.type;
    if (kind === "bobo") buttons.push(button(t("set_limit", { amount: fmt(choice.amount) }), "bobo", choice, "primary", { amount: choice.amount }));
    else if (kind === "check") buttons.push(button(t("check"), "check", choice, "secondary"));
    else if (kind === "call") buttons.push(button(t("call_amount", { amount: view.call_cost }), "call", choice, "primary", { amount: view.call_cost }));
    else if (kind === "raise") buttons.push(button(t("raise_amount", { amount: choice.amount }), "raise", choice, "primary", { amount: choice.amount }));
    else if (kind === "allin") buttons.push(button(t("allin_amount", { amount: view.left }), "allin", choice, "secondary", { amount: view.left }));
    else if (kind === "fold") buttons.push(button(t("fold"), "fold", choice, "ghost"));
    else if (kind === "split") {
      const [head, tail] = view.split_options?.[index] || [];
      const label = t("split_choice", { head: pairName(head), tail: pairName(tail) });
      buttons.push(button(label, "split", choice, "primary split-choice", { index, head: choice.head.join(" ") }));
    }
  });
  if (isMyTurn() && choices.length && snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  $("#actions").replaceChildren(...buttons);
  kit.renderTrusteeAndMessage();
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
  const panel = $("#result");
  const result = model.result;
  const view = finishedView();
  const finished = view?.result || null;
  const handId = result?.hand ?? model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id;
  const show = Boolean(result || finished) && model.resultDismissed !== handId;
  panel.hidden = !show;
  if (!show) return;
  const endedBy = finished?.ended_by || result?.details?.ended_by;
  const winners = finished?.winners || (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  let title = t("no_result");
  if (endedBy !== "void" && winners.length) {
    title = winners.includes(mySeat()) && winners.length === 1 ? t("you_win") : winners.length > 1 ? t("winners_split", { names }) : t("winner_is", { names });
  }
  panel.querySelector(".title").textContent = title;
  const pot = finished?.pot ?? result?.details?.pot;
  panel.querySelector(".sub").textContent = [endedBy ? t(`ended_${endedBy}`) : "", typeof pot === "number" ? `${t("pot")} ${fmt(pot)}` : ""].filter(Boolean).join(" · ");
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
  // Only the splits this viewer's view carries: the hands shown down.
  const shown = (view?.splits || []).map((split, index) => ({ split, index })).filter((x) => Array.isArray(x.split));
  const box = panel.querySelector(".final-hands");
  box.hidden = !shown.length;
  box.querySelector(".rows").replaceChildren(
    ...shown.map(({ split, index }) => {
      const special = view.result?.specials?.[index];
      return h(
        "div",
        { class: "final-row", dataset: { seat: index } },
        h("span", { class: "who" }, seatName(index)),
        ...split.map((pair, k) =>
          h("div", { class: "part" }, h("span", { class: "caption" }, t(k ? "tail" : "head")), cardRow(pair), h("span", { class: "pair-name" }, pairName(view.split_names?.[index]?.[k]))),
        ),
        special ? h("span", { class: "special" }, t(`pair_${special}`)) : null,
      );
    }),
  );
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

// ---- Wiring -------------------------------------------------------------

kit.start();
