// The card table's tournaments (docs/tournaments.md): the open and running ones (the protocol's
// tournaments message) with Enter or Withdraw and "Standings and bracket" (standings); a
// tournament's standings as a table and each bracket round by round, each round a heading and a
// list of its matches in words, so that a phone reads a bracket of any size without a wide drawing.
"use strict";
window.cribbageTournaments = (() => {
  const $ = (id) => document.getElementById(id);
  const LABELS = { bracket: "Bracket", consolation: "Consolation" };
  const STATES = { open: "open for entries", running: "under way", finished: "over" };
  const plural = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  function element(tag, text, attrs = {}) {
    const el = document.createElement(tag);
    if (text !== null) el.textContent = text;
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    return el;
  }
  function button(label, key, describedBy, act) {   // key: the button's name across redraws (the focus kept on it)
    const b = element("button", label, { type: "button", "data-key": key, "aria-describedby": describedBy });
    b.addEventListener("click", act); return b;
  }
  function only(id) {   // this section in view, the table's others hidden
    for (const other of ["join", "lobby", "game", "reviewed", "post", "cups", "cup"]) $(other).hidden = other !== id;
    $("menu").hidden = false;
  }
  function refocus(list, key, fallback) {   // the same button again after a redraw, else the heading
    const again = key && [...list.querySelectorAll("button")].find((b) => b.dataset.key === key);
    (again || $(fallback)).focus();
  }
  function tournamentLine(t) {   // "Autumn by post: open for entries. Qualifying Swiss ... 9 entered; you are in."
    return `${t.title}: ${STATES[t.state] || t.state}. ${capital(t.format)}. ${plural(t.entrants, "player")} entered` +
      `${t.entered ? "; you are in" : ""}.`;
  }
  // showList(m, acts): the tournaments message drawn; acts = {enter(name), withdraw(name), look(name)}.
  function showList(m, acts) {
    const had = document.activeElement, key = $("cups").contains(had) && had.dataset ? had.dataset.key : null;
    const list = $("cups-list");
    list.replaceChildren(...m.tournaments.map((t, i) => {
      const li = element("li", null), id = `cup-line-${i}`;
      li.appendChild(element("p", tournamentLine(t), { id }));
      if (t.state === "open") {
        li.appendChild(t.entered ? button("Withdraw", `entry-${t.name}`, id, () => acts.withdraw(t.name))
          : button("Enter", `entry-${t.name}`, id, () => acts.enter(t.name)));
      }
      li.appendChild(button("Standings and bracket", `look-${t.name}`, id, () => acts.look(t.name)));
      return li;
    }));
    if (!m.tournaments.length) list.appendChild(element("li", null)).appendChild(
      element("p", "No tournament is open or under way now: the sysop makes them."));
    only("cups");
    refocus(list, key, "cups-title");
  }
  function standingsTable(lines) {   // place, name, points, won-lost, skunks, spread: a caption, headed columns
    const table = element("table", null, { id: "cup-standings" });
    table.appendChild(element("caption", "Standings"));
    const head = element("tr", null);
    for (const [text, full] of [["#", "Place"], ["Name", null], ["Pts", "Points"], ["W-L", "Won and lost"],
      ["Sk", "Skunks"], ["+/-", "Spread"]]) {
      const th = element("th", text, { scope: "col" });
      if (full) th.setAttribute("abbr", full), th.setAttribute("title", full);
      head.appendChild(th);
    }
    table.appendChild(element("thead", null)).appendChild(head);
    const body = table.appendChild(element("tbody", null));
    for (const l of lines) {
      const tr = element("tr", null);
      tr.appendChild(element("td", String(l.place)));
      tr.appendChild(element("th", l.name, { scope: "row" }));
      for (const v of [l.points, `${l.won}-${l.played - l.won}`, l.skunks, l.spread > 0 ? `+${l.spread}` : String(l.spread)]) {
        tr.appendChild(element("td", String(v)));
      }
      body.appendChild(tr);
    }
    return table;
  }
  function bracketSection(b, i) {   // a bracket: its heading, its champion, then each round a heading and its matches
    const section = element("section", null, { "aria-labelledby": `cup-bracket-${i}`, class: "bracket" });
    section.appendChild(element("h3", LABELS[b.label] || b.label, { id: `cup-bracket-${i}` }));
    section.appendChild(element("p", b.champion ? `Champion: ${b.champion}.` : "No champion yet.", { class: "champion" }));
    b.rounds.forEach((r, j) => {
      const id = `cup-round-${i}-${j}`;
      section.appendChild(element("h4", r.name, { id }));
      const ul = section.appendChild(element("ul", null, { "aria-labelledby": id, class: "matches" }));
      for (const said of r.matches) ul.appendChild(element("li", `${capital(said)}.`));
    });
    return section;
  }
  // showStandings(m): the standings message drawn: the title, where it stands, the standings, each bracket.
  function showStandings(m) {
    $("cup-title").textContent = m.title;
    $("cup-about").textContent = `${capital(STATES[m.state] || m.state)}: ${m.format}. ` +
      (m.entrants.length ? `${plural(m.entrants.length, "player")}: ${m.entrants.join(", ")}.` : "Nobody has entered yet.");
    const body = $("cup-body");
    body.replaceChildren();
    if (m.standings.length) body.appendChild(standingsTable(m.standings));
    m.brackets.forEach((b, i) => body.appendChild(bracketSection(b, i)));
    if (!m.standings.length && !m.brackets.length) body.appendChild(element("p", "Nothing played yet."));
    only("cup");
    $("cup-title").focus();
  }
  return { showList, showStandings, tournamentLine };
})();
