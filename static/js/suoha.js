// The 梭哈 (suoha) table client: render the snapshot the server sends, send intents.
//
// It never decides a rule: the buttons are the view's `choices` (过 check, 跟 call,
// 加 bet, 梭 all in, 开 open, 弃 fold, and 换牌 swap / keep when a card is dealt face
// down), every card shown is one the engine's view for this seat carries (the other
// seats' 底牌 face down until the showdown), and a refused action comes back as an
// `error` under the buttons. Messages are in docs/protocol.md; the view in docs/rules/suoha.md.

import { cardBack, cardElement } from "./cards.js";
import { $, coins as fmt, h, root, seatedTable, t, tick } from "./tablekit.js";

const model = {};

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const before = previous?.hand;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== msg.hand.view?.turn) setMessage("");
  },
});
const { act, button, mySeat, setMessage } = kit;

// ---- Reading the snapshot -----------------------------------------------

const currentView = () => model.snapshot?.hand?.view || null;

function actorsOf(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  if (hand.actors?.length) return hand.actors;
  if (hand.view?.phase === "swap") return hand.view.deciding || [];
  return typeof hand.view?.turn === "number" ? [hand.view.turn] : [];
}

function isMyTurn() {
  const seat = mySeat();
  return seat !== null && actorsOf(model.snapshot).includes(seat) && (currentView()?.choices || []).length > 0;
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

/** What the seat did last this round (from the public log). */
function lastSaid(view, index) {
  const log = view?.log || [];
  for (let i = log.length - 1; i >= 0; i -= 1) {
    const entry = log[i];
    if (entry.round !== view.round) return "";
    if (entry.seat === index) return t(`said_${entry.type}`);
  }
  return "";
}

/** A seat's five (or fewer) cards: its 底牌 first (face down unless this viewer may see it), then the face-up ones. */
function cardRow(view, index, size) {
  const down = view.down?.[index];
  const hole = down ? cardElement(down, { size }) : cardBack({ size });
  hole.classList.add("hole");
  return [hole, ...(view.up?.[index] || []).map((c) => cardElement(c, { size }))];
}

// ---- Rendering ----------------------------------------------------------

function render() {
  const snap = model.snapshot;
  const view = currentView();
  root.dataset.phase = view?.phase || "waiting";
  root.dataset.seq = snap ? String(snap.seq) : "";
  root.dataset.myTurn = isMyTurn() ? "yes" : "no";
  kit.renderTopBar();
  $("#base").textContent = view?.base ?? snap?.table?.tier?.base_stake ?? "–";
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

function renderSeats(snap, view) {
  const seats = snap?.table?.seats || [];
  const actors = actorsOf(snap);
  const els = seats.map((seat, index) => {
    const place = seatPlace(index, seats.length);
    const mine = index === mySeat();
    const dealt = view && Array.isArray(view.up?.[index]);
    const folded = view?.status?.[index] === "folded";
    const badges = [];
    if (view && view.leader === index && view.phase === "betting") badges.push(h("span", { class: "dz-badge leads" }, t("leads")));
    if (seat.is_bot) badges.push(h("span", { class: "dz-badge bot" }, t("bot")));
    if (seat.trustee) badges.push(h("span", { class: "dz-badge trustee" }, t("trustee")));
    if (seat.name && seat.connected === false && !seat.is_bot) badges.push(h("span", { class: "dz-badge offline" }, t("offline")));
    if (seat.ready && (!snap?.hand || view?.phase === "finished")) badges.push(h("span", { class: "dz-badge ready" }, t("ready")));
    const turn = actors.includes(index);
    const category = view?.result?.categories?.[index];
    return h(
      "section",
      {
        class: `sh-seat${mine ? " me" : ""}${turn ? " turn" : ""}${folded ? " folded" : ""}`,
        style: place.style,
        dataset: { seat: index, pos: place.k },
        "aria-label": seat.name || t("empty_seat"),
      },
      h(
        "div",
        { class: "head" },
        h("span", { class: "name" }, seat.name || t("empty_seat"), mine ? h("span", { class: "me-tag" }, ` (${t("you")})`) : null),
        folded ? h("span", { class: "sh-state folded" }, t("state_folded")) : null,
      ),
      badges.length ? h("div", { class: "badges" }, badges) : null,
      dealt
        ? h(
            "div",
            { class: "money" },
            h("span", { class: "bet", dataset: { bet: view.bets?.[index] ?? "" } }, t("bet_in", { amount: fmt(view.bets?.[index]) })),
            h("span", { class: "left" }, t("coins_left", { amount: fmt(view.coins?.[index]) })),
          )
        : null,
      dealt ? h("div", { class: "cards", dataset: { seat: index } }, cardRow(view, index, "tiny")) : null,
      dealt && view.phase === "betting" && view.round_bets?.[index]
        ? h("div", { class: "round-bet", dataset: { amount: view.round_bets[index] } }, t("round_in", { amount: fmt(view.round_bets[index]) }))
        : null,
      category ? h("div", { class: "category" }, t(`cat_${category}`)) : null,
      view && view.phase !== "finished" && lastSaid(view, index) ? h("div", { class: "said" }, lastSaid(view, index)) : null,
      turn && snap.hand?.deadline ? h("div", { class: "clock", dataset: { deadline: snap.hand.deadline } }) : null,
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
  $("#round").textContent = view && view.phase !== "finished" ? t("round", { round: view.round }) : "";
  const limits = [];
  if (view && view.phase !== "finished") {
    if (view.round_cap) limits.push(t("round_cap", { amount: fmt(view.round_cap) }));
    limits.push(t("suo_total", { amount: fmt(view.suo ?? view.suo_total) }));
  }
  $("#limits").textContent = limits.join(" · ");
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

function renderActions(snap, view) {
  const buttons = [];
  const choices = snap?.you?.trustee || !view || !isMyTurn() ? [] : view.choices || [];
  for (const choice of choices) {
    if (choice.type === "check") buttons.push(button(t("check"), "check", () => act(choice), "secondary"));
    else if (choice.type === "call") {
      const amount = view.to_call;
      buttons.push(button(t("call_amount", { amount }), "call", () => act(choice), "primary", { amount }));
    } else if (choice.type === "raise") {
      buttons.push(button(t("raise_to", { amount: choice.amount }), "raise", () => act(choice), "primary", { amount: choice.amount }));
    } else if (choice.type === "suo") buttons.push(button(t("suo"), "suo", () => act(choice), "secondary"));
    else if (choice.type === "open") buttons.push(button(t("open"), "open", () => act(choice), "secondary"));
    else if (choice.type === "swap") buttons.push(button(t("swap"), "swap", () => act(choice), "primary"));
    else if (choice.type === "keep") buttons.push(button(t("keep"), "keep", () => act(choice), "secondary"));
    else if (choice.type === "fold") buttons.push(button(t("fold"), "fold", () => act(choice), "ghost"));
  }
  if (choices.length && snap.hand.deadline) buttons.push(h("span", { class: "clock mine", dataset: { deadline: snap.hand.deadline } }));
  const ready = kit.readyButton();
  if (ready) buttons.push(ready);
  $("#actions").replaceChildren(...buttons);
  kit.renderTrusteeAndMessage();
}

/** The viewer's cards, large: the 底牌 (only this seat sees it) and the face-up ones; a card to swap in. */
function renderMine(liveView) {
  const box = $("#my-hand");
  const dealtBox = $("#my-dealt");
  const seat = mySeat();
  const view = liveView || finishedView();
  if (seat === null || !view || !Array.isArray(view.up?.[seat])) {
    box.replaceChildren();
    dealtBox.hidden = true;
    return;
  }
  box.replaceChildren(...cardRow(view, seat, ""));
  box.dataset.hole = view.down?.[seat] || "";
  const dealt = view.dealt;
  dealtBox.hidden = !dealt;
  dealtBox.dataset.card = dealt || "";
  dealtBox.replaceChildren(
    ...(dealt ? [h("span", { class: "caption" }, t("new_card")), cardElement(dealt), h("span", { class: "caption" }, t("swap_note"))] : []),
  );
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
  const winners = finished ? [finished.winner] : (result?.seats || []).filter((r) => r.won).map((r) => r.index);
  const names = winners.map(seatName).join("、");
  panel.querySelector(".title").textContent = winners.includes(mySeat()) ? t("you_win") : t("winner_is", { names });
  const endedBy = finished?.ended_by || result?.details?.ended_by;
  const pot = finished?.pot ?? result?.details?.pot;
  panel.querySelector(".sub").textContent = [endedBy ? t(`ended_${endedBy}`) : "", typeof pot === "number" ? `${t("pot")} ${fmt(pot)}` : ""]
    .filter(Boolean)
    .join(" · ");
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
  // The reveal: every seat whose 底牌 this viewer's view carries (the showdown's, and its own).
  const shown = (view?.down || []).map((card, index) => ({ card, index })).filter((x) => x.card);
  const box = panel.querySelector(".final-hands");
  box.hidden = !shown.length;
  box.querySelector(".rows").replaceChildren(
    ...shown.map(({ index }) =>
      h(
        "div",
        { class: "final-row", dataset: { seat: index } },
        h("span", { class: "who" }, seatName(index)),
        h("div", { class: "cards" }, cardRow(view, index, "tiny")),
        h("span", { class: "category" }, view.result?.categories?.[index] ? t(`cat_${view.result.categories[index]}`) : ""),
      ),
    ),
  );
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

kit.start();
