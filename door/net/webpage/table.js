// The card table: the door's game protocol (docs/protocol.md) drawn as cards,
// for a tap or a click; what happens is also said in a live region, in the
// sentences of the door's screen-reader mode.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const SUITS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
  const RANK_NAMES = { A: "ace", T: "ten", J: "jack", Q: "queen", K: "king" };
  let ws = null, seat = 0, target = 121, hand = [], chosen = [], asked = null, scores = [0, 0], names = ["You", "Computer"];
  let mode = "computer", bestOf = 1, rated = false, terms = null;   // "people": the match asked for, and the table's
  let welcomed = false, registered = false, watching = false;   // watching: a game between two others

  const label = (c) => `${RANK_NAMES[c[0]] || c[0]} of ${SUIT_NAMES[c[1]]}`;
  const face = (c) => `${c[0] === "T" ? "10" : c[0]}${SUITS[c[1]]}`;
  function cardElement(c, tag) {
    const el = document.createElement(tag);
    el.className = "card" + (c[1] === "D" || c[1] === "H" ? " red" : "");
    el.textContent = face(c);
    el.dataset.card = c;
    el.setAttribute("aria-label", label(c));
    return el;
  }
  function say(lines) {
    for (const line of lines) {
      const li = document.createElement("li");
      li.textContent = line;
      $("log").appendChild(li);
    }
    while ($("log").children.length > 40) $("log").firstChild.remove();
    $("log").scrollTop = $("log").scrollHeight;
  }
  function drawScores() {
    const me = seat, them = 1 - seat;
    $("me-score").textContent = scores[me];
    $("them-score").textContent = scores[them];
    $("me-peg").style.width = `${Math.min(100, (100 * scores[me]) / target)}%`;
    $("them-peg").style.width = `${Math.min(100, (100 * scores[them]) / target)}%`;
    $("scores").setAttribute("aria-label", `Scores: you ${scores[me]}, ${names[them]} ${scores[them]}, of ${target}`);
  }
  function drawHand() {
    const box = $("hand");
    box.replaceChildren();
    const playable = asked && asked.ask === "play" ? asked.playable : null;
    const counting = asked && asked.ask === "count";   // (the hand or crib to count, face up, not what is left after the play)
    if (counting) asked.cards.forEach((c) => box.appendChild(cardElement(c, "span")));   // (face up, not to tap)
    (counting ? [] : hand).forEach((c, i) => {
      const b = cardElement(c, "button");
      b.type = "button";
      b.setAttribute("aria-keyshortcuts", String(i + 1));
      if (asked && asked.ask === "discard") {
        b.setAttribute("aria-pressed", chosen.includes(c) ? "true" : "false");
        b.addEventListener("click", () => choose(c));
      } else if (playable) {
        b.disabled = !playable.includes(c);
        b.addEventListener("click", () => { send({ type: "play", card: c }); wait(); });
      } else {
        b.disabled = true;
      }
      box.appendChild(b);
    });
    $("lay").hidden = !(asked && asked.ask === "discard");
    $("lay").disabled = chosen.length !== 2;
    for (const id of ["claim-label", "claim", "claim-go"]) $(id).hidden = !(asked && asked.ask === "count");
  }
  function choose(c) {
    chosen = chosen.includes(c) ? chosen.filter((x) => x !== c) : [...chosen, c].slice(-2);
    drawHand();
  }
  function wait() { asked = null; chosen = []; $("prompt").textContent = ""; drawHand(); }
  function send(message) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); }
  function peg(s, points) { scores[s] = Math.min(target, scores[s] + points); drawScores(); }   // (the game ends at the target)
  function played(c) {
    $("played").appendChild(cardElement(c, "span"));
  }

  function onEvent(m) {
    if (m.said && m.said.length) say(m.said);
    switch (m.event) {
      case "deal":
        hand = m.hand.slice(); $("played").replaceChildren(); $("shows").replaceChildren(); $("starter").textContent = "none yet";
        $("count").textContent = "0";
        $("dealer").textContent = m.dealer === seat ? "Your crib." : `${names[m.dealer]}'s crib.`;
        break;
      case "discard": if (m.seat === seat && m.cards) hand = hand.filter((c) => !m.cards.includes(c)); break;
      case "starter": $("starter").textContent = face(m.card); $("starter").setAttribute("aria-label", label(m.card));
        if (m.heels) peg(m.dealer, m.heels); break;
      case "card":
        if (m.seat === seat) hand = hand.filter((c) => c !== m.card);
        played(m.card); $("count").textContent = String(m.count);
        for (const p of m.pegs) peg(m.seat, p.points);
        break;
      case "peg": for (const p of m.pegs) peg(m.seat, p.points); break;
      case "reset": $("played").replaceChildren(); $("count").textContent = "0"; break;
      case "show": peg(m.seat, m.pegged); peg(1 - m.seat, m.muggins); drawShow(m); break;
      case "replay": scores = m.scores.slice(); drawScores(); break;
    }
    drawHand();
  }
  function onMessage(m) {
    switch (m.type) {
      case "hello": {
        const login = { type: "login", name: $("name").value.trim() };
        if ($("password").value) login.password = $("password").value;
        send(login); break;
      }
      case "welcome":
        welcomed = true; registered = !m.guest; names[seat] = m.name; $("password").value = "";
        $("status").textContent = m.guest ? `Playing as ${m.name}, a guest.` : `Logged in as ${m.name}: your games are kept.`;
        begin(); break;
      case "lobby": $("reviewed").hidden = true; showLobby(m.players, m.games || []); break;
      case "challenged":   // someone challenges this table: the offer, to accept or decline
        $("offer-text").textContent = `${m.name} challenges you to ${m.offer}. You have ${m.seconds} seconds to answer.`;
        $("offer").hidden = false; $("accept").focus(); break;
      case "watching":   // a game between two others: both hands hidden until the show, nothing to answer
        watching = true; seat = 0; names = m.players.slice(); target = m.game_to; scores = m.scores.slice(); hand = [];
        $("me-name").textContent = names[0]; $("them-name").textContent = names[1];
        $("join").hidden = true; $("lobby").hidden = true; $("reviewed").hidden = true; $("game").hidden = false;
        $("again").hidden = true; $("talk").hidden = true; $("stop").hidden = false; $("match").hidden = true;
        $("log").replaceChildren(); $("played").replaceChildren(); $("shows").replaceChildren();
        $("status").textContent = `Watching ${names[0]} against ${names[1]}, game #${m.game}, to ${m.game_to}.`;
        drawScores(); drawHand(); $("stop").focus(); break;
      case "table":
        watching = false; $("stop").hidden = true; $("talk").hidden = false;
        seat = m.seat; names = m.players.slice(); target = m.game_to; scores = [0, 0];
        terms = m.best_of > 1 ? { bestOf: m.best_of, rated: m.rated, wins: terms ? terms.wins : [0, 0] } : null;
        $("me-name").textContent = "You"; $("them-name").textContent = names[1 - seat];
        $("join").hidden = true; $("lobby").hidden = true; $("offer").hidden = true; $("reviewed").hidden = true;
        $("game").hidden = false; $("again").hidden = true;
        $("match").hidden = !terms; if (terms) drawMatch(terms.wins);
        $("status").textContent = `Game #${m.game}, to ${m.game_to}.`; drawScores(); break;
      case "state": scores = m.scores.slice(); hand = m.hand.slice(); drawScores(); drawHand(); break;
      case "event": onEvent(m); break;
      case "ask":
        asked = m; chosen = [];
        $("prompt").textContent = m.ask === "discard" ? "Choose two cards for the crib, then Lay away."
          : m.ask === "play" ? `Your turn at ${m.count}: tap a card to play it.`
          : `Count your ${m.what}: how many points?`;
        if (m.ask === "count") { $("claim").value = ""; }
        drawHand();
        if (m.ask === "count") $("claim").focus();
        break;
      case "error":
        $("status").textContent = `The door says: ${m.message}`;
        if (!welcomed) { ws.onclose = null; ws.close(); ws = null; $((m.field === "password") ? "password" : "name").focus(); }
        break;
      case "notice": say([m.text]); if (!$("lobby").hidden) $("status").textContent = m.text; break;
      case "chat": say([`${m.name} says: ${m.text}`]); break;
      case "game_over": {
        wait(); scores = m.scores.slice(); drawScores();
        const won = m.winner === seat;
        const line = `${won ? "You win" : `${names[m.winner]} wins`}, ${m.scores[m.winner]} to ${m.scores[1 - m.winner]}.`;
        $("prompt").textContent = line; $("status").textContent = line;
        if (terms && m.wins) { terms.wins = m.wins; drawMatch(m.wins); }
        if (terms && m.wins && Math.max(...m.wins) <= terms.bestOf / 2) break;   // the match goes on: the next game comes
        terms = null;
        $("again").textContent = mode === "people" ? "Play someone again" : mode === "daily" ? "Play the computer" : "Play again";
        if (mode === "daily") mode = "computer";   // (today's deal is played once)
        $("again").hidden = false; $("review").hidden = !registered; $("again").focus();
        break;
      }
      case "ratings": {
        const row = (p, i) => `${i + 1}. ${p.name} ${p.rating} (RD ${p.rd}, ${p.matches} matches${p.provisional ? ", provisional" : ""})`;
        showLines("Ratings", ["People:", ...(m.people.length ? m.people.map(row) : ["nobody rated yet"]),
                              "Bots, rated among themselves:", ...(m.bots.length ? m.bots.map(row) : ["none rated yet"])]);
        break;
      }
      case "review": showLines(`Review of game #${m.game}`, m.lines); $("review").hidden = true; break;
      case "daily":   // today's ranking: after the deal, or at once when it was played today
        $("join").hidden = true; $("game").hidden = false; $("again").hidden = false;
        if (mode === "daily") { mode = "computer"; $("again").textContent = "Play the computer"; }
        showLines(`Today's deal, ${m.day}`, m.lines); break;
      case "menu":   // the table is done with this seat: after a result, or with none (the other player left)
        if (watching) {   // (watching ended: by Stop, the game's end, or a player refusing watchers)
          watching = false; $("stop").hidden = true; $("talk").hidden = false; $("game").hidden = true;
          send({ type: "lobby" });
        } else if (!$("game").hidden && $("again").hidden) {
          wait(); terms = null;
          $("prompt").textContent = "The game is over: the other player left.";
          $("again").textContent = mode === "people" ? "Play someone again" : "Play again";
          $("again").hidden = false; $("again").focus();
        }
        break;
      case "bye": $("status").textContent = m.text; break;
    }
  }
  function showLines(title, lines) {   // the review, or today's ranking, under a heading that takes the focus
    const list = $("review-lines");
    list.replaceChildren();
    for (const line of lines) {
      if (!line.trim()) continue;
      const li = document.createElement("li"); li.textContent = line.trim(); list.appendChild(li);
    }
    $("review-title").textContent = title;
    $("reviewed").hidden = false; $("review-title").focus();
  }
  function drawShow(m) {   // a hand or the crib face up with the starter, and what it counts, item by item
    const box = document.createElement("div"), title = document.createElement("p"), row = document.createElement("div");
    box.className = "shown";
    const whose = m.seat === seat && !watching ? "Your" : `${names[m.seat]}'s`;
    title.textContent = `${whose} ${m.what}: ${m.total} point${m.total === 1 ? "" : "s"}`;
    row.className = "cards";
    for (const c of m.cards) row.appendChild(cardElement(c, "span"));
    const cut = cardElement(m.starter, "span");
    cut.classList.add("starter"); cut.setAttribute("aria-label", `starter: ${label(m.starter)}`);
    row.appendChild(cut);
    const items = document.createElement("ul");
    for (const it of m.items) {
      const li = document.createElement("li");
      li.textContent = `${it.kind} ${it.cards.map(face).join(" ")}: ${it.points}`;
      items.appendChild(li);
    }
    box.append(title, row, items);
    $("shows").appendChild(box);
  }
  function drawMatch(wins) {
    const what = `${terms.rated ? "Rated best" : "Best"} of ${terms.bestOf}`;
    $("match").textContent = `${what}: you ${wins[seat]}, ${names[1 - seat]} ${wins[1 - seat]}.`;
  }
  function begin() {   // logged in: the computer at once, or who there is to play
    if (mode === "people") send({ type: "lobby" });
    else if (mode === "daily") send({ type: "daily" });
    else send({ type: "play_computer", game_to: target });
  }
  function showLobby(players, watchable = []) {
    $("join").hidden = true; $("game").hidden = true; $("lobby").hidden = false;
    const list = $("players");
    list.replaceChildren();
    for (const p of players) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.type = "button";
      b.textContent = `Challenge ${p.name}${p.bot ? " (a bot)" : p.guest ? " (a guest)" : ""}`;
      b.addEventListener("click", () => {
        send(rated ? { type: "challenge", name: p.name, best_of: 3, rated: true } : { type: "challenge", name: p.name, best_of: bestOf });
        $("status").textContent = `You challenged ${p.name}: waiting for an answer.`;
      });
      li.appendChild(b); list.appendChild(li);
    }
    const games = $("games");
    games.replaceChildren();
    for (const g of watchable) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.type = "button"; b.textContent = `Watch ${g.players[0]} against ${g.players[1]}`;
      b.addEventListener("click", () => send({ type: "watch", player: g.players[0] }));
      li.appendChild(b); games.appendChild(li);
    }
    $("status").textContent = players.length ? "Choose whom to challenge." : "Nobody is at the door's menu now: look again in a moment.";
    (list.querySelector("button") || $("refresh")).focus();
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${scheme}//${location.host}/api/v1/play`);
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = () => { $("status").textContent = "The door closed the connection."; };
    $("status").textContent = "Connecting...";
  }

  function start(how) {
    if (!$("name").value.trim()) { $("status").textContent = "Type your name first."; $("name").focus(); return; }
    target = Number($("target").value); rated = $("best").value === "R"; bestOf = rated ? 3 : Number($("best").value);
    mode = how; welcomed = false; connect();
  }
  $("start").addEventListener("click", () => start("computer"));
  $("people").addEventListener("click", () => start("people"));
  $("daily").addEventListener("click", () => start("daily"));
  $("refresh").addEventListener("click", () => send({ type: "lobby" }));
  $("wait").addEventListener("click", () => {
    const on = $("wait").getAttribute("aria-pressed") !== "true";
    $("wait").setAttribute("aria-pressed", String(on));
    $("wait").textContent = on ? "Waiting to be challenged (tap to stop)" : "Wait here to be challenged";
    send({ type: "available", on });
  });
  $("ratings").addEventListener("click", () => send({ type: "ratings" }));
  $("stop").addEventListener("click", () => send({ type: "stop" }));
  $("page").addEventListener("click", () => send({ type: "page", reason: "a game at the card table" }));
  $("accept").addEventListener("click", () => { $("offer").hidden = true; send({ type: "accept" }); });
  $("decline").addEventListener("click", () => { $("offer").hidden = true; send({ type: "decline" }); });
  $("computer").addEventListener("click", () => { mode = "computer"; begin(); });
  $("talk").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("chat").value.trim();
    if (text) { send({ type: "chat", text }); say([`You say: ${text}`]); $("chat").value = ""; }
  });
  $("lay").addEventListener("click", () => { if (chosen.length === 2) { send({ type: "discard", cards: chosen }); wait(); } });
  $("claim-go").addEventListener("click", () => {
    const points = Number($("claim").value);
    if (Number.isInteger(points) && points >= 0 && points <= 29) { send({ type: "claim", points }); wait(); }
  });
  $("again").addEventListener("click", () => {
    $("again").hidden = true; $("review").hidden = true; $("reviewed").hidden = true; $("log").replaceChildren();
    $("again").textContent = "Play again"; begin();
  });
  $("review").addEventListener("click", () => { send({ type: "review" }); $("status").textContent = "Reviewing every discard, card and count..."; });
  document.addEventListener("keydown", (e) => {   // a desktop's keys: 1-6 a card, RETURN the action
    if (e.target instanceof HTMLInputElement) { if (e.key === "Enter" && asked && asked.ask === "count") $("claim-go").click(); return; }
    const n = Number(e.key);
    if (n >= 1 && n <= hand.length) { const b = $("hand").children[n - 1]; if (b && !b.disabled) b.click(); }
    else if (e.key === "Enter" && asked && asked.ask === "discard") $("lay").click();
  });
  window.cribbageTable = { get hand() { return hand.slice(); }, get asked() { return asked; } };
})();
