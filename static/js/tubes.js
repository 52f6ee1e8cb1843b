// What the 筒子 tile tables (二八杠 erbagang, 推筒子 tuitongzi) draw alike: their tiles, 1筒 to
// 9筒 and 白板, each named for a screen reader. The tiles themselves are tiles.js's.

import { t } from "./tablekit.js";
import { tileBack, tileElement } from "./tiles.js";

/** The name of a tile: "白板" or "n筒" in the page's language. */
export function tileLabel(tile) {
  return tile === "5z" ? t("tile_white") : t("tile_p", { n: tile.slice(0, -1) });
}

/** A hand as the view gives it: a tile string face up, null face down. */
export function tubeTiles(list, size) {
  return (list || []).map((tile) => (tile ? tileElement(tile, { size, label: tileLabel(tile) }) : tileBack({ size })));
}
