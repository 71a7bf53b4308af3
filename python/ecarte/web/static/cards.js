// Cards drawn with CSS: a rank and a suit symbol, red for hearts and diamonds.
export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

export function pretty(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return rank + SUITS[code.slice(-1)];
}

export function card(code, { small = false, classes = "", onclick } = {}) {
  const suit = code.slice(-1);
  const red = suit === "H" || suit === "D";
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return el("div", {
    class: `card${red ? " red" : ""}${small ? " small" : ""} ${classes}`,
    "data-card": code, title: pretty(code), onclick,
  }, el("span", { class: "corner" }, rank, el("br"), SUITS[suit]), el("span", { class: "pip" }, SUITS[suit]));
}

export function back({ small = false } = {}) {
  return el("div", { class: `card back${small ? " small" : ""}`, "aria-label": "face-down card" });
}

export function prettyText(text) {
  // Cards written as codes in engine texts ("discard 7C") shown with suit symbols.
  return text.replace(/\b([2-9TJQKA])([CDHS])\b/g, (_, r, s) => (r === "T" ? "10" : r) + SUITS[s]);
}
