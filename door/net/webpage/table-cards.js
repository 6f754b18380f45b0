// The card table's cards: one naming everywhere ("nine of clubs"), a face for the eye ("9\u2663"),
// a card as an element (a button to choose, or an image named for a screen reader).
"use strict";
window.cribbageCards = (() => {
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const RANK_NAMES = { A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
                       9: "nine", T: "ten", J: "jack", Q: "queen", K: "king" };
  const cardName = (c) => `${RANK_NAMES[c[0]]} of ${SUIT_NAMES[c[1]]}`;
  const cardNames = (cards) => cards.map(cardName).join(", ");
  const face = (c) => `${c[0] === "T" ? "10" : c[0]}${SUITS[c[1]]}`;
  const FACE = /\b(10|[2-9AJQK])([\u2663\u2666\u2665\u2660])/g;
  const named = (text) => text.replace(FACE, (_, r, s) =>   // a sentence's faces ("5\u2665") as names ("five of hearts")
    cardName(`${r === "10" ? "T" : r}${Object.keys(SUITS).find((k) => SUITS[k] === s)}`))
    .replace(/(of (?:clubs|diamonds|hearts|spades)) (?=\w+ of )/g, "$1 and ");
  function cardElement(c, tag, name = cardName(c)) {
    const el = document.createElement(tag);
    el.className = "card" + (c[1] === "D" || c[1] === "H" ? " red" : "");
    el.textContent = face(c);
    el.dataset.card = c;
    if (tag === "span") el.setAttribute("role", "img");
    el.setAttribute("aria-label", name);
    return el;
  }
  function glyphsAndNames(cards) {   // the faces for the eye, the names for a screen reader
    const frag = document.createDocumentFragment(), eye = document.createElement("span"), ear = document.createElement("span");
    eye.setAttribute("aria-hidden", "true"); eye.textContent = cards.map(face).join(" ");
    ear.className = "sr"; ear.textContent = cardNames(cards);
    frag.append(eye, ear);
    return frag;
  }

  return { SUITS, cardName, cardNames, face, named, cardElement, glyphsAndNames };
})();
