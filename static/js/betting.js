// The betting controls and notes the pot games (梭哈, 填大坑, 炸金花, 扯旋) share: the
// buttons of the choices they have in common and the status line of a turn. The amounts
// are the view's: the client labels them, the engine charges them.

import { t } from "./tablekit.js";

/**
 * The button for a betting choice every pot game has, or null for one of the game's own:
 * check (过/休), call `callAmount`, raise labelled by `raiseKey` with the choice's amount,
 * fold. `button` is the seated table's button maker (tablekit.js).
 */
export function betButton(button, choice, { callAmount, raiseKey }) {
  if (choice.type === "check") return button(t("check"), "check", choice, "secondary");
  if (choice.type === "call") return button(t("call_amount", { amount: callAmount }), "call", choice, "primary", { amount: callAmount });
  if (choice.type === "raise") return button(t(raiseKey, { amount: choice.amount }), "raise", choice, "primary", { amount: choice.amount });
  if (choice.type === "fold") return button(t("fold"), "fold", choice, "ghost");
  return null;
}

/** The buttons of `choices` in their order: the shared ones by `betButton`, the others by `own(choice)` (null skips one). */
export function betButtons(button, choices, options, own = () => null) {
  return choices.map((choice) => betButton(button, choice, options) ?? own(choice)).filter(Boolean);
}

/** The seats a pot game waits for: the hand's `actors`, else the one whose `turn` it is; none once it is finished. */
export function turnActors(snap) {
  const hand = snap?.hand;
  if (!hand || hand.view?.phase === "finished") return [];
  if (hand.actors?.length) return hand.actors;
  return typeof hand.view?.turn === "number" ? [hand.view.turn] : [];
}

/** The status line on a turn: "your turn", or whom the table waits for (`actors` named by `seatName`). */
export function turnStatus(myTurn, actors, seatName) {
  if (myTurn) return t("your_turn");
  return actors.length ? t("waiting_for", { name: actors.map(seatName).join(", ") }) : "";
}
