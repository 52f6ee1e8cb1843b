// The 梭哈 (suoha) table client: the page of static/js/stud.js with 梭哈's own.
//
// The buttons are the view's `choices` (过 check, 跟 call, 加 bet, 梭 all in, 开 open, 弃 fold,
// and 换牌 swap / keep when a card is dealt face down); every card shown is one the engine's
// view for this seat carries (the other seats' 底牌 face down until the showdown). Messages
// are in docs/protocol.md; the view in docs/rules/suoha.md.

import { turnActors } from "./betting.js";
import { cardBack, cardElement } from "./cards.js";
import { studTable } from "./stud.js";
import { $, coins as fmt, h, t } from "./tablekit.js";

/** A seat's five (or fewer) cards: its 底牌 first (face down unless this viewer may see it), then the face-up ones. */
function cardRow(view, index, size) {
  const down = view.down?.[index];
  const hole = down ? cardElement(down, { size }) : cardBack({ size });
  hole.classList.add("hole");
  return [hole, ...(view.up?.[index] || []).map((c) => cardElement(c, { size }))];
}

const category = (result, index) => (result.categories?.[index] ? t(`cat_${result.categories[index]}`) : "");

studTable({
  prefix: "sh",
  cardRow,
  seatCategory: category,
  finalCategory: category,
  limits: (view) => [
    ...(view.round_cap ? [t("round_cap", { amount: fmt(view.round_cap) })] : []),
    t("suo_total", { amount: fmt(view.suo ?? view.suo_total) }),
  ],
  ownChoices: { suo: "secondary", open: "secondary", swap: "primary", keep: "secondary" },
  /** The seats the table waits for; in the 换牌 (swap) round, the ones still deciding. */
  actorsOf(snap) {
    const hand = snap?.hand;
    if (hand?.view?.phase === "swap" && !hand.actors?.length) return hand.view.deciding || [];
    return turnActors(snap);
  },
  /** The 底牌 (only this seat sees it) is the box's data-hole; a card dealt face down is offered to swap in. */
  renderMine(view, seat, box) {
    const dealtBox = $("#my-dealt");
    if (!view) {
      dealtBox.hidden = true;
      return;
    }
    box.dataset.hole = view.down?.[seat] || "";
    const dealt = view.dealt;
    dealtBox.hidden = !dealt;
    dealtBox.dataset.card = dealt || "";
    dealtBox.replaceChildren(
      ...(dealt ? [h("span", { class: "caption" }, t("new_card")), cardElement(dealt), h("span", { class: "caption" }, t("swap_note"))] : []),
    );
  },
});
