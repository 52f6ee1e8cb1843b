// Mahjong tiles and dice for the table clients: notation → DOM (an inline SVG face).
//
// Notation (DESIGN.md): "1m".."9m" 万, "1p".."9p" 筒, "1s".."9s" 条, "1z".."7z" 东 南 西 北
// 白 发 中. 筒 (dots) are circles in the usual patterns, 条 (bamboo) green sticks in the
// same places, 万 (characters) a large numeral over a red 万, the winds and 中/发 one large
// character each, and 白板 ("5z") a blank face inside a thin frame: each tile reads at a
// glance even at a phone's small size. Nothing here decides a rule.

const SVG = "http://www.w3.org/2000/svg";
const BLUE = "#1f5fa8";
const GREEN = "#1d7a46";
const RED = "#c62828";

// Where the dots of 1筒 … 9筒 sit on a 40 × 56 face: [x, y, colour], and the radius.
const DOTS = {
  1: { r: 13, at: [[20, 28, RED]] },
  2: { r: 8, at: [[20, 15, GREEN], [20, 41, BLUE]] },
  3: { r: 7, at: [[10, 12, BLUE], [20, 28, RED], [30, 44, GREEN]] },
  4: { r: 7, at: [[11, 15, BLUE], [29, 15, GREEN], [11, 41, GREEN], [29, 41, BLUE]] },
  5: { r: 6.5, at: [[10, 12, BLUE], [30, 12, GREEN], [20, 28, RED], [10, 44, GREEN], [30, 44, BLUE]] },
  6: { r: 6, at: [[12, 11, GREEN], [28, 11, GREEN], [12, 28, RED], [28, 28, RED], [12, 45, RED], [28, 45, RED]] },
  7: {
    r: 5,
    at: [[9, 8, GREEN], [20, 14, GREEN], [31, 20, GREEN], [13, 33, RED], [27, 33, RED], [13, 46, RED], [27, 46, RED]],
  },
  8: {
    r: 5,
    at: [[13, 8, BLUE], [27, 8, BLUE], [13, 21, BLUE], [27, 21, BLUE], [13, 35, BLUE], [27, 35, BLUE], [13, 48, BLUE], [27, 48, BLUE]],
  },
  9: {
    r: 5,
    at: [[9, 11, BLUE], [20, 11, BLUE], [31, 11, BLUE], [9, 28, RED], [20, 28, RED], [31, 28, RED], [9, 45, GREEN], [20, 45, GREEN], [31, 45, GREEN]],
  },
};
const INK = "#1c2a48";
const NUMERALS = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
const HONOURS = { 1: "东", 2: "南", 3: "西", 4: "北", 5: "", 6: "发", 7: "中" };
const HONOUR_COLOUR = { 6: GREEN, 7: RED };
// Where the sticks of 2条 … 9条 stand (their centres; 1条 is one tall stick).
const STICKS = {
  2: [[20, 17], [20, 39]],
  3: [[20, 17], [12, 39], [28, 39]],
  4: [[13, 17], [27, 17], [13, 39], [27, 39]],
  5: [[11, 17], [29, 17], [20, 28], [11, 39], [29, 39]],
  6: [[10, 17], [20, 17], [30, 17], [10, 39], [20, 39], [30, 39]],
  7: [[20, 9], [10, 28], [20, 28], [30, 28], [10, 46], [20, 46], [30, 46]],
  8: [[8, 17], [16, 17], [24, 17], [32, 17], [8, 39], [16, 39], [24, 39], [32, 39]],
  9: [[10, 10], [20, 10], [30, 10], [10, 28], [20, 28], [30, 28], [10, 46], [20, 46], [30, 46]],
};

function svg(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

/** A bold character centred on the face. */
function text(content, { y, size, fill }) {
  const el = svg("text", { x: 20, y, "text-anchor": "middle", "font-size": size, "font-weight": 700, fill });
  el.textContent = content;
  return el;
}

/** Return {number, suit} of a tile string ("3p" → {number: 3, suit: "p"}). */
export function parseTile(tile) {
  return { number: Number(tile.slice(0, -1)), suit: tile.slice(-1) };
}

/** Build the SVG face of one tile. */
function tileFace(tile) {
  const { number, suit } = parseTile(tile);
  const face = svg("svg", { viewBox: "0 0 40 56", class: "mtile-face", "aria-hidden": "true" });
  if (suit === "p" && DOTS[number]) {
    const { r, at } = DOTS[number];
    for (const [cx, cy, colour] of at) {
      face.append(svg("circle", { cx, cy, r, fill: "none", stroke: colour, "stroke-width": 2.2 }));
      face.append(svg("circle", { cx, cy, r: r * 0.45, fill: colour }));
    }
    if (number === 1) face.append(svg("circle", { cx: 20, cy: 28, r: 8, fill: "none", stroke: GREEN, "stroke-width": 1.6 }));
  } else if (tile === "5z") {
    // 白板: nothing on the face but a thin frame.
    face.append(svg("rect", { x: 7, y: 8, width: 26, height: 40, rx: 3, fill: "none", stroke: BLUE, "stroke-width": 1.4, opacity: 0.55 }));
  } else if (suit === "s" && number === 1) {
    face.append(svg("rect", { x: 15, y: 6, width: 10, height: 44, rx: 5, fill: GREEN }));
    face.append(svg("circle", { cx: 20, cy: 12, r: 5, fill: RED }));
  } else if (suit === "s" && STICKS[number]) {
    const tall = number >= 7 ? 14 : 18;
    STICKS[number].forEach(([cx, cy], i) => {
      const colour = (number === 5 || number === 7 || number === 9) && (i === 2 || (number === 7 && i === 0)) ? RED : GREEN;
      face.append(svg("rect", { x: cx - 2.6, y: cy - tall / 2, width: 5.2, height: tall, rx: 2.6, fill: colour }));
      face.append(svg("line", { x1: cx - 2.6, y1: cy, x2: cx + 2.6, y2: cy, stroke: "#fffef6", "stroke-width": 1 }));
    });
  } else if (suit === "m") {
    face.append(text(NUMERALS[number] || "?", { y: 25, size: 20, fill: INK }));
    face.append(text("万", { y: 49, size: 20, fill: RED }));
  } else {
    face.append(text(HONOURS[number] || "?", { y: 38, size: 30, fill: HONOUR_COLOUR[number] || INK }));
  }
  return face;
}

/**
 * Build one face-up tile; `size` is "" (a hand), "small" or "tiny"; `label` names it for
 * screen readers and the tooltip (the page's words: "3筒", "3 of Dots", "White dragon").
 */
export function tileElement(tile, { size = "", label = "" } = {}) {
  const el = document.createElement("div");
  el.className = `mtile${size ? " " + size : ""}${tile === "5z" ? " blank" : ""}`;
  el.dataset.tile = tile;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", label || tile);
  el.title = label || tile;
  el.append(tileFace(tile));
  return el;
}

/** Build a face-down tile. */
export function tileBack({ size = "" } = {}) {
  const el = document.createElement("div");
  el.className = `mtile back${size ? " " + size : ""}`;
  el.setAttribute("aria-hidden", "true");
  return el;
}

// The pips of a die face on a 3 × 3 grid (0 … 8, read row by row).
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** Build a die showing `value` (1–6), or a blank, rolling die when `value` is null. */
export function dieElement(value, { label = "" } = {}) {
  const el = document.createElement("div");
  el.className = `die${value ? "" : " rolling"}`;
  el.dataset.value = value ? String(value) : "";
  el.setAttribute("role", "img");
  if (label) el.setAttribute("aria-label", label);
  const face = svg("svg", { viewBox: "0 0 30 30", "aria-hidden": "true" });
  face.append(svg("rect", { x: 1, y: 1, width: 28, height: 28, rx: 6, fill: "#fafafa", stroke: "#999" }));
  for (const spot of PIPS[value] || []) {
    const cx = 7.5 + (spot % 3) * 7.5;
    const cy = 7.5 + Math.floor(spot / 3) * 7.5;
    face.append(svg("circle", { cx, cy, r: value === 1 ? 4 : 2.6, fill: value === 1 || value === 4 ? RED : "#222" }));
  }
  el.append(face);
  return el;
}
