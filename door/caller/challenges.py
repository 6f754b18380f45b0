"""Games between two callers: challenging a caller who is at
the main menu, answering a challenge, and going on with a kept game
between two callers.

The challenger chooses the opponent and how runs count in the play (the
other rules are the house rules, as in a game against the sysop); the
challenged caller sees the challenge at once, over whatever menu they were
reading, and has ``page_timeout`` seconds to accept.  The challenger's
session then sets up the table, which runs in the lobby like a game
against the sysop: a player whose line drops may come back within
``rejoin_timeout`` seconds, and every game with a registered caller in it
is journaled (kept for both when both are registered).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from typing import NamedTuple

from door.caller.handover import hand_over
from door.caller.match_table import set_table, why_unrated
from door.caller.side import Asked, CallerSide, Offered, Reply, Side
from door.net.terminal import HungUp
from door.records.names import name_key
from door.records.nodes import Present
from door.records.ranked.match import MatchTerms, ranked_rules
from door.records.store import SavedGame, StoreError
from door.sysop.doing import Doing
from door.sysop.presence import Challenge, Presence, account_identity, account_of
from door.ui.prompts import BACK, ask_choice, show_page
from engine.game import replay
from engine.rules import Rules
from engine.scoring import RunMode

__all__ = ["challenge_caller", "answer", "challenge", "Refusal", "send_challenge", "accept",
           "rules_words", "OPPONENTS_SHOWN"]

OPPONENTS_SHOWN = 9
"""Callers listed to challenge at once (keys 1 to 9)."""


def rules_words(rules: Rules, terms: MatchTerms | None = None) -> str:
    """``"a 121-point game, runs in any order"``, or with ``terms``
    ``"a rated best-of-3 match of 121-point games, runs in any order"``:
    what a challenge offers."""
    runs = "in any order" if rules.run_mode is RunMode.UNORDERED else "in exact order"
    if terms is None or terms.best_of == 1:
        rated = "rated " if terms is not None and terms.rated else ""
        return f"a {rated}{rules.game_to}-point game, runs {runs}"
    return f"{terms.words()} of {rules.game_to}-point games, runs {runs}"


def _resumed_line(saved: SavedGame, account_id: int) -> str:
    """The kept game ``saved`` as ``account_id`` sees it (see :meth:`SavedGame.line`)."""
    return saved.line(account_id, replay(saved.rules, saved.number, saved.actions, saved.first_dealer, saved.shuffle)[0])


async def challenge_caller(side: CallerSide, resume: SavedGame | None = None, named: str = "") -> None:
    """Challenge another caller and play them if they accept; with
    ``resume`` (a kept game between the two), ask the other player of that
    game to go on with it; with ``named``, challenge the caller of that
    name (one who came from another node to challenge them).  A caller at
    another node's menu is challenged by going there
    (:func:`~door.caller.handover.hand_over`), and so is the other player
    of a kept game (whose node died, or who called another node)."""
    if resume is not None:
        target = await _kept_game_opponent(side, resume, named)
        if target is not None:
            await send_challenge(side, target, resume.rules, resume)
        return
    offer = await _new_offer(side, named)
    if offer is not None:
        await challenge(side, *offer)


async def _kept_game_opponent(side: CallerSide, resume: SavedGame, named: str) -> Presence | None:
    """The other player of the kept game ``resume`` at the main menu here,
    or ``None`` when the game cannot go on now: against a guest (given up,
    as a guest cannot come back), the other player not at a menu (kept),
    or at another node's menu (the caller goes there to ask; one hop at
    most: a caller handed here to go on with it, ``named``, is not handed
    on again)."""
    ctx, caller, display = side.ctx, side.caller, side.display
    assert caller.account is not None  # only a registered caller has kept games
    mine = resume.seat_of(caller.account.id)
    other_account = resume.other_account if mine == resume.seat else resume.account_id
    other_name = resume.players[1 - mine] if len(resume.players) == 2 else "your opponent"
    if other_account is None:  # a guest cannot come back to a game: nobody can go on with it
        try:
            await ctx.store.saved.drop(resume.id)
        except StoreError as exc:
            side.log.warning("could not drop game %d against a guest: %s", resume.number, exc)
        await show_page(display, "Your kept game", [
            f"Your game #{resume.number} was against {other_name}, a guest.",
            "A guest cannot come back to a game, so it cannot go on: it is given up.",
            "", "Your records are not touched."])
        return None
    target = next((p for p in ctx.lobby.opponents(side.presence) if p.identity == account_identity(other_account)),
                  None)
    away = next((p for p in ctx.lobby.opponents_elsewhere() if name_key(p.name) == name_key(other_name)), None)
    node = ctx.lobby.nodes.get(away.node_id) if target is None and away is not None and not named else None
    if node is not None and away is not None:  # at another node's menu: go there and ask them
        side.log.info("%r goes to node %d to go on with game %d against %r", caller.name, node.id, resume.number,
                      away.name)
        await hand_over(side, node, "challenge", away.name)
        return None
    if target is None:
        await show_page(display, "Your kept game", [
            f"{other_name} is not at the main menu right now.", "",
            f"Your game #{resume.number} is kept: the main menu offers it."])
    return target


async def _new_offer(side: CallerSide, named: str) -> tuple[Presence, MatchTerms, RunMode] | None:
    """Whom to challenge (``named``, or chosen from the menu's callers;
    one at another node's menu is challenged there), the match's terms
    and how runs count; ``None`` when the caller went back or went
    elsewhere."""
    ctx, display = side.ctx, side.display
    chosen = await _choose_opponent(side) if not named else _at_menu(side, named)
    if isinstance(chosen, Refusal):
        await side.tell("Play another caller", chosen.lines)
        return None
    if chosen is BACK:
        return None
    if isinstance(chosen, Present):  # at another node's menu: go there to challenge them
        node = ctx.lobby.nodes.get(chosen.node_id)
        if node is None:
            await show_page(display, "Play another caller", [
                f"{chosen.name} is no longer on line.", "", "Try again in a moment."])
            return None
        await hand_over(side, node, "challenge", chosen.name)
        return None
    assert isinstance(chosen, Presence)
    side.doing(Doing.CHOOSING_RULES)
    answer = await ask_choice(display, "Play another caller", [
        f"You challenge {chosen.name}.",
        "",
        "How do runs count during the play?",
        "  1  Runs need not be in order: 7-5-6 is a run worth 3.",
        "  2  Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6.",
        "Press 1 or 2 (the other rules are the house rules), ESC to go back.",
    ], "12", escape=True)
    if answer == BACK:
        return None
    terms = await _choose_terms(side, chosen)
    if terms is None:
        return None
    return chosen, terms, RunMode.UNORDERED if answer == "1" else RunMode.ORDERED


async def _choose_terms(side: CallerSide, target: Presence) -> MatchTerms | None:
    """How long a match, and whether it is rated (between two registered
    callers whom fair play allows, :mod:`door.records.ranked.fair_play`; else
    the screen says why not); ``None`` to go back."""
    why = await why_unrated(side, side.presence, target) if side.caller.account is not None else None
    may_rate = side.caller.account is not None and why is None
    lines = [f"You challenge {target.name}.", "", "How long a match?",
             "  1  One game.",
             "  3  Best of three games (the usual match).",
             "  5  Best of five games."]
    keys = "135"
    if may_rate:
        lines += ["  R  A rated best of three: the door counts every hand, no hints,",
                  "     and leaving (or staying dropped) forfeits the match."]
        keys += "R"
    elif why is not None and side.caller.account is not None:
        lines += [f"No rated match: {why}"]
    lines += ["The loser of each game deals first in the next.", "ESC goes back."]
    answer = await ask_choice(side.display, "Play another caller", lines, keys, escape=True)
    if answer == BACK:
        return None
    if answer == "R":
        return MatchTerms(3, rated=True)
    return MatchTerms(int(answer))


async def _choose_opponent(side: CallerSide) -> Presence | Present | str:
    """The caller to challenge (here, or at another node's menu, listed
    after those here), or :data:`BACK`."""
    display, ctx, presence = side.display, side.ctx, side.presence
    side.doing(Doing.CHOOSING_OPPONENT)
    shown: list[Presence | Present] = [*ctx.lobby.opponents(presence), *ctx.lobby.opponents_elsewhere()]
    shown = shown[:OPPONENTS_SHOWN]
    if not shown:
        await show_page(display, "Play another caller", [
            "Nobody else is at the main menu right now.", "",
            "Callers in a game, or reading a screen, cannot be challenged."])
        return BACK
    lines = ["Callers at the main menu:", ""]
    lines += [f"  {i}  {p.name}{_where(p)}" for i, p in enumerate(shown, 1)]
    keys = "1" if len(shown) == 1 else f"1 to {len(shown)}"  # (not "Press 1 to 1")
    lines += ["", f"Press {keys} to challenge a caller, ESC to go back."]
    answer = await ask_choice(display, "Play another caller", lines, "".join(str(i) for i in
                                                                             range(1, len(shown) + 1)), escape=True)
    if answer == BACK:
        return answer
    return shown[int(answer) - 1]


def _where(person: Presence | Present) -> str:
    """What the list of opponents says after a name."""
    if isinstance(person, Present):
        return " (on another server)"
    return " (a bot)" if person.bot else "" if person.identity else " (guest)"


class Refusal(NamedTuple):
    """Why a challenge may not be made: the ``lines`` a screen shows, a
    program's ``error`` on ``field``."""

    field: str
    lines: list[str]


def _at_menu(side: Side, name: str) -> Presence | Refusal:
    """The caller ``name`` whom the side may challenge at the main menu
    here (:meth:`~door.sysop.lobby.Lobby.opponents`), or why not."""
    found = next((p for p in side.ctx.lobby.opponents(side.presence) if name_key(p.name) == name_key(name)), None)
    return found or Refusal("name", [f"{name} is not at the main menu any more.", "", "Try again in a moment."])


async def challenge(side: Side, target: Presence | str, terms: MatchTerms, runs: RunMode) -> bool:
    """Challenge ``target`` (a caller at the main menu here, or their
    name) to ``terms`` under the house rules with ``runs``
    (:func:`send_challenge`), or tell the side why not: nobody of that
    name at the menu, a rated match other than a best of three, or one
    that fair play does not allow (:func:`~door.caller.match_table.why_unrated`,
    asked again here: a screen's choice took time).  One check for the
    screens and the game protocol; True when a program left meanwhile."""
    found = _at_menu(side, target) if isinstance(target, str) else target
    if isinstance(found, Refusal):
        why = found
    elif terms.rated and terms.best_of != 3:
        why = Refusal("best_of", ["A rated match is a best of three."])
    elif terms.rated and (unrated := await why_unrated(side, side.presence, found)) is not None:
        why = Refusal("rated", [f"No rated match: {unrated}"])
    else:
        rules = dataclasses.replace(side.ctx.rules, run_mode=runs)
        return await send_challenge(side, found, ranked_rules(rules) if terms.rated else rules, None, terms)
    await side.tell("Play another caller", why.lines, why.field)
    return False


async def send_challenge(side: Side, target: Presence, rules: Rules, resume: SavedGame | None = None,
                         terms: MatchTerms | None = None) -> bool:
    """Challenge ``target`` (at the main menu here) to a game under
    ``rules`` (``terms``: a match; ``resume``: to go on with that kept
    game between them), wait up to ``page_timeout`` seconds for the
    answer, and on a yes seat both at a new table (no waiting from the
    answer to the table: the other's seat must not be left unseated) and
    play; the side is told why not otherwise.  One flow for the screens
    and the game protocol; True when a program left meanwhile.  Raises
    :class:`~door.net.terminal.HungUp` when the line drops (the
    challenge withdrawn)."""
    ctx, presence, lobby = side.ctx, side.presence, side.ctx.lobby
    title = "Play another caller"
    if target not in lobby.opponents(presence):
        await side.tell(title, [f"{target.name} cannot be challenged right now (in a game, or already asked).", "",
                                "Try again in a moment."], "name")
        return False
    if not lobby.challenges_left(presence):
        await side.tell(title, ["Too many challenges were sent from your address in the last minute.", "",
                                "Please wait a minute before the next one."], "name")
        return False
    side.doing(Doing.CHALLENGING, whom=target.name)
    waiting = asyncio.create_task(lobby.challenge(presence, target, rules, resume, terms))
    what = f"to go on with game #{resume.number}" if resume is not None else "to " + rules_words(rules, terms)

    def seconds_left() -> int:
        """All the seconds until the lobby holds the challenge (the task has not run yet)."""
        full = 0 if waiting.done() else int(ctx.paging.page_timeout)
        return next((c.seconds_left for c in lobby.challenges if c.challenger is presence), full)

    asked = Asked(title, lambda s: [f"Waiting for {target.name} to answer... {s} s", "",
                                    f"You challenged {target.name} {what}.", "ESC withdraws the challenge."],
                  lambda s: [f"You challenged {target.name} {what}.",
                             f"Waiting up to {s} seconds for an answer. Press ESC to withdraw the challenge."],
                  lambda s: f"You challenged {target.name} {what}: waiting up to {s} seconds for an answer.",
                  f"waiting for {target.name} to answer the challenge: only leave withdraws it", seconds_left)
    try:
        left = await side.wait_on(waiting, lambda: lobby.withdraw(presence), asked)
    except HungUp:
        with contextlib.suppress(ValueError):  # (a challenge never sent: nothing to release)
            if (seat := (await waiting).answer.result()) is not None:
                seat.finish()  # accepted as the line dropped: the other player goes back to the menu
        raise
    try:
        challenge = waiting.result()
    except ValueError as exc:  # (they left the menu, or took another challenge, meanwhile)
        await side.tell(title, [str(exc)], "name")
        return left
    theirs = challenge.answer.result()
    if left or theirs is None:
        if theirs is not None:
            theirs.finish()  # (accepted as the program left: the other player goes back to the menu)
        why = (f"{target.name} declined." if challenge.declined else
               f"{target.name} left." if target.ended.is_set() else
               "You withdrew the challenge." if challenge.withdrawn else f"{target.name} did not answer.")
        kept = ["", f"Your game #{resume.number} is kept: the main menu offers it."] if resume is not None else []
        await side.tell(title, [why, *kept])
        return left
    mine = side.new_seat()
    index = resume.seat_of(side.account.id) if resume is not None and side.account is not None else 0
    table = await set_table(side, challenge, (mine, theirs) if index == 0 else (theirs, mine), index, side.seeds)
    lobby.update(challenge.challenged, Doing.VS_CALLER, table, side.name, theirs)
    return await side.play(mine, table, Doing.VS_CALLER, theirs.name)


async def accept(side: Side, challenge: Challenge) -> bool:
    """Accept ``challenge``: the challenger's side sets the table and runs
    it; this side plays its seat there until the match is over (told
    when the challenger stopped waiting meanwhile).  True when a program
    left meanwhile."""
    seat, name = side.new_seat(), challenge.challenger.name
    if not side.ctx.lobby.answer_challenge(challenge, seat):
        await side.tell("A challenge", [f"{name} is no longer waiting for an answer."])
        return False
    return await side.play(seat, None, Doing.VS_CALLER, name)


async def answer(side: Side, challenge: Challenge | None = None, replaces: str | None = None) -> bool:
    """The ``challenge`` to this side (default: the one waiting for its
    presence), asked (:meth:`~door.caller.side.Side.consider`: a Y/N
    page, a program's ``challenged``, a bot's yes) and accepted and
    played, or declined (anything but a yes: a no, the question gone, a
    program leaving, a dropped line).  ``replaces``: the side's own kept
    game, which a new game it would keep (against a guest) replaces.  One
    flow for the screens and the game protocol; True when a program left
    meanwhile.  Raises :class:`~door.net.terminal.HungUp` (declined)."""
    challenge = challenge or side.ctx.lobby.challenge_for(side.presence)
    if challenge is None:
        return False
    side.doing(Doing.ANSWERING_CHALLENGE)
    name, resume, account = challenge.challenger.name, challenge.resume, side.account

    def lines() -> list[str]:
        """The offer at a screen (a kept game named as the side sees it)."""
        if resume is not None and account is not None:
            return [f"{name} asks you to go on with your {_resumed_line(resume, account.id)}."]
        replacing = replaces is not None and account_of(challenge.challenger.identity) is None
        return [f"{name} challenges you to {rules_words(challenge.rules, challenge.terms)}.",
                *([f"(Accepting replaces your kept {replaces}.)"] if replacing else [])]

    offer = f"to go on with game #{resume.number}" if resume is not None else rules_words(challenge.rules,
                                                                                           challenge.terms)
    reply = Reply.NO
    try:
        reply = await side.consider(Offered("A challenge", name, lines, offer, lambda: challenge.seconds_left,
                                            challenge.answer))
    finally:
        if reply is not Reply.YES:
            side.ctx.lobby.answer_challenge(challenge, None)  # declined, gone, or the line dropped
    return await accept(side, challenge) if reply is Reply.YES else reply is Reply.LEFT
