// The card table: the door's game protocol (docs/protocol.md) drawn as cards,
// for a tap, a click or the keys; what happens is also said in a live region,
// in the sentences of the door's screen-reader mode, each event once, with the scores.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { cardName, cardNames, face, named, cardElement, glyphsAndNames } = window.cribbageCards;
  const { buildBoard: boardFor, placePegs } = window.cribbageBoard;
  const lists = window.cribbageLists, post = window.cribbageCorrespondence, cups = window.cribbageTournaments;
  const who = (s) => (s === seat && !watching ? "you" : names[s]);
  const whose = (s) => (s === seat && !watching ? "Your" : `${names[s]}'s`);
  const DIGEST = /\b[0-9a-f]{64}\b/;   // a seed or a digest: read only when asked (Verify)
  const SETTINGS_KEY = "cribbage-table-settings", GUEST_KEY = "cribbage-table-guest";   // (a guest's name and resume token)
  let ws = null, seat = 0, target = 121, hand = [], chosen = [], picked = null, asked = null;
  let dealer = 0, scores = [0, 0], backs = [-1, -1], names = ["You", "Computer"], theirs = 0, cursor = null;
  let mode = "computer", bestOf = 1, rated = false, terms = null;   // "people": the match asked for, and the table's
  let welcomed = false, registered = false, watching = false;   // watching: a game between two others
  let handedOver = false;   // this hand's pegging is the computer's (until the next deal)
  let sitting = false;   // at a game by correspondence: until it waits on the other player (waiting)
  let login = null;   // the login sent: a password of 64 hex digits goes as a bot's token first
  const TOKEN = /^[0-9a-f]{64}$/;
  let held = null, beginning = null, shown = false, history = null, hinted = [];   // held: messages kept back while the show stays
  const settings = Object.assign({ confirm: true, sound: false, theme: "auto" },
                                 JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}"));
  const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // -- what is said: the live region, each line once, seeds kept for Verify
  function say(lines) {
    for (const line of lines) {
      if (DIGEST.test(line)) verify(line);
      const li = document.createElement("li");
      li.textContent = line.replace(new RegExp(DIGEST, "g"), "(its digits under Verify)");
      $("log").appendChild(li);
    }
    while ($("log").children.length > 40) $("log").firstChild.remove();
    $("log").scrollTop = $("log").scrollHeight;
  }
  function verify(line) {   // a line with seeds, its digits in groups of four, under Verify
    const li = document.createElement("li");
    li.textContent = line.replace(new RegExp(DIGEST, "g"), (d) => d.match(/.{4}/g).join(" "));
    $("verify-lines").appendChild(li); $("verify").hidden = false;
  }
  const totals = () => `${watching ? names[0] : "You"} ${scores[seat]}, ${names[1 - seat]} ${scores[1 - seat]}.`;
  function note(text) { $("status").textContent = text; note.slip = false; }
  function slip(text) { note(text); note.slip = true; }   // a choice refused or pending: cleared by the next question
  function beep(high) {
    if (!settings.sound || !window.AudioContext) return;
    const audio = beep.audio || (beep.audio = new AudioContext()), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = high ? 880 : 440; gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination); tone.start(); tone.stop(audio.currentTime + 0.12);
  }

  // -- the pegboard (table-board.js) and the scores
  function buildBoard() { $("board").replaceChildren(...boardFor(target)); drawScores(); }
  function drawScores() {
    const me = seat, them = 1 - seat;
    $("me-score").textContent = scores[me];
    $("them-score").textContent = scores[them];
    const words = `you ${scores[me]}, ${names[them]} ${scores[them]}, of ${target}`;
    $("scores").setAttribute("aria-label", `Scores: ${words}`);
    const board = $("pegboard");
    if (!board) return;
    board.setAttribute("aria-label", `Pegboard: ${words}`);
    placePegs(target, { me: [scores[me], backs[me]], them: [scores[them], backs[them]] });
  }
  function peg(s, points) {   // (the game ends at the target)
    if (points <= 0) return false;
    backs[s] = scores[s]; scores[s] = Math.min(target, scores[s] + points); drawScores();
    return true;
  }

  // -- the hand: arrows move between the cards, 1-6 choose one; a choice is confirmed (unless the settings say not)
  // Its elements are kept while its cards stay (the other player's move redraws it): a card under a finger or a
  // pressed mouse button is still there at the release, so the click lands on it (one listener on the box).
  function drawHand() {
    const box = $("hand"), active = document.activeElement, inHand = box.contains(active) || active === box;
    const focused = inHand && active.dataset ? active.dataset.card : null;
    const ask = asked ? asked.ask : null, counting = ask === "count", cards = counting ? asked.cards : hand;
    const tag = counting ? "SPAN" : "BUTTON", now = [...box.children];
    if (now.length !== cards.length || now.some((el, i) => el.tagName !== tag || el.dataset.card !== cards[i]))
      box.replaceChildren(...cards.map((c) => cardElement(c, tag.toLowerCase())));
    box.setAttribute("aria-label", counting ? `The ${asked.what} to count` : "Your cards");
    if (!counting) [...box.children].forEach((b, i) => {
      const c = b.dataset.card, choosing = ask === "discard" || (ask === "play" && asked.playable.includes(c));
      b.type = "button"; b.tabIndex = -1; b.disabled = !choosing;
      b.setAttribute("aria-keyshortcuts", String(i + 1));
      if (choosing) b.setAttribute("aria-pressed", (ask === "discard" ? chosen.includes(c) : picked === c) ? "true" : "false");
      else b.removeAttribute("aria-pressed");
    });
    const enabled = [...box.querySelectorAll("button:not([disabled])")];
    const current = enabled.find((b) => b.dataset.card === (focused || cursor)) || enabled[0];
    if (current) current.tabIndex = 0;
    if (inHand) (current || $("prompt")).focus();
    $("lay").hidden = ask !== "discard";
    $("lay").disabled = chosen.length !== 2;
    $("play-go").hidden = !(ask === "play" && settings.confirm);
    $("play-go").disabled = !picked;
    $("claiming").hidden = ask !== "count";
    $("hint").hidden = !(ask === "discard" || ask === "play");
    $("peg-for-me").hidden = !(sitting && (ask === "discard" || ask === "play") && !handedOver);
    $("advice").hidden = watching || !$("again").hidden;
    for (const b of box.children) b.classList.toggle("hinted", hinted.includes(b.dataset.card));
  }
  function choose(c) {   // a discard: a third card is refused, not swapped in
    if (chosen.includes(c)) chosen = chosen.filter((x) => x !== c);
    else if (chosen.length === 2) { slip("Two cards are chosen: tap one of them to put it back first."); return; }
    else chosen = [...chosen, c];
    cursor = c; slip(chosen.length ? `Chosen: ${cardNames(chosen)}.` : "None chosen.");
    drawHand();
    if (chosen.length === 2) { if (settings.confirm) $("lay").focus(); else layAway(); }
  }
  function pick(c) {
    if (!settings.confirm) { playCard(c); return; }
    picked = picked === c ? null : c; cursor = c;
    slip(picked ? `${cardName(c)}: Play to play it, or choose another.` : "None chosen.");
    drawHand();
    if (picked) $("play-go").focus();
  }
  function playCard(c) { send({ type: "play", card: c }); waiting(); }
  function layAway() { if (chosen.length === 2) { send({ type: "discard", cards: chosen }); waiting(); } }
  function moveCursor(key) {
    const cards = [...$("hand").querySelectorAll("button:not([disabled])")];
    const at = cards.indexOf(document.activeElement);
    if (!cards.length) return;
    const next = key === "Home" ? 0 : key === "End" ? cards.length - 1
      : (at + (key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1) + cards.length) % cards.length;
    cards.forEach((b, i) => { b.tabIndex = i === next ? 0 : -1; });
    cards[next].focus(); cursor = cards[next].dataset.card;
  }
  function stopClock() { clearInterval(drawClock.timer); if ($("clock")) $("clock").textContent = ""; }
  function waiting() {   // answered: the focus waits on the prompt until the next question
    asked = null; chosen = []; picked = null; stopClock();
    $("prompt").textContent = watching ? "" : `Waiting for ${names[1 - seat]}.`;
    drawHand(); $("prompt").focus();
  }
  function mayMoveFocus() {   // not while the player types or reads elsewhere
    const a = document.activeElement;
    return !a || a === document.body || a.closest("[hidden]") !== null || a === $("prompt") || $("hand").contains(a) || $("actions").contains(a);
  }
  function send(message) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message)); }

  // -- the claim: typed or tapped on the pad, never empty
  function buildPad() {
    for (let n = 0; n <= 29; n++) {
      const b = document.createElement("button");
      b.type = "button"; b.textContent = String(n); b.tabIndex = -1; b.setAttribute("aria-pressed", "false");
      b.addEventListener("click", () => { $("claim").value = String(n); markPad(); $("claim-go").focus(); });
      $("pad").appendChild(b);
    }
  }
  function markPad() {
    for (const b of $("pad").children) b.setAttribute("aria-pressed", String(b.textContent === $("claim").value.trim()));
    $("claim").removeAttribute("aria-invalid");
  }
  function claim() {
    const text = $("claim").value.trim();
    if (!/^\d{1,2}$/.test(text) || Number(text) > 29) {
      $("claim").setAttribute("aria-invalid", "true");
      slip(text ? `${text} is not a count: type or tap 0 to 29.` : "Type or tap the points first: nothing is claimed yet.");
      $("claim").focus();
      return;
    }
    send({ type: "claim", points: Number(text) }); waiting();
  }

  // -- the hands' history, and the other's cards face down
  function drawTheirs() {
    const them = 1 - seat;
    $("theirs").hidden = watching;
    $("theirs-text").textContent = `${names[them]} holds ${theirs} card${theirs === 1 ? "" : "s"}.`;
    $("backs").replaceChildren(...Array.from({ length: theirs }, () => {
      const b = document.createElement("span"); b.className = "back-card"; return b;
    }));
  }
  function closeHand() {   // the hand's row in the history: what each pegged in it, and the totals
    if (!history || !history.open) return;
    const row = document.createElement("tr"), h = history.open;
    const cells = [String(h.number), h.dealer === seat ? "yours" : names[h.dealer],
                   `+${scores[seat] - h.from[seat]} (${scores[seat]})`, `+${scores[1 - seat] - h.from[1 - seat]} (${scores[1 - seat]})`];
    cells.forEach((text, i) => {
      const cell = document.createElement(i ? "td" : "th");
      if (!i) cell.scope = "row";
      cell.textContent = text; row.appendChild(cell);
    });
    $("history").tBodies[0].appendChild(row); $("history").hidden = false;
    history.open = null;
  }

  function onEvent(m) {
    let lines = m.said || [], pegged = false;
    switch (m.event) {
      case "deal":
        closeHand(); history = history || { open: null };
        history.open = { number: m.hand_number || $("history").tBodies[0].rows.length + 1, dealer: m.dealer, from: scores.slice() };
        hand = m.hand.slice(); theirs = m.hand.length; shown = false; dealer = m.dealer; handedOver = false;
        $("played").replaceChildren(); $("shows").replaceChildren();
        $("starter").textContent = "none yet"; $("starter").setAttribute("aria-label", "none yet");
        $("count").textContent = "0"; $("count-fact").hidden = false;
        $("dealer").textContent = m.dealer === seat && !watching ? "Your crib." : `${names[m.dealer]}'s crib.`;
        break;
      case "discard":
        if (m.seat === seat && m.cards) hand = hand.filter((c) => !m.cards.includes(c));
        if (m.seat !== seat) theirs = Math.max(0, theirs - 2);
        break;
      case "starter":
        $("starter").textContent = face(m.card); $("starter").setAttribute("aria-label", cardName(m.card));
        if (m.heels) pegged = peg(m.dealer, m.heels);
        break;
      case "card": {
        if (m.seat === seat) hand = hand.filter((c) => c !== m.card); else theirs = Math.max(0, theirs - 1);
        const el = cardElement(m.card, "span", `${who(m.seat)}: ${cardName(m.card)}`);
        el.classList.add(m.seat === seat ? "by-me" : "by-them");
        $("played").appendChild(el); $("count").textContent = String(m.count);
        for (const p of m.pegs) pegged = peg(m.seat, p.points) || pegged;
        break;
      }
      case "peg": for (const p of m.pegs) pegged = peg(m.seat, p.points) || pegged; break;
      case "reset": $("played").replaceChildren(); $("count").textContent = "0"; break;
      case "show": {
        $("count-fact").hidden = true; shown = true;
        pegged = peg(m.seat, m.pegged); pegged = peg(1 - m.seat, m.muggins) || pegged;
        drawShow(m);
        const title = `${whose(m.seat)} ${m.what}`;
        if (lines.length && !lines[0].startsWith(title)) lines = [`${title}: ${lines[0]}`, ...lines.slice(1)];
        break;
      }
      case "computer_pegs": if (m.seat === seat) handedOver = true; break;   // (said by its line)
      case "replay": scores = m.scores.slice(); backs = [-1, -1]; drawScores(); pegged = true; break;
    }
    if (pegged && lines.length && m.event !== "over") {
      lines = [...lines.slice(0, -1), `${lines[lines.length - 1]} ${totals()}`];
      beep(false);
    }
    if (lines.length) say(lines);
    drawTheirs(); drawHand();
  }
  function onMessage(m) {   // while the show stays, what follows waits for Continue (a chat is shown at once)
    if (held && m.type === "clock") { drawClock(m.seat, m.seconds); return; }   // (a clock runs while the show stays)
    if (held && m.type === "ask" && m.seconds_left !== undefined) drawClock(seat, m.seconds_left);
    if (held && m.type !== "chat") { held.push(m); return; }
    if ((m.type === "event" && m.event === "deal" || m.type === "table") && shown && !watching) {
      held = [m]; $("continue").hidden = false;   // (the next hand, or a match's next game: after the show)
      $("prompt").textContent = `The show: Continue for the next ${m.type === "table" ? "game" : "hand"}.`;
      if (mayMoveFocus()) $("continue").focus();
      return;
    }
    route(m);
  }
  function carryOn() {
    const queue = held || [];
    held = null; $("continue").hidden = true; shown = false;
    $("prompt").focus();
    while (queue.length) { const m = queue.shift(); if (held) held.push(m); else route(m); }
  }
  function route(m) {
    switch (m.type) {
      case "hello": {
        const guest = storedGuest(), typed = $("password").value;
        login = { type: "login", name: $("name").value.trim() };
        if (TOKEN.test(typed)) login.token = typed; else if (typed) login.password = typed;
        if (mode === "password" && account.fresh) { login.new_password = account.fresh; account.fresh = null; }
        else if (guest && guest.name.toLowerCase() === login.name.toLowerCase()) login.resume = guest.token;
        send(login); break;
      }
      case "welcome":
        if (welcomed) {   // welcomed again: registered at the table
          registered = !m.guest; localStorage.removeItem(GUEST_KEY); dailyOffered();
          note(`Registered as ${m.name}: your games are kept. Choose Play.`); $("start").focus();
          break;
        }
        welcomed = true; registered = !m.guest; names[seat] = m.name; $("password").value = "";
        if (m.guest && m.resume) localStorage.setItem(GUEST_KEY, JSON.stringify({ name: m.name, token: m.resume }));
        if (mode === "register") { account(m); break; }
        if (mode === "password") { mode = "computer"; break; }   // (changed: the notice said so; a kept game comes by itself)
        note(m.guest ? `Playing as ${m.name}, a guest.` : `Logged in as ${m.name}: your games are kept.`);
        // a kept game (a registered caller's, or a guest's after a reload) comes by itself, at once: ask for nothing over it
        beginning = setTimeout(() => { beginning = null; if (mode === "resume") missed(); else begin(); },
                               registered || mode === "resume" ? 400 : 0);
        break;
      case "lobby": $("reviewed").hidden = true; showLobby(m.players, m.games || []); break;
      case "challenged":   // someone challenges this table: the offer, to accept or decline
        $("offer-text").textContent = `${m.name} challenges you to ${m.offer}. You have ${m.seconds} seconds to answer.`;
        $("offer").hidden = false; $("accept").focus(); break;
      case "watching":   // a game between two others: both hands hidden until the show, nothing to answer
        watching = true; seat = 0; names = m.players.slice(); target = m.game_to; scores = m.scores.slice(); hand = [];
        backs = [-1, -1];
        $("them-name").textContent = names[1];
        document.querySelector(".who.me").textContent = names[0];
        $("join").hidden = true; $("lobby").hidden = true; $("reviewed").hidden = true; $("game").hidden = false;
        $("again").hidden = true; $("talk").hidden = true; $("stop").hidden = false; $("match").hidden = true;
        $("log").replaceChildren(); $("played").replaceChildren(); $("shows").replaceChildren();
        note(`Watching ${names[0]} against ${names[1]}, game #${m.game}, to ${m.game_to}.`);
        buildBoard(); drawHand(); drawTheirs(); $("stop").focus(); break;
      case "table":
        cancelBeginning();
        watching = false; $("stop").hidden = true; $("talk").hidden = false;
        seat = m.seat; names = m.players.slice(); target = m.game_to; scores = [0, 0]; backs = [-1, -1];
        terms = m.best_of > 1 ? { bestOf: m.best_of, rated: m.rated, wins: terms ? terms.wins : [0, 0] } : null;
        document.querySelector(".who.me").textContent = "You"; $("them-name").textContent = names[1 - seat];
        $("history-them").textContent = names[1 - seat];
        $("join").hidden = true; $("lobby").hidden = true; $("offer").hidden = true; $("reviewed").hidden = true;
        $("post").hidden = true; $("game").hidden = false; $("again").hidden = true; $("menu").hidden = false;
        $("shows").replaceChildren(); $("played").replaceChildren(); shown = false;
        history = { open: null }; $("history").tBodies[0].replaceChildren(); $("history").hidden = true;
        $("match").hidden = !terms; if (terms) drawMatch(terms.wins);
        note(`Game #${m.game}, to ${m.game_to}.`); buildBoard(); break;
      case "state":   // a game resumed: where it stands
        scores = m.scores.slice(); hand = m.hand.slice(); theirs = hand.length; dealer = m.dealer;
        history = { open: { number: m.hand_number, dealer: m.dealer, from: scores.slice() } };
        $("dealer").textContent = m.dealer === seat ? "Your crib." : `${names[m.dealer]}'s crib.`;
        if (m.starter) { $("starter").textContent = face(m.starter); $("starter").setAttribute("aria-label", cardName(m.starter)); }
        $("count").textContent = String(m.count || 0);
        $("played").replaceChildren(...(m.series || []).map((c) => cardElement(c, "span")));
        drawScores(); drawHand(); drawTheirs(); break;
      case "event": onEvent(m); break;
      case "ask": {
        asked = m; chosen = []; picked = null; hinted = []; if (note.slip) note("");
        const confirm = settings.confirm;
        $("prompt").textContent = m.ask === "discard" ? `Choose two cards for ${dealer === seat ? "your" : `${names[dealer]}'s`} crib, then Lay away.`
          : m.ask === "play" ? `Your turn at ${m.count}: choose a card${confirm ? ", then Play" : " to play it"}.`
          : `Count ${m.what === "crib" ? "your crib" : "your hand"}: ${cardNames(m.cards)}, with the starter, the ${cardName(m.starter)}. How many points?`;
        if (m.ask === "count") { $("claim").value = ""; markPad(); }
        const move = mayMoveFocus();
        drawHand(); beep(true);
        if (move) {
          if (m.ask === "count") $("claim").focus();
          else { const first = $("hand").querySelector("button[tabindex='0']"); if (first) first.focus(); }
        }
        if (m.seconds_left !== undefined) drawClock(seat, m.seconds_left);
        break;
      }
      case "clock": drawClock(m.seat, m.seconds); break;
      case "advice": slip(m.notes.map(named).join(" ")); break;   // (said once, by the status)
      case "hint": {   // the computer's choice, as the screens' ?: its cards marked, said by name
        hinted = m.cards.slice(); slip(named(m.text)); drawHand();
        const first = [...$("hand").children].find((b) => hinted.includes(b.dataset.card) && !b.disabled);
        if (first && mayMoveFocus()) first.focus();
        break;
      }
      case "error":
        if (!welcomed && m.field === "token" && login && login.token) {   // not a bot's token: tried as a password
          const { token, ...rest } = login;
          login = { ...rest, password: token }; send(login); break;
        }
        note(`The door says: ${m.message}`);
        if (!welcomed) { ws.onclose = null; ws.close(); ws = null; $((m.field === "password") ? "password" : "name").focus(); }
        else if (!$("cups").hidden || !$("cup").hidden) $(!$("cups").hidden ? "cups-title" : "cup-title").focus();
        else if (!$("post").hidden) {   // (an offer or days away refused; an offer gone meanwhile: the list again)
          sitting = false;
          const field = { name: "post-name", days: "post-days", best_of: "post-best-of", rated: "post-rated" }[m.field]
            || (m.field === "offer" ? null : "post-title");
          if (field) $(field).focus(); else send({ type: "games" });
        }
        break;
      case "notice": {
        if (/ goes on\.$/.test(m.text)) cancelBeginning();
        if (m.text.startsWith("Your offer is made")) $("post-name").value = "";   // (a name refused stays, to put right)
        if (m.text.startsWith("Your offer to anyone is made")) { $("post-anyone").checked = false; post.anyoneChanged(); }
        if (/^Your offer (to anyone )?is made/.test(m.text) && !$("post").hidden) send({ type: "games" });   // (listed under Your offers)
        say([m.text]); if (!$("lobby").hidden || !$("join").hidden || !$("post").hidden || !$("cups").hidden) note(m.text);
        if (!$("cups").hidden && /^You are (in|out of) /.test(m.text)) send({ type: "tournaments" });   // (entered: the list again)
        break;
      }
      case "chat": say([`${m.name} says: ${m.text}`]); break;
      case "game_over": {
        const move = mayMoveFocus();
        asked = null; chosen = []; picked = null; drawHand(); stopClock();
        scores = m.scores.slice(); drawScores(); closeHand();
        const won = m.winner === seat;
        $("prompt").textContent = `${won ? "You win" : `${names[m.winner]} wins`}, ${m.scores[m.winner]} to ${m.scores[1 - m.winner]}.`;
        if (terms && m.wins) { terms.wins = m.wins; drawMatch(m.wins); }
        if (terms && m.wins && Math.max(...m.wins) <= terms.bestOf / 2) break;   // the match goes on: the next game comes
        terms = null;
        $("again").textContent = mode === "people" ? "Play someone again" : mode === "daily" ? "Play the computer"
          : mode === "post" ? "Your games by correspondence" : "Play again";
        sitting = false;
        if (mode === "daily") mode = "computer";   // (today's deal is played once)
        $("again").hidden = false; $("review").hidden = !registered; $("stats").hidden = !registered;
        if (move) $("prompt").focus();   // (the result, said once by the live region; never a stray RETURN on Play again)
        break;
      }
      case "ratings": lists.showRatings(m); break;
      case "stats": lists.showStats(m); break;
      case "review":
        note(""); $("review").hidden = true;
        if (m.decisions) lists.showReview(m); else lists.showLines(`Review of game #${m.game}`, m.lines);
        break;
      case "daily":   // today's ranking: after the deal, or at once when it was played today
        $("join").hidden = true; $("game").hidden = false; $("again").hidden = false;
        if (mode === "daily") { mode = "computer"; $("again").textContent = "Play the computer"; }
        if (m.ranking) lists.showRanking(m, verify); else lists.showLines(`Today's deal, ${m.day}`, m.lines);
        break;
      case "menu":   // the table is done with this seat: after a result, or with none (the other player left)
        if (sitting) break;   // (a game by correspondence waits on the other player: waiting comes next)
        if (watching) {   // (watching ended: by Stop, the game's end, or a player refusing watchers)
          watching = false; $("stop").hidden = true; $("talk").hidden = false; $("game").hidden = true;
          send({ type: "lobby" });
        } else if (!$("game").hidden && $("again").hidden) {
          asked = null; drawHand(); terms = null;
          $("prompt").textContent = "The game is over: the other player left.";
          $("again").textContent = mode === "people" ? "Play someone again" : "Play again";
          $("again").hidden = false; $("prompt").focus();
        }
        break;
      case "bye": note(m.text); break;
      case "games": sitting = false; if (note.slip) note(""); post.show(m, { open: sitDown, answer }); break;
      case "waiting":   // the game waits on the other player: said, then the list
        sitting = false; asked = null; stopClock(); drawHand(); post.news(m.text); send({ type: "games" }); break;
      case "tournaments": if (note.slip) note(""); cups.showList(m, cupActs); break;
      case "standings": cups.showStandings(m); break;
      case "your_move":   // a game came to wait on this player: said at once, the list drawn again if in view
        post.news(`Your move in your game with ${m.name}.`);
        if (!$("post").hidden) send({ type: "games" });
        break;
    }
  }
  function account(m) {   // logged in to register the name: no game asked for
    const pending = account.pending;
    account.pending = null; mode = "computer";
    if (!m.guest) note(`${m.name} is registered already.`);
    else if (pending) send(pending);
  }
  function accountAsked(kind) {   // Register, or Change my password: the new one typed twice, then log in for it
    const fresh = $("new-password").value, again = $("new-again").value, old = $("password").value;
    if (!$("name").value.trim()) { note("Type your name first."); $("name").focus(); return; }
    if (fresh.length < 6) { note("A password has at least 6 characters."); $("new-password").focus(); return; }
    if (fresh !== again) { note("The two new passwords differ: type them again."); $("new-again").focus(); return; }
    if (kind === "password" && !old) { note("Type your old password above first."); $("password").focus(); return; }
    $("new-password").value = ""; $("new-again").value = "";
    if (kind === "password") {   // (changed as the caller logs in: on a new connection)
      if (ws) { ws.onclose = null; ws.close(); ws = null; }
      account.fresh = fresh; mode = kind; welcomed = false; connect(); return;
    }
    const message = { type: "register", password: fresh };
    if (ws && welcomed && ws.readyState === WebSocket.OPEN) { send(message); return; }
    $("password").value = "";   // (a guest logs in, then registers)
    account.pending = message; mode = kind; welcomed = false; connect();
  }
  function storedGuest() {
    try { return JSON.parse(localStorage.getItem(GUEST_KEY) || "null"); } catch { return null; }
  }
  function missed() {   // a reload found no game going on: the first screen, the name typed
    if (ws) { ws.onclose = null; ws.close(); ws = null; }
    mode = "computer"; $("join").hidden = false; $("game").hidden = true;
    note("No game of yours is going on now: choose Play.");
  }
  function cancelBeginning() { if (beginning !== null) { clearTimeout(beginning); beginning = null; } }
  function drawClock(s, seconds) {   // a decision's clock, when the game has them: the seat's seconds left
    let clock = $("clock");
    if (!clock) {
      clock = document.createElement("p"); clock.id = "clock";
      $("facts").after(clock);
    }
    clearInterval(drawClock.timer);
    const ends = Date.now() + 1000 * Number(seconds);
    const tick = () => {
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      clock.textContent = `${s === seat ? "Your" : `${names[s]}'s`} clock: ${left} second${left === 1 ? "" : "s"}.`;
      if (!left) clearInterval(drawClock.timer);
    };
    tick(); drawClock.timer = setInterval(tick, 1000);
  }
  function drawShow(m) {   // a hand or the crib face up with the starter, and what it counts, item by item
    const box = document.createElement("div"), title = document.createElement("h2"), row = document.createElement("div");
    box.className = "shown";
    title.textContent = `${whose(m.seat)} ${m.what}: ${m.total} point${m.total === 1 ? "" : "s"}`;
    row.className = "cards"; row.setAttribute("role", "group"); row.setAttribute("aria-label", `${whose(m.seat)} ${m.what}`);
    for (const c of m.cards) row.appendChild(cardElement(c, "span"));
    const cut = cardElement(m.starter, "span", `the starter, ${cardName(m.starter)}`);
    cut.classList.add("starter");
    row.appendChild(cut);
    const items = document.createElement("ul");
    for (const it of m.items) {
      const li = document.createElement("li");
      li.append(`${it.kind}: `, glyphsAndNames(it.cards), `, ${it.points}`);
      li.dataset.cards = it.cards.join(" ");
      items.appendChild(li);
    }
    box.append(title, row, items);
    $("shows").appendChild(box);
    if (!reduced()) light(box, [...items.children], 0);
  }
  function light(box, items, i) {   // each item of the show in turn, its cards lit
    box.querySelectorAll(".lit").forEach((el) => el.classList.remove("lit"));
    if (i >= items.length || !box.isConnected) return;
    items[i].classList.add("lit");
    for (const c of items[i].dataset.cards.split(" ")) box.querySelectorAll(`.card[data-card="${c}"]`).forEach((el) => el.classList.add("lit"));
    setTimeout(() => light(box, items, i + 1), 900);
  }
  function drawMatch(wins) {
    const what = `${terms.rated ? "Rated best" : "Best"} of ${terms.bestOf}`;
    $("match").textContent = `${what}: you ${wins[seat]}, ${names[1 - seat]} ${wins[1 - seat]}.`;
  }
  function begin() {   // logged in: the computer at once, or who there is to play
    $("verify-lines").replaceChildren(); $("verify").hidden = true; $("verify").open = false;   // (the shuffle's notice comes first)
    if (mode === "people") send({ type: "lobby" });
    else if (mode === "daily") send({ type: "daily" });
    else if (mode === "post") send({ type: "games" });
    else if (mode === "cups") send({ type: "tournaments" });
    else send({ type: "play_computer", game_to: target });
  }
  function showLobby(players, watchable = []) {
    $("join").hidden = true; $("game").hidden = true; $("lobby").hidden = false; $("menu").hidden = false;
    $("lobby-stats").hidden = !registered;
    const list = $("players");
    list.replaceChildren();
    for (const p of players) {
      const li = document.createElement("li"), b = document.createElement("button");
      b.type = "button";
      b.textContent = `Challenge ${p.name}${p.bot ? " (a bot)" : p.guest ? " (a guest)" : ""}`;
      b.addEventListener("click", () => {
        send(rated ? { type: "challenge", name: p.name, best_of: 3, rated: true } : { type: "challenge", name: p.name, best_of: bestOf });
        note(`You challenged ${p.name}: waiting for an answer.`);
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
    note(players.length ? "Choose whom to challenge." : "Nobody is at the door's menu now: look again in a moment.");
    (list.querySelector("button") || $("refresh")).focus();
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${scheme}//${location.host}/api/v1/play`);
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = () => { note("The door closed the connection."); };
    note("Connecting...");
  }
  function toMenu() {   // back to the first screen (a registered caller's game against the computer is kept)
    if (ws) { ws.onclose = null; send({ type: "leave" }); ws.close(); ws = null; }
    held = null; asked = null; watching = false; welcomed = false; shown = false; cancelBeginning(); dailyOffered();
    sitting = false;
    for (const id of ["game", "lobby", "reviewed", "post", "cups", "cup", "menu", "continue"]) $(id).hidden = true;
    $("join").hidden = false; note(registered ? "Your game against the computer is kept for your next login." : "Choose Play.");
    $("start").focus();
  }

  function start(how) {
    if (!$("name").value.trim()) { note("Type your name first."); $("name").focus(); return; }
    target = Number($("target").value); rated = $("best").value === "R"; bestOf = rated ? 3 : Number($("best").value);
    mode = how;
    if (ws && welcomed && ws.readyState === WebSocket.OPEN) { begin(); return; }   // (logged in already: registered here)
    welcomed = false; connect();
  }
  function applySettings() {
    $("confirm-moves").checked = settings.confirm; $("sound").checked = settings.sound; $("theme").value = settings.theme;
    if (settings.theme === "auto") document.documentElement.removeAttribute("data-theme");
    else document.documentElement.dataset.theme = settings.theme;
  }
  function saveSettings() {
    settings.confirm = $("confirm-moves").checked; settings.sound = $("sound").checked; settings.theme = $("theme").value;
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); applySettings();
  }
  for (const id of ["confirm-moves", "sound", "theme"]) $(id).addEventListener("change", saveSettings);
  applySettings(); buildPad();
  const guest = storedGuest();
  if (guest) { $("name").value = guest.name; mode = "resume"; welcomed = false; connect(); }   // a reload: the game may go on
  $("start").addEventListener("click", () => start("computer"));
  $("people").addEventListener("click", () => start("people"));
  $("daily").addEventListener("click", () => start("daily"));
  $("mail").addEventListener("click", () => start("post"));
  post.buildDays();
  function sitDown(game) { sitting = true; $("log").replaceChildren(); send({ type: "open", game }); note("Opening the game..."); }
  function answer(offer, accept) {   // accepted: the game begins at once; declined or withdrawn: the list again
    send({ type: "answer", offer, accept });
    if (accept) { sitting = true; $("log").replaceChildren(); note("Accepted: the game begins."); } else send({ type: "games" });
  }
  $("post-offer").addEventListener("submit", (e) => {
    e.preventDefault();
    const offer = post.offerAsked();
    if (offer) send(offer); else note("Type the name of the caller to offer a game to.");
  });
  $("post-anyone").addEventListener("change", post.anyoneChanged);
  $("post-away").addEventListener("submit", (e) => {
    e.preventDefault();
    const away = post.awayAsked();
    if (away) { send(away); $("away-days").value = ""; } else note("Days away: type a whole number from 1 to 366.");
  });
  $("post-refresh").addEventListener("click", () => send({ type: "games" }));
  $("cups-go").addEventListener("click", () => start("cups"));
  const cupActs = {   // the tournaments' buttons: each answered by a notice (or an error), then the list again
    enter: (name) => send({ type: "enter", name }), withdraw: (name) => send({ type: "withdraw", name }),
    look: (name) => send({ type: "standings", name }),
  };
  for (const id of ["post-cups", "cups-refresh", "cup-back"]) $(id).addEventListener("click", () => send({ type: "tournaments" }));
  $("cups-post").addEventListener("click", () => { mode = "post"; send({ type: "games" }); });
  const dailyOffered = () => {   // (never to a guest)
    $("daily").disabled = $("mail").disabled = $("cups-go").disabled = !$("password").value && !(registered && welcomed);
  };
  $("password").addEventListener("input", dailyOffered); dailyOffered();
  $("menu").addEventListener("click", toMenu);
  $("register").addEventListener("click", () => accountAsked("register"));
  $("change").addEventListener("click", () => accountAsked("password"));
  $("refresh").addEventListener("click", () => send({ type: "lobby" }));
  $("wait").addEventListener("click", () => {
    const on = $("wait").getAttribute("aria-pressed") !== "true";
    $("wait").setAttribute("aria-pressed", String(on));
    $("wait").textContent = on ? "Waiting to be challenged (tap to stop)" : "Wait here to be challenged";
    send({ type: "available", on });
  });
  $("ratings").addEventListener("click", () => send({ type: "ratings" }));
  for (const id of ["stats", "lobby-stats"]) $(id).addEventListener("click", () => send({ type: "stats" }));
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
  $("lay").addEventListener("click", layAway);
  $("play-go").addEventListener("click", () => { if (picked) playCard(picked); });
  $("claim-go").addEventListener("click", claim);
  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("advice").addEventListener("click", () => send({ type: "advice" }));
  $("peg-for-me").addEventListener("click", () => {   // (a game by correspondence: the computer plays this hand's cards)
    send({ type: "peg_for_me" }); handedOver = true;
    if (asked && asked.ask === "play") asked = null;   // (no card of this hand is asked of us now)
    drawHand();
  });
  $("claim").addEventListener("input", markPad);
  $("continue").addEventListener("click", carryOn);
  $("again").addEventListener("click", () => {
    $("again").hidden = true; $("review").hidden = true; $("stats").hidden = true; $("reviewed").hidden = true;
    $("log").replaceChildren(); shown = false;
    $("again").textContent = "Play again"; begin();
  });
  $("review").addEventListener("click", () => { send({ type: "review" }); note("Reviewing every discard, card and count..."); });
  $("hand").addEventListener("click", (e) => {   // a card chosen (a discard) or picked (a play): whichever is asked
    const b = e.target.closest("button[data-card]");
    if (!b || b.disabled || !asked) return;
    if (asked.ask === "discard") choose(b.dataset.card);
    else if (asked.ask === "play" && asked.playable.includes(b.dataset.card)) pick(b.dataset.card);
  });
  $("hand").addEventListener("focusin", (e) => { if (e.target.dataset && e.target.dataset.card) cursor = e.target.dataset.card; });
  document.addEventListener("keydown", (e) => {   // the keys: arrows between the cards, 1-6 a card, C to continue
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) {
      if (t.id === "claim" && e.key === "Enter") { e.preventDefault(); claim(); }
      return;
    }
    if ($("game").hidden) return;   // (the table's keys are for the table: nothing asked of the door from a list)
    if ($("hand").contains(t) && ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(e.key)) {
      e.preventDefault(); moveCursor(e.key); return;
    }
    const n = Number(e.key);
    if (asked && asked.ask !== "count" && n >= 1 && n <= hand.length) {
      const b = $("hand").children[n - 1];
      if (b && !b.disabled) { e.preventDefault(); b.focus(); b.click(); }
    } else if (held && (e.key === "c" || e.key === "C")) { e.preventDefault(); carryOn(); }
    else if (e.key === "?" && !$("hint").hidden) { e.preventDefault(); $("hint").click(); }
    else if ((e.key === "a" || e.key === "A") && !$("advice").hidden) { e.preventDefault(); $("advice").click(); }
  });
  window.cribbageTable = { get hand() { return hand.slice(); }, get asked() { return asked; }, get held() { return held !== null; } };
})();
