// The card table's games by correspondence (docs/correspondence.md): the list of a registered
// caller's games (the protocol's games message: "Your move" first, by deadline, the time left in
// words, where each stands) with Play (open), the offers made to them with Accept and Decline
// (answer) and those made to anyone by others with Take it, the caller's own open offers with
// Withdraw (answer, accept false), a form to offer a game by name or to anyone (offer) and one for
// days away (away). What the door
// says of them (waiting, your_move) goes to a live region of its own, seen and heard at once.
"use strict";
window.cribbageCorrespondence = (() => {
  const $ = (id) => document.getElementById(id);
  const DAY = 86400, DAYS = [1, 2, 3, 5, 7, 14], FIRST_DAYS = 3;
  const plural = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
  function leftWords(seconds) {   // seconds left in words, rounded down (as the door's screens say it): "2 days", "5 hours"
    if (!(seconds > 0)) return "no time";
    const whole = Math.floor(Math.min(seconds, 1e12));
    const days = Math.floor(whole / DAY), hours = Math.floor(whole % DAY / 3600), minutes = Math.floor(whole % 3600 / 60);
    if (days >= 2) return plural(days, "day");
    if (days === 1) return "1 day" + (hours ? ` ${plural(hours, "hour")}` : "");
    if (hours >= 2) return plural(hours, "hour");
    if (hours === 1) return "1 hour" + (minutes ? ` ${plural(minutes, "minute")}` : "");
    if (minutes >= 1) return plural(minutes, "minute");
    return "less than a minute";
  }
  const WHOSE = { you: "Your move", both: "Your move (both discard)", them: "Their move" };
  const RUNS = { any: "runs in any order", order: "runs in exact order" };
  function ordered(games) {   // the games waiting on the player first, each group by deadline (none last)
    const due = (g) => (g.seconds_left === null ? Infinity : g.seconds_left);
    return games.slice().sort((a, b) => (a.to_move === "them") - (b.to_move === "them") || due(a) - due(b));
  }
  function gameLine(g) {   // "#12 with Ann: Your move, due in 2 days. Hand 3: you 20, Ann 15."
    const due = g.seconds_left === null ? "" : `, due in ${leftWords(g.seconds_left)}`;
    const stands = g.hand !== null && g.hand !== undefined && g.scores
      ? ` Hand ${g.hand}: you ${g.scores[0]}, ${g.other} ${g.scores[1]}.` : " Not begun.";
    return `#${g.number} with ${g.other}: ${WHOSE[g.to_move]}${due}.${stands}`;
  }
  function item(id, text, buttons) {   // a list item: its line, then its buttons (each described by the line)
    const li = document.createElement("li"), p = document.createElement("p");
    p.id = id; p.textContent = text; li.appendChild(p);
    for (const [label, act] of buttons) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = label; b.setAttribute("aria-describedby", id);
      b.addEventListener("click", act); li.appendChild(b);
    }
    return li;
  }
  // show(m, acts): the games message drawn; acts = {open(game), answer(offer, accept)} (a Withdraw
  // of the caller's own offer is answer(offer, false), as the protocol has it).
  function show(m, acts) {
    const had = document.activeElement, keep = $("post").contains(had) && !$("post-games").contains(had)
      && !$("post-offers").contains(had) && !$("post-made").contains(had) && had !== $("post-title");   // (typing in a form: the focus stays there)
    const games = $("post-games"), offers = $("post-offers");
    games.replaceChildren(...ordered(m.games).map((g) => item(`kept-${g.game}`, gameLine(g),
      [[`Play #${g.number}`, () => acts.open(g.game)]])));
    if (!m.games.length) games.appendChild(item("kept-none", "No game by correspondence yet: offer one below.", []));
    const what = (o) => `${o.rated ? "rated " : ""}${o.best_of > 1 ? `match (the best of ${o.best_of} games)` : "game"}`;
    const terms = (o) => `${plural(o.days, "day")} a move, ${RUNS[o.runs] || RUNS.any}` +
      `${o.counting === "manual" ? ", each player counting their own hands, with muggins" : ""}.`;
    offers.replaceChildren(...m.offers.map((o) => (o.open
      ? item(`offered-${o.offer}`, `${o.name} offers a ${what(o)} to anyone: ${terms(o)}`,
        [["Take it", () => acts.answer(o.offer, true)]])
      : item(`offered-${o.offer}`, `${o.name} offers you a ${what(o)}: ${terms(o)}`,
        [["Accept", () => acts.answer(o.offer, true)], ["Decline", () => acts.answer(o.offer, false)]]))));
    const made = m.made || [];   // the caller's own open offers: each withdrawn by answer with accept false
    $("post-made").replaceChildren(...made.map((o) => item(`made-${o.offer}`, o.open
      ? `You offer a ${what(o)} to anyone: ${terms(o)}` : `You offer ${o.name} a ${what(o)}: ${terms(o)}`,
    [["Withdraw", () => acts.answer(o.offer, false)]])));
    $("post-made-title").hidden = $("post-made").hidden = !made.length;
    const anyone = m.offers.filter((o) => o.open).length, mine = m.offers.length - anyone;
    $("post-offers-title").hidden = !m.offers.length;
    $("post-offers-title").textContent = !anyone ? "Offers to you" : mine ? "Offers to you and to anyone" : "Offers to anyone";
    const waits = m.games.filter((g) => g.to_move !== "them").length;
    const under = m.games.length ? `${plural(m.games.length, "game")} under way, ${waits} waiting on you` : "No game under way";
    const open = anyone ? `; ${plural(anyone, "offer")} to anyone` : "";
    const yours = made.length ? `; ${plural(made.length, "offer")} of yours open` : "";
    $("post-count").textContent = `${under}; ${mine ? plural(mine, "offer") : "no offer"} to you${open}${yours}.`;
    for (const id of ["join", "lobby", "game", "reviewed", "cups", "cup"]) $(id).hidden = true;
    $("post").hidden = false; $("menu").hidden = false;
    if (!keep) $("post-title").focus();
  }
  function news(text) { $("post-news").textContent = text; }   // the live region: waiting, your_move
  function offerAsked() {   // the form's offer, or null (the field at fault said and focused)
    const asked = { type: "offer", days: Number($("post-days").value), runs: $("post-runs").value,
      best_of: Number($("post-best-of").value), rated: $("post-rated").value === "yes" };
    if ($("post-anyone").checked) { $("post-name").removeAttribute("aria-invalid"); return asked; }
    const name = $("post-name").value.trim();
    if (!name) { $("post-name").setAttribute("aria-invalid", "true"); $("post-name").focus(); return null; }
    $("post-name").removeAttribute("aria-invalid");
    return { ...asked, name };
  }
  function awayAsked() {   // the days away asked for, or null (not a whole number from 1 to 366)
    const text = $("away-days").value.trim();
    if (!/^\d{1,3}$/.test(text) || Number(text) < 1 || Number(text) > 366) {
      $("away-days").setAttribute("aria-invalid", "true"); $("away-days").focus(); return null;
    }
    $("away-days").removeAttribute("aria-invalid");
    return { type: "away", days: Number(text) };
  }
  function anyoneChanged() {   // an offer to anyone names nobody: the name field is off while it is ticked
    $("post-name").disabled = $("post-anyone").checked;
  }
  function buildDays() {
    $("post-days").replaceChildren(...DAYS.map((d) => {
      const o = document.createElement("option"); o.value = String(d); o.textContent = plural(d, "day");
      o.selected = d === FIRST_DAYS; return o;
    }));
  }
  return { leftWords, gameLine, show, news, offerAsked, awayAsked, anyoneChanged, buildDays };
})();
