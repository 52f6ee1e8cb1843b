// The 填大坑 (tiandakeng) table client: the page of static/js/stud.js with 填大坑's own.
//
// The buttons are the view's `choices` (不加 check, 跟注 call, 加注 raise, 全压 all in, 放弃
// fold); every card shown is one the engine's view for this seat carries (the others' two
// face-down cards stay backs until the showdown). The view: docs/rules/tiandakeng.md.

import { cardBack, cardElement } from "./cards.js";
import { studTable } from "./stud.js";
import { coins as fmt, t } from "./tablekit.js";

/** A seat's cards: two face down (backs unless this viewer may see them), then the face-up ones; 借牌 marked. */
function cardRow(view, index, size) {
  const down = view.down?.[index];
  const holes = Array.isArray(down) ? down.map((c) => cardElement(c, { size })) : [cardBack({ size }), cardBack({ size })];
  holes.forEach((el) => el.classList.add("hole"));
  const shared = new Set((view.shared || []).filter((s) => s.seats.includes(index)).map((s) => s.card));
  const up = (view.up?.[index] || []).map((c) => {
    const el = cardElement(c, { size });
    if (shared.has(c)) el.classList.add("shared");
    return el;
  });
  return [...holes, ...up];
}

studTable({
  prefix: "tk",
  cardRow,
  /** Under a seat: its points, then its special hand. */
  seatCategory(result, index) {
    const points = result.points?.[index];
    const special = result.specials?.[index];
    return typeof points === "number" ? [t("points", { points }), special ? ` · ${t(`cat_${special}`)}` : ""].join("") : "";
  },
  /** In the result: the points, the special hand and the 喜钱 it was paid. */
  finalCategory(result, index) {
    return [
      typeof result.points?.[index] === "number" ? t("points", { points: result.points[index] }) : "",
      result.specials?.[index] ? t(`cat_${result.specials[index]}`) : "",
      result.xiqian?.[index] ? t("xiqian_paid", { amount: result.xiqian[index] }) : "",
    ]
      .filter(Boolean)
      .join(" · ");
  },
  limits: (view) => [
    ...(view.level ? [t("lanpot_level", { pot: fmt(view.carry_in), times: 2 ** view.level })] : []),
    ...(view.round === 3 ? [t("allin_total", { amount: fmt(view.allin ?? view.allin_total) })] : []),
  ],
  ownChoices: { allin: "secondary" },
  noWinnerTitle: "lanpot",
});
