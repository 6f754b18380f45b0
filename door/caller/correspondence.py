"""Cribbage by correspondence at the screens: a registered caller's
games over days (K on the main menu): the games by deadline, the one
chosen opened at the board where it stands with what happened since the
caller's last move said first, offers made to a caller by name (on line or
not; on the cribbage hub, to a member board's caller as ``alias@BOARD``)
or to anyone, answered at the callee's next call (an offer to anyone by
the first other caller who takes it), and withdrawn by their maker (W:
any open offer of theirs, to a caller by name or to anyone).  The game
service runs the games (:mod:`door.games.correspondence`); offers are
made and taken in :mod:`door.caller.offering`."""

from __future__ import annotations

from door.caller.handover import hand_over
from door.caller.offering import Choice, counted, offer_to, offer_words, offers_for, take_offer, unrated_now
from door.caller.seated import seated
from door.caller.side import CallerSide, Side
from door.caller.tournaments import tournaments_screen
from door.caller.turns import tell_turn
from door.games.correspondence import begin_from_offer, sit_down
from door.games.live_lease import PlayedElsewhere
from door.play.human_seat import HumanSeat
from door.play.table import Table
from door.records.correspondence.deadlines import left_words
from door.records.correspondence.offers import Offer
from door.records.correspondence.vacations import VacationRefused
from door.records.game_kinds import GameKind
from door.records.kept_list import KeptGame, Turn
from door.records.saved_games import SavedGame
from door.sysop.doing import Doing
from door.ui.prompts import BACK, ask_choice, ask_line, show_page
from door.ui.speech import SpokenWords
from engine.game import Game, replay
from engine.scoring import RunMode

__all__ = ["ANYONE", "BY_TURNS", "correspondence", "go_away", "login_news", "since_my_move"]

SHOWN = 9
"""Games listed at once (keys 1 to 9), by deadline."""

ANYONE = "anyone"
"""What a caller types for the name to offer a game to anyone (an open offer)."""

BY_TURNS = (GameKind.CORRESPONDENCE, GameKind.TOURNAMENT)
"""The kinds of kept game played by turns over days (listed here: a tournament's by correspondence too)."""


async def login_news(side: CallerSide) -> list[str]:
    """What a registered caller hears first at login of their games by
    correspondence: how many wait on them and the nearest deadline, and
    the offers that wait for their answer (none: nothing)."""
    account = side.caller.account
    if account is None:
        return []
    store, now = side.ctx.store, side.ctx.store.clock()
    games = [g for g in await store.saved.unfinished(account.id, waiting=True) if g.kind in BY_TURNS]
    news = []
    if games:
        due = min((g.deadline for g in games if g.deadline is not None), default=None)
        when = f"; the first is due in {left_words(due - now)}" if due is not None else ""
        news.append(f"Your move in {len(games)} correspondence game{'s' if len(games) != 1 else ''}{when} "
                    "(K on the menu).")
    offers = await store.correspondence.offers.received(account.id)
    if offers:
        news.append(f"{len(offers)} offer{'s' if len(offers) != 1 else ''} of a correspondence game wait"
                    f"{'' if len(offers) != 1 else 's'} for your answer (K on the menu).")
    return news


def _line(game: KeptGame, now: float) -> str:
    """One game of the list: who, whose move and by when, where it stands."""
    whose = {Turn.YOU: "your move", Turn.THEM: "their move", Turn.BOTH: "both to discard"}[game.to_move]
    due = f", due in {left_words(game.deadline - now)}" if game.deadline is not None else ""
    stands = (f" (hand {game.hand}, you {game.scores[0]}, {game.other} {game.scores[1]})"
              if game.hand is not None and game.scores is not None else "")
    what = " (tournament)" if game.kind is GameKind.TOURNAMENT else ""
    return f"#{game.number}{what} with {game.other}: {whose}{due}{stands}"


async def correspondence(side: CallerSide) -> None:
    """K at the menu: the caller's games by correspondence, offers to
    answer, a new offer; until ESC."""
    account = side.caller.account
    if account is None:
        await show_page(side.display, "Correspondence", [
            "Games by correspondence are for registered callers: register your name at your next call."])
        return
    store = side.ctx.store
    while True:
        side.doing(Doing.MAIN_MENU)
        now = store.clock()
        games = [g for g in await store.saved.unfinished(account.id) if g.kind in BY_TURNS][:SHOWN]
        offers = await offers_for(side, account.id)
        lines = ["Your games by correspondence (the first due first):", ""]
        lines += [f"  {i}  {_line(g, now)}" for i, g in enumerate(games, 1)] or ["  (none under way)"]
        lines += ["", "  N  Offer a game by correspondence to a caller, or to anyone"]
        keys = "".join(str(i) for i in range(1, len(games) + 1)) + "N"
        if side.ctx.correspondence.vacation_days > 0:
            lines.append("  V  Days away: your clocks stop in every game")
            keys += "V"
        lines.append("  T  Tournaments: enter one, or withdraw")
        keys += "T"
        if offers:
            lines.append(f"  A  {_offers_line(offers)}")
            keys += "A"
        mine = await store.correspondence.offers.sent(account.id, SHOWN + 1)
        if mine:
            lines.append(f"  W  {await _withdraw_line(side, mine)}")
            keys += "W"
        lines += ["", "Press a key, ESC to go back to the menu."]
        answer = await ask_choice(side.display, "Correspondence", lines, keys, escape=True)
        if answer == BACK:
            return
        if answer == "N":
            await _offer(side)
        elif answer == "A":
            await _answer(side, offers)
        elif answer == "W":
            await _withdraw(side, await _named(side, mine[:SHOWN]))
        elif answer == "T":
            await tournaments_screen(side)
        elif answer == "V":
            days = await ask_line(side.display, "Days away", [
                f"Days away stop your clocks in every game by correspondence ({side.ctx.correspondence.vacation_days}"
                " a year), from now.", "How many days? (RETURN alone goes back)"], "Days: ", "", 3)
            if days:
                await show_page(side.display, "Days away", [await go_away(side, account.id, days)])
        else:
            await _play(side, games[int(answer) - 1].id)


async def _play(side: CallerSide, saved_id: int) -> None:
    """Sit down to the kept game ``saved_id``: what happened since the
    caller's last move first, then the board until the game waits on the
    other player (or the caller leaves the table)."""
    account = side.caller.account
    assert account is not None
    saved = await side.ctx.store.saved.load_game(saved_id)
    if saved is None:
        await show_page(side.display, "Correspondence", ["That game is over, or gone."])
        return
    mine = saved.seat_of(account.id)
    since = since_my_move(saved, mine)
    if since:
        await show_page(side.display, "Since your last move", since)
    seat = side.new_seat()
    try:
        table = await sit_down(side.ctx.games, saved, account.id, seat)
    except PlayedElsewhere as exc:
        await _to_its_node(side, exc.node)
        return
    if table is None:
        await show_page(side.display, "Correspondence", ["That game is over, or gone."])
        return
    await _sit(side, table, seat)


async def _to_its_node(side: CallerSide, node_id: int) -> None:
    """The live game the caller opened is played at node ``node_id`` of
    the store: they are taken there (their session goes on at that node,
    where K sits them down), or told to call again when it cannot be
    reached."""
    node = side.ctx.lobby.nodes.get(node_id)
    if node is None or side.ctx.link is None:
        await show_page(side.display, "Correspondence", [
            "That game is played on another of this door's servers, which cannot",
            "be reached right now. Please try again in a minute."])
        return
    await show_page(side.display, "Correspondence", [
        "That game is played on another of this door's servers: taking you",
        "there. Press K there and choose it to sit down.", "", "Press any key."])
    await hand_over(side, node, "session")


async def _sit(side: CallerSide, table: Table, seat: HumanSeat) -> None:
    """At ``table`` until it is done with ``seat``; then whose move it is."""
    index = seat.index
    await seated(side, seat, table, Doing.VS_CALLER, table.seats[1 - index].name)
    await table.ended.wait()
    tell_turn(side, table)
    game = table.game
    if game is not None and not game.over and table.ending.waiting:
        await show_page(side.display, "Correspondence", [
            f"Your move is kept. It is {table.seats[1 - index].name}'s move now:",
            "they find the game at their next call.", "", "Press any key."])


def since_my_move(saved: SavedGame, mine: int) -> list[str]:
    """What happened in the kept game ``saved`` since the last decision of
    seat ``mine``, in the sentences screen-reader mode says (empty:
    nothing; the last sixteen at most)."""
    actions, players = saved.actions, saved.players
    last = max((i for i, a in enumerate(actions) if getattr(a, "seat", None) == mine), default=-1)
    before, _ = replay(saved.rules, saved.number, actions[:last + 1], saved.first_dealer, saved.shuffle)
    spoken = SpokenWords(mine, (players[0], players[1]) if len(players) == 2 else ("", ""))
    lines: list[str] = []
    game: Game = before
    for action in actions[last + 1:]:
        for event in game.apply(action):
            lines += spoken.tell(event)
    return lines[-16:]


async def _offer(side: CallerSide) -> None:
    """Offer a game or a match by correspondence to a registered caller by
    name, or to anyone: the days per move (the sysop's choices), how runs
    count, one game or the best of 3 or 5, rated or not (where the board
    rates them), who counts the hands of an unrated one (the door, or each
    player with muggins); the other caller finds it at their next call."""
    account, settings = side.caller.account, side.ctx.correspondence
    assert account is not None
    typed = await ask_line(side.display, "Offer a correspondence game", [
        "Offer a game by correspondence: each move waits for its player, for days.",
        "Whom do you offer it to? A registered caller's name, or ANYONE: the first",
        "caller to take it plays you. (RETURN alone goes back)"], "Name: ", "", 30)
    if not typed:
        return
    name = None if typed.strip().lower() == ANYONE else typed
    refused = await offer_to(side, account.id, name, Choice(0), check_only=True)
    if refused is not None:
        await show_page(side.display, "Correspondence", [refused.why])
        return
    choices = settings.days[:9]
    days = await ask_choice(side.display, "Offer a correspondence game", [
        f"How many days for each move? (Default {settings.default_days}.)", "",
        *(f"  {i}  {d} day{'s' if d != 1 else ''} a move" for i, d in enumerate(choices, 1)),
        "", "ESC goes back."], "".join(str(i) for i in range(1, len(choices) + 1)), escape=True)
    if days == BACK:
        return
    runs = await ask_choice(side.display, "Offer a correspondence game", [
        "How do runs count during the play?",
        "  1  Runs need not be in order: 7-5-6 is a run worth 3.",
        "  2  Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6."], "12")
    best_of = await ask_choice(side.display, "Offer a correspondence game", [
        "One game, or a match?",
        "  1  One game",
        "  3  A match: the best of 3 games",
        "  5  A match: the best of 5 games"], "135")
    rated = settings.rated and await ask_choice(side.display, "Offer a correspondence game", [
        "Rated? A rated game or match moves both players' ratings by correspondence",
        "(a pool of their own, apart from live play). (Y/N)"], "YN") == "Y"
    counting = "1" if rated else await ask_choice(side.display, "Offer a correspondence game", [
        "Who counts the hands and the crib in the show?",
        "  1  The door counts them.",
        "  2  Each player counts their own, with muggins: points you miss go to the other."], "12")
    refused = await offer_to(side, account.id, name,
                             Choice(choices[int(days) - 1], runs == "2", int(best_of), rated, counting == "2"))
    if refused is not None:
        await show_page(side.display, "Correspondence", [refused.why])
        return
    await show_page(side.display, "Correspondence", [
        f"Your offer is made: {name} finds it at their next call." if name is not None else
        "Your offer to anyone is made: every caller sees it in their list, and the first to take it plays you.",
        f"If nobody answers it in {settings.offer_days} days, it lapses."])


async def go_away(side: Side, account_id: int, days: str | int) -> str:
    """``account_id`` is away ``days`` whole days from now (their clocks
    stop in every game by correspondence), within the yearly allowance
    (``[correspondence] vacation_days``): what they are told, in a
    sentence (done, or why not)."""
    try:
        count = int(days)
    except ValueError:
        return f"A vacation is a whole number of days, not {str(days)[:20]!r}."
    ctx = side.ctx
    try:
        taken = await ctx.store.correspondence.vacations.take(account_id, ctx.store.clock(), count,
                                                              ctx.correspondence.vacation_days)
    except VacationRefused as exc:
        return str(exc)
    side.log.info("account %d is away %d days from correspondence games", account_id, taken.days)
    return f"You are away for {taken.days} day{'s' if taken.days != 1 else ''}: your clocks stop until then."


def _pace(offer: Offer) -> str:
    """An offer's days a move and runs: "2 days a move, runs in any order"."""
    runs = "in exact order" if offer.terms.rules.get("run_mode") == RunMode.ORDERED.value else "in any order"
    days = offer.terms.days
    return f"{days} day{'s' if days != 1 else ''} a move, runs {runs}"


def _terms(offer: Offer) -> str:
    """An offer's terms in words, as the lists say them: "2 days a move,
    runs in any order, the door counts the hands."."""
    return f"{_pace(offer)}, {counted(offer.terms.manual)}."


def _briefly(offer: Offer) -> str:
    """An offer in a line of W's list (two rows of the screen at most, nine
    of them on 80x24): "a game, 2 days a move, runs in any order" (and who
    counts the hands when each player does: "counted by hand, with muggins")."""
    terms = offer.terms
    what = f"a {'rated ' if terms.rated else ''}{'game' if terms.best_of == 1 else f'match (best of {terms.best_of})'}"
    return f"{what}, {_pace(offer)}{', counted by hand, with muggins' if terms.manual else ''}"


async def _named(side: CallerSide, offers: list[Offer]) -> list[tuple[Offer, str]]:
    """The caller's own open ``offers``, each with whom it is made to
    (their name; ``"anyone"`` for an offer to anyone)."""
    named = []
    for offer in offers:
        taker = await side.ctx.store.accounts.get(offer.taker) if offer.taker is not None else None
        named.append((offer, ANYONE if offer.taker is None else taker.name if taker is not None else "a caller"))
    return named


async def _withdraw_line(side: CallerSide, mine: list[Offer]) -> str:
    """What W says on the list of the caller's open offers ``mine`` (up
    to :data:`SHOWN` + 1, the oldest first): the one offer by whom it is
    made to, or how many (more than :data:`SHOWN`: only the oldest are listed)."""
    if len(mine) == 1:
        return f"Withdraw your offer to {(await _named(side, mine))[0][1]}"
    return f"Withdraw one of your offers ({len(mine) if len(mine) <= SHOWN else f'more than {SHOWN}'})"


async def _withdraw(side: CallerSide, mine: list[tuple[Offer, str]]) -> None:
    """W: the caller withdraws one of their open offers (``mine``, each
    with whom it is made to, at most :data:`SHOWN`): the one asked Y/N, or
    the one chosen by its number from the list; ESC goes back.  An offer
    taken, declined or lapsed meanwhile is said to be no longer open."""
    account = side.caller.account
    assert account is not None
    if len(mine) == 1:
        offer, who = mine[0]
        if await ask_choice(side.display, "Withdraw your offer", [
                f"Your offer of {offer_words(offer.terms)} by correspondence to {who}: {_terms(offer)}", "",
                "Withdraw it? (Y/N)"], "YN", escape=True) != "Y":
            return
    else:
        chosen = await ask_choice(side.display, "Withdraw your offer", [
            "Your open offers of games by correspondence (the oldest first):", "",
            *(f"  {i}  To {who}: {_briefly(o)}" for i, (o, who) in enumerate(mine, 1)),
            "", "Press the number of the offer to withdraw; ESC goes back."],
            "".join(str(i) for i in range(1, len(mine) + 1)), banner=False, escape=True)
        if chosen == BACK:
            return
        offer, who = mine[int(chosen) - 1]
    if await side.ctx.store.correspondence.offers.withdraw(offer.id, account.id):
        side.log.info("%r withdraws their correspondence offer %d", side.caller.name, offer.id)
        said = f"Your offer to {who} is withdrawn."
    else:
        said = f"Your offer to {who} is no longer open: it was answered, or it lapsed, meanwhile."
    await show_page(side.display, "Correspondence", [said])


def _offers_line(offers: list[Offer]) -> str:
    """What A says on the list: the offers made to the caller, then those to anyone."""
    anyone = sum(o.taker is None for o in offers)
    if anyone == len(offers):
        return f"Take an offer made to anyone ({anyone})"
    return f"Answer the offers to you ({len(offers) - anyone})" + (f"; {anyone} made to anyone" if anyone else "")


async def _answer(side: CallerSide, offers: list[Offer]) -> None:
    """The offers to the caller, one by one: accept (the game begins: the
    first hand is dealt, and the caller makes their first decisions now),
    decline, or leave for later."""
    ctx, account = side.ctx, side.caller.account
    assert account is not None
    for offer in offers:
        maker = await ctx.store.accounts.get(offer.maker)
        who = maker.name if maker is not None else "a caller"
        terms = _terms(offer)
        if offer.taker is None:
            answer = await ask_choice(side.display, "Offer of a correspondence game", [
                f"{who} offers {offer_words(offer.terms)} by correspondence to anyone: {terms}", "",
                "Take it? (Y takes it, N goes to the next; ESC answers later)"], "YN", escape=True)
        else:
            answer = await ask_choice(side.display, "Offer of a correspondence game", [
                f"{who} offers you {offer_words(offer.terms)} by correspondence: {terms}", "",
                "Accept it? (Y/N; ESC answers later)"], "YN", escape=True)
        if answer == BACK:
            return
        if answer == "N":
            if offer.taker is not None:
                await ctx.store.correspondence.offers.decline(offer.id, account.id)
            continue
        taken = await take_offer(side, account.id, offer.id)
        if isinstance(taken, str):
            await show_page(side.display, "Correspondence", [taken])
            continue
        side.log.info("%r accepts %r's correspondence game", side.caller.name, who)
        unrated = await unrated_now(side, taken, who)
        if unrated:
            await show_page(side.display, "Correspondence", [f"This is not rated after all: {unrated}"])
        seat = side.new_seat()
        await _sit(side, begin_from_offer(ctx.games, taken, who, seat, unrated), seat)
        return
