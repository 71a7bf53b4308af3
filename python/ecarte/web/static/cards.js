// Cards drawn with CSS, written as the engine writes them for people: `hello`'s `suits`
// and `cards` (the rank and suit symbol of each card code), red for hearts and diamonds.
let faces = { suits: {}, cards: {} };

// The engine's card texts, from `hello`; the page draws no card before it has them.
export function useFaces(hello) {
  faces = { suits: hello.suits, cards: hello.cards };
}

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

// A card code ("TH") as a person reads it ("10♥").
export function cardText(code) {
  return faces.cards[code] ? faces.cards[code].text : code;
}

// A suit letter ("H") as its symbol.
export function suitText(letter) {
  return faces.suits[letter] || letter;
}

// A duel action ("discard 7C", "QH", "propose") with its card as a person reads it.
export function actionText(action) {
  return action.split(" ").map(cardText).join(" ");
}

export function card(code, { small = false, classes = "", onclick } = {}) {
  const face = faces.cards[code] || { text: code, rank: code, suit: "" };
  const red = code.endsWith("H") || code.endsWith("D");
  return el("div", {
    class: `card${red ? " red" : ""}${small ? " small" : ""} ${classes}`,
    "data-card": code, title: face.text, onclick,
  }, el("span", { class: "corner" }, face.rank, el("br"), face.suit), el("span", { class: "pip" }, face.suit));
}

export function back({ small = false } = {}) {
  return el("div", { class: `card back${small ? " small" : ""}`, "aria-label": "face-down card" });
}
