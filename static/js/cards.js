// Card faces for the table client: notation → DOM, and a display order.
//
// Notation (DESIGN.md): rank then suit, "As" "Td" "8h" "2c"; jokers "XJ" (小王)
// and "DJ" (大王); the flower card "FL" (花). Sorting here is only for display; the server decides every rule.

import { ENGLISH } from "./lang.js";

const RANK_ORDER = "3456789TJQKA2";
const SUIT_ORDER = "shcd";
const SUIT_SYMBOL = { s: "♠", h: "♥", c: "♣", d: "♦" };
const RED_SUITS = new Set(["h", "d"]);
// A page in English shows the jokers and the flower in English: one letter above a mark fits the
// corner a fanned hand leaves in sight, as 大/王 does in Chinese; the card's name says it whole.
const FACES = ENGLISH
  ? { DJ: ["B", "★", "Big joker"], XJ: ["S", "★", "Small joker"], FL: ["F", "✿", "Flower"] }
  : { DJ: ["大", "王", "大王"], XJ: ["小", "王", "小王"], FL: ["花", "✿", "花"] };

/** Return {rank, suit, label, symbol, red, joker, name} for one card string (`name` for the jokers and the flower). */
export function parseCard(card) {
  const face = FACES[card];
  if (face) return { rank: card, suit: "", label: face[0], symbol: face[1], red: card !== "XJ", joker: true, name: face[2] };
  const rank = card.slice(0, -1);
  const suit = card.slice(-1);
  return {
    rank,
    suit,
    label: rank === "T" ? "10" : rank,
    symbol: SUIT_SYMBOL[suit] || "?",
    red: RED_SUITS.has(suit),
    joker: false,
  };
}

/** Return a number that orders cards low → high the way 斗地主 players read them. */
export function cardWeight(card) {
  if (card === "DJ") return 1000;
  if (card === "XJ") return 900;
  const rank = RANK_ORDER.indexOf(card.slice(0, -1));
  const suit = SUIT_ORDER.indexOf(card.slice(-1));
  return rank * 10 + (3 - suit);
}

/** Return a copy sorted high → low (big cards on the left, as in most clients). */
export function sortHighToLow(cards) {
  return [...cards].sort((a, b) => cardWeight(b) - cardWeight(a));
}

/** Build one face-up card element; `size` is "" (hand), "small" or "tiny". */
export function cardElement(card, { size = "", names = {} } = {}) {
  const info = parseCard(card);
  const el = document.createElement("div");
  el.className = `pcard ${info.red ? "red" : "black"}${info.joker ? " joker" : ""}${size ? " " + size : ""}`;
  el.dataset.card = card;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", info.joker ? names[card] || info.name : `${info.symbol}${info.label}`);
  el.title = el.getAttribute("aria-label");

  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = info.label;
  const suit = document.createElement("span");
  suit.className = "suit";
  suit.textContent = info.symbol;
  corner.append(rank, suit);

  const pip = document.createElement("span");
  pip.className = "pip";
  pip.textContent = info.joker ? "★" : info.symbol;
  el.append(corner, pip);
  return el;
}

/** Build a face-down card element. */
export function cardBack({ size = "" } = {}) {
  const el = document.createElement("div");
  el.className = `pcard back${size ? " " + size : ""}`;
  el.setAttribute("aria-hidden", "true");
  return el;
}
