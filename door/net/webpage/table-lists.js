// The card table's lists under a heading that takes the focus: the door's review of a game, today's
// ranking, the statistics and recent games, the ratings, as tables with headings (the protocol's data),
// or as lines from a door that sends only lines.
"use strict";
window.cribbageLists = (() => {
  const $ = (id) => document.getElementById(id);
  const { glyphsAndNames } = window.cribbageCards;
  const DIGEST = /\b[0-9a-f]{64}\b/;
  function showTables(title, summary, tables, lines = []) {   // tables with headings, under a heading that takes the focus
    const body = $("review-body");
    body.replaceChildren();
    for (const line of summary) { const p = document.createElement("p"); p.textContent = line; body.appendChild(p); }
    for (const [caption, heads, rows, none] of tables) {
      if (!rows.length) { const p = document.createElement("p"); p.textContent = `${caption}: ${none}`; body.appendChild(p); continue; }
      const table = document.createElement("table"), cap = table.createCaption(), head = table.createTHead().insertRow();
      cap.textContent = caption;
      for (const h of heads) { const th = document.createElement("th"); th.scope = "col"; th.textContent = h; head.appendChild(th); }
      const tbody = table.createTBody();
      for (const row of rows) {
        const tr = tbody.insertRow();
        row.forEach((cell, i) => {
          const td = document.createElement(i ? "td" : "th");
          if (!i) td.scope = "row";
          if (cell instanceof Node) td.appendChild(cell); else td.textContent = String(cell);
          tr.appendChild(td);
        });
      }
      body.appendChild(table);
    }
    showLines(title, lines, true);
  }
  function thrown(cards) { const f = document.createDocumentFragment(); f.append("threw ", glyphsAndNames(cards)); return f; }
  function showReview(m) {   // each decision: the choice, the best and the points it lost
    const c = m.costs, rows = [];
    for (const d of m.decisions) {
      if (d.kind === "discard") {
        rows.push([d.hand, `Discard (${d.crib === "yours" ? "your" : "their"} crib)`, thrown(d.choice),
                   d.lost ? thrown(d.best) : "the best", lost(d)]);
      } else if (d.kind === "play") {
        rows.push([d.hand, `Card on ${d.count}`, glyphsAndNames(d.choice), d.best[0] === d.choice[0] ? "the best" : glyphsAndNames(d.best),
                   lost(d)]);
      } else {
        rows.push([d.hand, `Count of your ${d.what}`, `claimed ${d.claimed}`, `it held ${d.held}`, lost(d)]);
      }
    }
    showTables(`Review of game #${m.game}`,
               [`Your discards cost ${c.discards.toFixed(1)} points, your pegging ${c.pegging.toFixed(1)}, your counting ${c.counting}.`,
                "A loss counts only above the noise; points are expected net points."],
               [["Every decision", ["Hand", "Decision", "Your choice", "Best", "Points lost"], rows, "Nothing to review."]]);
  }
  function lost(d) {
    if (!d.lost) return "none";
    return d.kind === "count" ? String(d.lost) : `${d.lost.toFixed(1)} (${d.mistake ? "a mistake" : "within the noise"})`;
  }
  function showRanking(m, verify) {   // today's ranking as a table, the par and the streak above it; the seeds to verify()
    const rows = m.ranking.map((r) => [r.place, r.name, r.score, r.computer, (r.margin > 0 ? "+" : "") + r.margin,
                                       r.against_par === null ? "" : (r.against_par > 0 ? "+" : "") + r.against_par,
                                       r.unfinished ? "unfinished" : "finished"]);
    const summary = [`Game #${m.game}: the same cards for everyone.`];
    if (m.par) summary.push(`The expert's own game on these cards: ${m.par[0]} to ${m.par[1]}.`);
    if (m.streak !== undefined) summary.push(`Your streak: ${m.streak} day${m.streak === 1 ? "" : "s"} in a row.`);
    showTables(`Today's deal, ${m.day}`, summary,
               [["The day's ranking", ["Place", "Player", "Score", "Computer", "Margin", "Against the par", "Game"], rows,
                 "Nobody has finished today's deal yet."]]);
    m.lines.forEach((line, i) => {   // (the day's commitment, yesterday's seed: each under the line that says what it is)
      if (DIGEST.test(line)) verify(line.trim().length === 64 && i ? `${m.lines[i - 1].trim()} ${line.trim()}` : line.trim());
    });
  }
  function showLines(title, lines, keep = false) {   // lines (after any tables), under a heading that takes the focus
    if (!keep) $("review-body").replaceChildren();
    const list = $("review-lines");
    list.replaceChildren();
    for (const line of lines) {
      if (!line.trim()) continue;
      const li = document.createElement("li"); li.textContent = line.trim(); list.appendChild(li);
    }
    $("review-title").textContent = title;
    $("reviewed").hidden = false; $("review-title").focus();
  }
  function showRatings(m) {   // both pools' rated players
    const heads = ["Place", "Name", "Rating", "RD", "Matches", "Provisional"];
    const rows = (list) => list.map((p, i) => [i + 1, p.name, p.rating, p.rd, p.matches, p.provisional ? "yes" : "no"]);
    showTables("Ratings", [], [["People", heads, rows(m.people), "Nobody is rated yet."],
                               ["Bots, rated among themselves", heads, rows(m.bots), "No bot is rated yet."]]);
  }
  function showStats(m) {   // the statistics screen's figures, and the recent games
    const recent = m.recent.map((g) => {
      const me = g.players.findIndex((p) => p.toLowerCase() === m.name.toLowerCase()), won = g.winner === me;
      const skunk = g.skunk === "none" ? "" : g.skunk === "double" ? ", a double skunk" : ", a skunk";
      return [`#${g.game}`, g.ended.slice(0, 10), g.players[1 - me], `${g.scores[me]} - ${g.scores[1 - me]}`,
              `${won ? "won" : "lost"}${skunk}${g.forfeit ? ", by forfeit" : ""}`];
    });
    showTables(`Statistics of ${m.name}`, [], [
      ["Your figures", ["Figure", "Value"], m.rows.map((r) => [r.label, r.value]), "No game finished yet."],
      ["Recent games", ["Game", "Ended (UTC)", "Against", "Score", "Result"], recent, "No game finished yet."]]);
  }
  return { showLines, showReview, showRanking, showRatings, showStats };
})();
