// The 斗地主 table client: render the snapshot the server sends, send intents.
//
// It never decides a rule. Buttons appear only when the view's `choices`,
// `can_play` and `can_pass` allow them, a refused action comes back as an
// `error` message shown next to the hand, and every screen is drawn from the
// last `state` (plus the last `result`). Messages are described in docs/protocol.md.

import { cardBack, cardElement, sortHighToLow } from "./cards.js";
import { playerCell } from "./results.js";
import { soundBoard } from "./sound.js";
import { $, config, h, root, seatedTable, t, tick } from "./tablekit.js";

const JOKER_NAMES = { DJ: t("big_joker"), XJ: t("small_joker") };
// The sound switch's icons: a speaker with waves, or crossed out.
const SPEAKER = '<path d="M3 9h4l5-4v14l-5-4H3z" fill="currentColor"/>';
const SPEAKER_ON = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">${SPEAKER}<path d="M15.5 8.5a5 5 0 0 1 0 7M18 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
const SPEAKER_OFF = `<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">${SPEAKER}<path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>`;
// A seat's name is cut after this many characters (the whole name is its title): fewer on a phone.
const NAME_CHARS = window.matchMedia("(max-width: 700px)").matches ? 6 : 12;

const model = {
  selected: new Set(),
  hintIndex: 0, // the next 提示 to select, in the view's `hints`
  breakdownOpen: false,
};

const sound = soundBoard(config.playerKey);

const kit = seatedTable({
  model,
  render,
  onState(msg, previous) {
    const view = msg.hand?.view;
    const hand = new Set(view?.hand || []);
    for (const card of [...model.selected]) if (!hand.has(card)) model.selected.delete(card);
    // A new turn or hand makes the previous note stale.
    const before = previous?.hand;
    if (!before || !msg.hand || before.id !== msg.hand.id || before.view?.turn !== view?.turn) {
      setMessage("");
      model.hintIndex = 0; // 提示 starts again from the cheapest play
    }
    if (previous) announce(before, msg.hand, msg.you?.seat);
    // Only a hand seen while it was played is celebrated (not one whose result a reload shows again).
    if (view && view.phase !== "finished") model.watchedHand = msg.hand.id;
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

/** 提示: select the next play the server suggests, cheapest first, round again; the client suggests nothing itself. */
function showHint() {
  const hand = model.snapshot?.hand;
  const view = currentView();
  const hints = Array.isArray(view?.hints) && view.hints.length ? view.hints : hand && "hint" in hand ? [hand.hint] : undefined;
  const hint = hints ? hints[model.hintIndex % hints.length] : undefined;
  model.hintIndex += 1;
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

/** A name cut to NAME_CHARS characters with an ellipsis, so that a seat always shows a readable start. */
function shortName(name) {
  const chars = [...name];
  return chars.length > NAME_CHARS ? `${chars.slice(0, NAME_CHARS - 1).join("")}…` : name;
}

/** The view the top bar and the result describe: the live hand's, else the table's last hand's. */
function shownView() {
  return currentView() || model.snapshot?.last_hand?.view || null;
}

// ---- Motion and sound -----------------------------------------------------

/** Play the sound and motion of what changed between two snapshots of a hand (a play, a pass, a turn). */
function announce(before, after, seat) {
  if (!after?.view || before?.id !== after.id) return;
  const was = before.view;
  const now = after.view;
  const play = now.last_play;
  const wasPlay = was?.last_play;
  if (play && (!wasPlay || wasPlay.seat !== play.seat || wasPlay.cards.join() !== play.cards.join())) {
    model.freshPlay = play.cards.join();
    if (play.kind === "rocket" || play.kind === "bomb") {
      showEffect(play.kind, t(`factor_${play.kind}`));
      sound.play(play.kind);
    } else {
      sound.play("play");
    }
  } else if ((now.trick || []).some((entry, i) => entry === "pass" && was?.trick?.[i] !== "pass")) {
    sound.play("pass");
  }
  const mine = typeof seat === "number" && now.phase !== "finished" && (after.actors || []).includes(seat);
  const mineBefore = typeof seat === "number" && (before.actors || []).includes(seat);
  if (mine && !mineBefore) sound.play("turn");
}

/** Flash a word over the felt (炸弹, 火箭, 春天) with its animation; it removes itself when done. */
function showEffect(kind, text) {
  const box = $("#effect");
  const word = h("span", { class: `word ${kind}`, dataset: { effect: kind } }, text);
  word.addEventListener("animationend", () => word.remove());
  box.replaceChildren(word);
  if (kind === "bomb" || kind === "rocket") {
    root.classList.remove("shake");
    void root.offsetWidth; // restart the shake when two bombs come close together
    root.classList.add("shake");
  }
}

function renderSound() {
  const button = $("#sound-toggle");
  const muted = sound.muted();
  button.setAttribute("aria-pressed", muted ? "true" : "false");
  button.innerHTML = muted ? SPEAKER_OFF : SPEAKER_ON;
  button.title = muted ? t("sound_off") : t("sound_on");
  button.setAttribute("aria-label", button.title);
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

function renderInfo(snap, liveView) {
  kit.renderTopBar();
  const view = liveView || shownView();
  $("#base-stake").textContent = view?.stake ?? snap?.table?.tier?.base_stake ?? "–";
  $("#bid").textContent = view?.bid ? t("bid_points", { points: view.bid }) : "–";
  // One figure: what this seat's coins move by (the landlord's for a spectator), its breakdown on tap.
  const stakes = view?.stakes;
  const figure = $("#multiple");
  figure.textContent = stakes ? `×${stakes.multiple}` : "–";
  figure.dataset.value = stakes ? String(stakes.multiple) : "";
  figure.disabled = !stakes;
  if (!stakes) model.breakdownOpen = false;
  figure.setAttribute("aria-expanded", model.breakdownOpen ? "true" : "false");
  renderBreakdown(view);
  renderSound();
}

/** One factor of a multiple as [what, how much]: ["炸弹 ×2", "×4"]. */
function factorText(factor) {
  const times = `×${factor.times}`;
  switch (factor.key) {
    case "bid":
      return [t("bid"), t("bid_points", { points: factor.times })];
    case "bomb":
    case "rocket":
    case "rob":
      return [`${t(`factor_${factor.key}`)} ×${factor.count}`, times];
    case "cap":
      return [t("factor_cap"), String(factor.value)];
    case "doubling_cap":
      return [t("factor_doubling_cap", { count: factor.count }), ""];
    case "landlord_cap":
      return [t("factor_landlord_cap", { value: factor.value }), ""];
    default:
      return [t(factor.key === "double" ? "said_double" : factor.key), times];
  }
}

/** The 倍数 breakdown (#multiple-breakdown): each part's factors, its figure, and what a hand moves. */
function renderBreakdown(view) {
  const box = $("#multiple-breakdown");
  const stakes = view?.stakes;
  box.hidden = !(stakes && model.breakdownOpen);
  if (box.hidden) return;
  const parts = stakes.parts.map((part) => {
    const rows = part.factors.map((factor) => {
      const [what, much] = factorText(factor);
      return h("li", { dataset: { factor: factor.key } }, h("span", {}, what), h("b", {}, much));
    });
    const heading = stakes.role === "landlord" ? h("h4", {}, t("against_farmer", { name: shortName(seatName(part.seat)) })) : null;
    return h("div", { class: "part" }, heading, h("ul", {}, rows), h("p", { class: "equals" }, `= ×${part.multiple}`));
  });
  const total = stakes.role === "landlord" ? h("p", { class: "total" }, t("landlord_total", { multiple: stakes.multiple })) : null;
  const stake = view.stake ?? 0;
  const amount = h("p", { class: "amount" }, t("stake_times_multiple", { stake, multiple: stakes.multiple, amount: (stake * stakes.multiple).toLocaleString() }));
  box.replaceChildren(h("h3", {}, t("multiple_breakdown")), ...parts, total, amount);
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

  const name = seat?.name || t("empty_seat");
  const avatar = h("div", { class: "avatar", "aria-hidden": "true" }, name.slice(0, 1).toUpperCase());
  const lines = h(
    "div",
    { class: "who" },
    h(
      "div",
      { class: "name-line" },
      h("span", { class: "name", title: name }, shortName(name)),
      where === "bottom" ? h("span", { class: "me-tag" }, `(${t("you")})`) : null,
    ),
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
  // The last play is shown large in the centre (#last-play), not again beside its seat.
  if (view.last_play?.seat === index) return box;
  if (entry && entry !== "pass" && Array.isArray(entry.cards) && entry.cards.length) {
    const cards = h("div", { class: "cards" }, sortHighToLow(entry.cards).map((c) => cardElement(c, { size: "small", names: JOKER_NAMES })));
    box.append(cards);
  } else if (entry === "pass") {
    box.append(h("span", { class: "said pass", dataset: { said: "pass" } }, t("said_pass")));
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

  renderLastPlay(view);
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

/** The play on the table, large in the centre, with who played it; it slides in from that seat when new. */
function renderLastPlay(view) {
  const box = $("#last-play");
  const play = view?.last_play;
  box.hidden = !play;
  if (!play) {
    delete box.dataset.seat;
    return;
  }
  const where = Object.entries(seatPositions(3)).find(([, index]) => index === play.seat)?.[0] || "";
  box.dataset.seat = play.seat;
  box.dataset.kind = play.kind;
  box.dataset.from = where;
  box.querySelector(".who").textContent = shortName(seatName(play.seat));
  box.querySelector(".who").title = seatName(play.seat);
  box.querySelector(".cards").replaceChildren(...sortHighToLow(play.cards).map((c) => cardElement(c, { names: JOKER_NAMES })));
  const key = play.cards.join();
  if (model.freshPlay === key) {
    model.freshPlay = null;
    box.classList.remove("fresh");
    void box.offsetWidth; // restart the animation
    box.classList.add("fresh");
  }
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
  const who = t(titles[winner] || "farmers_win");
  // The viewer's own result first ("你赢了 +N"), from the settlement's net; who won below it.
  const mine = (result?.seats || []).find((row) => row.index === mySeat());
  const title = panel.querySelector(".title");
  if (mine && mine.delta > 0) title.textContent = t("you_won", { amount: `+${mine.delta.toLocaleString()}` });
  else if (mine && mine.delta < 0) title.textContent = t("you_lost", { amount: `−${(-mine.delta).toLocaleString()}` });
  else title.textContent = who;
  title.dataset.delta = mine ? String(mine.delta) : "";
  const spring = view?.spring ?? result?.details?.spring;
  const multiples = finished?.multiples ?? result?.details?.multiples;
  const landlordSeat = finished?.landlord ?? result?.details?.landlord;
  const seat = mySeat();
  const multiple = Array.isArray(multiples) ? multiples[seat ?? landlordSeat] : null;
  const bid = finished?.bid ?? result?.details?.bid;
  const facts = [
    title.textContent !== who ? who : "",
    spring ? t(spring) : "",
    bid ? `${t("bid")} ${t("bid_points", { points: bid })}` : "",
    multiple ? `${t("multiple")} ×${multiple}` : "",
  ];
  panel.querySelector(".sub").textContent = facts.filter(Boolean).join(" · ");
  panel.classList.toggle("spring", Boolean(spring));
  if (result && model.celebrated !== result.hand && model.watchedHand === result.hand) {
    model.celebrated = result.hand;
    if (spring) {
      showEffect("spring", t(spring));
      sound.play("spring");
    }
    else if (mine && mine.delta) sound.play(mine.delta > 0 ? "win" : "lose");
  }

  const landlord = view?.landlord ?? result?.details?.landlord;
  const rows = (result?.seats || (finished?.deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }))).map((row) => {
    const delta = row.delta ?? 0;
    const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
    const role = typeof landlord === "number" ? (row.index === landlord ? t("landlord") : t("farmer")) : "";
    return h(
      "tr",
      { class: row.index === mySeat() ? "me" : "", dataset: { seat: row.index } },
      playerCell(row, seatName, role),
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
$("#multiple").addEventListener("click", () => {
  model.breakdownOpen = !model.breakdownOpen;
  render();
});
document.addEventListener("click", (event) => {
  // A tap anywhere else closes the breakdown.
  if (model.breakdownOpen && !event.target.closest("#multiple, #multiple-breakdown")) {
    model.breakdownOpen = false;
    render();
  }
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && model.breakdownOpen) {
    model.breakdownOpen = false;
    render();
    $("#multiple").focus();
  }
});
$("#sound-toggle").addEventListener("click", () => {
  sound.setMuted(!sound.muted());
  renderSound();
});
kit.start();
