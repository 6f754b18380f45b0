// The card table's pegboard, in SVG: a street of 30 holes a player for every 30 points (two to 61,
// four to 121) running back and forth, the start holes, the game hole, the skunk line (and to 121
// the double skunk's), a front and a back peg a player that glide from hole to hole.
"use strict";
window.cribbageBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg", PER = 30;
  const streets = (target) => Math.ceil((target - 1) / PER);
  function holeAt(target, n, p) {   // (x, y) of hole n (0 and -1 the start holes, target the game hole) on track p
    if (n >= target) return [streets(target) % 2 ? 388 : 10, 12 + (streets(target) - 1) * 34 + 6];
    if (n <= 0) return [n < 0 ? 6 : 16, 12 + p * 12];
    const i = n - 1, s = Math.floor(i / PER), k = i % PER, col = s % 2 ? PER - 1 - k : k;
    return [28 + col * 11 + Math.floor(col / 5) * 5, 12 + s * 34 + p * 12];
  }
  function element(tag, attrs) {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    return el;
  }
  function buildBoard(target) {   // the board of a game to target: [the svg (#pegboard), a line saying its lines]
    const svg = element("svg", { viewBox: `0 0 400 ${streets(target) * 34 + 4}`, role: "img", id: "pegboard" });
    for (let p = 0; p < 2; p++) for (let n = -1; n < target; n++) {
      const [x, y] = holeAt(target, n, p);
      svg.appendChild(element("circle", { cx: x, cy: y, r: 2.6, class: "hole" }));
    }
    const [gx, gy] = holeAt(target, target, 0);
    svg.appendChild(element("circle", { cx: gx, cy: gy, r: 4, class: "hole" }));
    const lines = [target - PER, ...(target > 61 ? [61] : [])];   // under the skunk line (and, to 121, the double skunk's)
    for (const line of lines) {
      const [x, y] = holeAt(target, line, 0), s = Math.floor((line - 1) / PER), dx = s % 2 ? 6 : -6;
      svg.appendChild(element("line", { x1: x + dx, y1: y - 6, x2: x + dx, y2: y + 18, class: "skunk" }));
    }
    for (const tag of ["me", "them"]) for (const part of ["back", "front"]) {
      svg.appendChild(element("circle", { cx: 0, cy: 0, r: 4.6, class: `peg ${tag} ${part}`, id: `peg-${tag}-${part}` }));
    }
    const key = document.createElement("p");
    key.textContent = `Skunk line at ${target - PER}${target > 61 ? ", double skunk at 61" : ""}; game hole ${target}.`;
    return [svg, key];
  }
  function placePegs(target, holes) {   // holes: {me: [front, back], them: [front, back]}; each peg's hole in data-hole
    [["me", 0], ["them", 1]].forEach(([tag, p]) => {
      ["front", "back"].forEach((part, i) => {
        const peg = document.getElementById(`peg-${tag}-${part}`), hole = holes[tag][i], [x, y] = holeAt(target, hole, p);
        peg.style.transform = `translate(${x}px, ${y}px)`;
        peg.dataset.hole = String(hole);
      });
    });
  }
  return { buildBoard, placePegs };
})();
