// The pieces of the result panel (#result, templates/tables/_table_base.html) the seated
// games fill alike: the rows of the seats' table, the title by the viewer's own outcome,
// the hands shown, the rake line and the Next hand button. What a game adds to a row (its
// hand, its role) it passes in.

import { $, coins, h, t } from "./tablekit.js";

/**
 * The rows of the result table: the `result` message's seats, or before it arrives the
 * finished view's `deltas` (one per seat, named by `seatName`).
 */
export function resultRows(result, deltas, seatName) {
  return result?.seats || (deltas || []).map((delta, index) => ({ index, delta, name: seatName(index) }));
}

/** One row of the result table: `cells` (the player first), then won / lost (data-delta), rake and balance. */
export function resultRow(row, viewer, ...cells) {
  const delta = row.delta ?? 0;
  const cls = delta > 0 ? "won" : delta < 0 ? "lost" : "";
  return h(
    "tr",
    { class: row.index === viewer ? "me" : "", dataset: { seat: row.index } },
    ...cells,
    h("td", { class: `delta ${cls}`, dataset: { delta } }, `${delta > 0 ? "+" : ""}${delta.toLocaleString()}`),
    h("td", { class: "rake" }, row.rake ?? "–"),
    h("td", { class: "balance" }, typeof row.balance === "number" ? row.balance.toLocaleString() : "–"),
  );
}

/**
 * The player cell of a result row: the name, then `note` (a role, a bet) after a dot when there is one.
 * The name is its own `.who`, cut with "…" when long (table.css), its title the whole name.
 */
export function playerCell(row, seatName, note = "") {
  const name = row.name || seatName(row.index);
  return h("td", {}, h("span", { class: "who", title: name }, name), note ? h("span", { class: "role-note" }, ` · ${note}`) : null);
}

/** "X wins" / "X, Y win" for the rows that won (`won`, or with `byDelta` only a gain), or "" when none did. */
export function winnersText(rows, seatName, { byDelta = false } = {}) {
  const winners = rows.filter((r) => (!byDelta && r.won) || (r.delta ?? 0) > 0).map((r) => r.name || seatName(r.index));
  return winners.length ? t(winners.length > 1 ? "winners_are" : "winner_is", { names: winners.join(", ") }) : "";
}

/**
 * Title the panel by the viewer's own row `mine`: "you win N", "you lose N" or even, and
 * set its data-outcome; a spectator reads `others` (the winners) or "finished".
 */
export function titleByOutcome(panel, mine, others) {
  let title;
  if (mine && mine.delta > 0) title = t("you_win", { amount: coins(mine.delta) });
  else if (mine && mine.delta < 0) title = t("you_lose", { amount: coins(-mine.delta) });
  else if (mine) title = t("you_even");
  else title = others || t("phase_finished");
  panel.querySelector(".title").textContent = title;
  panel.dataset.outcome = mine ? (mine.delta > 0 ? "won" : mine.delta < 0 ? "lost" : "even") : "";
}

/** The sub-title of a pot game's panel: how the hand ended, then the pot. */
export function endedLine(endedBy, pot) {
  return [endedBy ? t(`ended_${endedBy}`) : "", typeof pot === "number" ? `${t("pot")} ${coins(pot)}` : ""].filter(Boolean).join(" · ");
}

/**
 * Fill the panel's "hands shown" box (.final-hands) with a row per seat in `indexes`:
 * its name, then what `cells(index)` draws; the box hides when there is none.
 */
export function renderFinalHands(panel, indexes, seatName, cells) {
  const box = panel.querySelector(".final-hands");
  box.hidden = !indexes.length;
  box.querySelector(".rows").replaceChildren(
    ...indexes.map((index) => h("div", { class: "final-row", dataset: { seat: index } }, h("span", { class: "who" }, seatName(index)), cells(index))),
  );
}

/** The panel's foot: the rake taken (or "settling…" before the `result` message), Next hand enabled once settled. */
export function renderResultFoot(panel, result) {
  panel.querySelector(".rake-total").textContent = result ? t("rake_total", { rake: result.rake ?? 0 }) : t("settling");
  panel.querySelector('[data-action="next-hand"]').disabled = !result;
}

/**
 * The view a result panel reads once a hand is over, and whether the panel shows: the live
 * view when it is finished, else the last hand's when it is the `result`'s hand; shown while
 * there is a result the viewer has not dismissed with Next hand.
 */
export function settledView(model, live) {
  const result = model.result;
  const lastView = model.snapshot?.last_hand?.id === result?.hand ? model.snapshot?.last_hand?.view : null;
  const view = live?.phase === "finished" ? live : lastView;
  const handId = result?.hand ?? model.snapshot?.hand?.id;
  return { view, show: Boolean((result || view?.result) && model.resultDismissed !== handId) };
}

/**
 * Show the result panel for the hand `view` finished (its `result` message, or before that the
 * view's own `result`) unless the viewer dismissed it with Next hand. Returns the panel, or null
 * when it stays hidden.
 */
export function openResultPanel(model, view) {
  const panel = $("#result");
  const handId = model.result?.hand ?? model.snapshot?.hand?.id ?? model.snapshot?.last_hand?.id;
  const show = Boolean(model.result || view?.result) && model.resultDismissed !== handId;
  panel.hidden = !show;
  return show ? panel : null;
}

/**
 * Open the result panel of a game that titles it by the viewer's outcome (必下德州, 推筒子,
 * 二八杠): shown as `settledView` says, titled by the `viewer`'s row (else by the winners,
 * who are also its sub-title). Returns the panel, the settled view and the rows, or null
 * when the panel stays hidden.
 */
export function openOutcomePanel(model, live, seatName, viewer) {
  const { view, show } = settledView(model, live);
  const panel = $("#result");
  panel.hidden = !show;
  if (!show) return null;
  const rows = resultRows(model.result, view?.result?.deltas, seatName);
  const winners = winnersText(rows, seatName);
  titleByOutcome(panel, rows.find((r) => r.index === viewer), winners);
  panel.querySelector(".sub").textContent = winners;
  return { panel, view, rows };
}
