"""What the door says: turning engine values into words for one player.

The engine returns values (events, score kinds); this module names them in
the game's own terms ("Fifteen for 2", "Pair royal for 6", "His heels for 2",
"Muggins!") from the point of view of the seat reading them, which is "You".
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import lru_cache

from door.net.charset import SUIT_GLYPHS
from door.ui.safe_text import clean_text
from door.ui.speech import cadence
from door.ui.telling import Telling, possessive, subject
from engine.cards import Card
from engine.claims import Verdict
from engine.events import (
    CardPlayed,
    CutForDeal,
    Discarded,
    Event,
    GameOver,
    GoDeclared,
    HandCounted,
    HandDealt,
    HandReplayed,
    PeggingHandedOver,
    PlayPoint,
    SeriesReset,
    ShowTurn,
    Skunk,
    StarterTurned,
)
from engine.scoring import PlayKind, PlayScore, ShowKind, ShowScore

__all__ = ["wrap", "wrap_text", "card_text", "cards_text", "play_score_text", "show_summary", "show_detail", "describe",
           "Names", "strip_controls", "ScreenWords"]

Names = Sequence[str]
"""The display names of seat 0 and seat 1 for the reader ("You" for itself)."""


def wrap_text(text: str, width: int, hang: int = 2) -> tuple[str, ...]:
    """``text`` wrapped at word boundaries to ``width`` columns, its later
    lines indented ``hang`` more than its first.  Never empty: ``("",)``
    for no text.

    >>> wrap_text("  Fifteens 4+5+6, 5+10, 6+9 = 6", 16)
    ('  Fifteens', '    4+5+6, 5+10,', '    6+9 = 6')
    """
    if len(text) <= width and text.strip() and not text[-1].isspace() and _FITS.isdisjoint(text):
        return (text,)  # one line as it is: what textwrap gives, in a fortieth of the time (most messages)
    indent = len(text) - len(text.lstrip(" "))
    return tuple(textwrap.wrap(text, width, subsequent_indent=" " * (indent + hang))) or ("",)


_FITS = frozenset("\t\n\r\x0b\x0c")
"""The characters textwrap turns into spaces (or tabs into several): a
text with none of them that fits is left whole."""


wrap = lru_cache(maxsize=1024)(wrap_text)
""":func:`wrap_text` memoized for the texts every session shares (menus,
simple screens, the console): 1,024 of them, filled in the first minutes.
A game's messages and chat, different in every session, are memoized by
their own view (:meth:`door.play.view_state.ViewState.wrap`), so that they
go with the session: with all of them here (8,192) the 2,000-game soak's
memory grew for as long as it ran."""


strip_controls = clean_text
"""Names, chat and page reasons pass through this before any terminal
sees them (:func:`door.ui.safe_text.clean_text`)."""


def card_text(card: Card) -> str:
    """``"5♥"``, ``"10♦"``, ``"J♠"``."""
    rank = "10" if card.rank == 10 else card.rank_char
    return rank + SUIT_GLYPHS[card.suit.letter]


def cards_text(cards: Sequence[Card]) -> str:
    """Cards separated by spaces."""
    return " ".join(card_text(c) for c in cards)


def play_score_text(score: PlayScore) -> str:
    """``"Fifteen for 2"``, ``"Run of 4 for 4"``, ``"Go for 1"`` ..."""
    if score.kind is PlayKind.RUN:
        return f"Run of {score.length} for {score.points}"
    return f"{score.kind.value.capitalize()} for {score.points}"


_KIND_PLURAL = {ShowKind.FIFTEEN: "fifteens", ShowKind.PAIR: "pairs", ShowKind.RUN: "runs",
                ShowKind.FLUSH: "flush", ShowKind.NOBS: "nobs"}
_KIND_SHORT = {**_KIND_PLURAL, ShowKind.FIFTEEN: "15s"}


def show_summary(show: ShowScore, short: bool = False) -> str:
    """Points by category: ``"fifteens 6, pairs 2, runs 6"`` (or
    ``"nothing"``); ``short``: in the players' short words, at most 37
    cells (``"15s 8, pairs 2, runs 6, flush 4, nobs 1"``)."""
    names = _KIND_SHORT if short else _KIND_PLURAL
    parts = [f"{names[k]} {show.points_of(k)}" for k in ShowKind if show.points_of(k)]
    return ", ".join(parts) if parts else "nothing"


def show_detail(show: ShowScore) -> list[str]:
    """Every combination, one category a line: ``"Fifteen 4♦+5♠+6♦, 5♠+K♣ = 4"``.

    Pairs of one rank are named as the players call them: a pair royal for
    three of a kind, a double pair royal for four."""
    lines = []
    fifteens = [i for i in show.items if i.kind is ShowKind.FIFTEEN]
    if fifteens:
        combos = ", ".join("+".join(card_text(c) for c in i.cards) for i in fifteens)
        lines.append(f"Fifteens {combos} = {2 * len(fifteens)}")
    pairs = [i for i in show.items if i.kind is ShowKind.PAIR]
    by_rank: dict[int, set[Card]] = {}
    for i in pairs:
        by_rank.setdefault(i.cards[0].rank, set()).update(i.cards)
    for cards in by_rank.values():
        name = {2: "Pair", 3: "Pair royal", 4: "Double pair royal"}[len(cards)]
        pts = {2: 2, 3: 6, 4: 12}[len(cards)]
        lines.append(f"{name} {cards_text(sorted(cards))} = {pts}")
    runs = [i for i in show.items if i.kind is ShowKind.RUN]
    if runs:
        combos = ", ".join(cards_text(i.cards) for i in runs)
        label = "Run" if len(runs) == 1 else f"{len(runs)} runs of {len(runs[0].cards)}"
        lines.append(f"{label} {combos} = {sum(i.points for i in runs)}")
    for i in show.items:
        if i.kind is ShowKind.FLUSH:
            lines.append(f"Flush of {len(i.cards)} = {i.points}")
        elif i.kind is ShowKind.NOBS:
            lines.append(f"Nobs {card_text(i.cards[0])} = 1")
    return lines


class ScreenWords(Telling[list[str]]):
    """The events as the screen's message lines (:class:`~door.ui.telling.Telling`):
    ``sort``: the cards of a counted hand in rank order, as the screen
    shows them when the player keeps the hand sorted (else in the order
    held)."""


    def untold(self) -> list[str]:
        return []
    def __init__(self, me: int, names: Names, sort: bool = True) -> None:
        super().__init__(me, names)
        self.sort = sort

    def cut_for_deal(self, event: CutForDeal) -> list[str]:
        who, lines = self.who, []
        for a, b in event.cuts:
            if a.rank == b.rank:
                lines.append(f"{who[0]} cut {card_text(a)}, {who[1]} cut {card_text(b)}: a tie, cut again.")
            else:
                lines.append(f"{who[0]} cut {card_text(a)}, {who[1]} cut {card_text(b)}: low card deals.")
        lines.append(f"{subject(who[event.dealer], 'deal')} first.")
        return lines

    def hand_replayed(self, event: HandReplayed) -> list[str]:
        me = self.me
        return [f"{subject(self.who[event.seat], 'replay')} hand {event.number}: the scores go back to "
                f"{event.scores[me]} - {event.scores[1 - me]}; it does not count in the statistics."]

    def pegging_handed_over(self, event: PeggingHandedOver) -> list[str]:
        return [f"{subject(self.who[event.seat], 'let')} the computer peg this hand."]

    def hand_dealt(self, event: HandDealt) -> list[str]:
        crib = "your" if event.dealer == self.me else f"{self.names[event.dealer]}'s"
        # present tense: it is said in the chat before the dealer deals, and read after
        return [f"Hand {event.number}: {subject(self.who[event.dealer], 'deal')}. Lay away two cards to {crib} crib."]

    def discarded(self, event: Discarded) -> list[str]:
        return [] if event.seat == self.me else [f"{self.names[event.seat]} has laid away two cards."]

    def starter_turned(self, event: StarterTurned) -> list[str]:
        line = f"The starter is {card_text(event.card)}."
        if event.heels:
            line += f" His heels for {event.heels} to {self.who[event.dealer]}!"
        return [line]

    def card_played(self, event: CardPlayed) -> list[str]:
        line = f"{subject(self.who[event.seat], 'play')} {card_text(event.card)}, count {event.count}."
        if event.scores:
            line += " " + ", ".join(play_score_text(s) for s in event.scores) + "."
        return [line]

    def go_declared(self, event: GoDeclared) -> list[str]:
        return [f"{subject(self.who[event.seat], 'say')} go."]

    def play_point(self, event: PlayPoint) -> list[str]:
        return [f"{play_score_text(event.score)} to {self.who[event.seat]}."]

    def series_reset(self, event: SeriesReset) -> list[str]:
        return ["The count goes back to 0."]

    def game_over(self, event: GameOver) -> list[str]:
        r = event.result
        loser = 1 - r.winner
        line = f"{subject(self.who[r.winner], 'win')} {r.scores[r.winner]} to {r.scores[loser]}!"
        if r.skunk is Skunk.SKUNK:
            line += f" Skunk! It counts {r.value} games."
        elif r.skunk is Skunk.DOUBLE:
            line += f" Double skunk! It counts {r.value} games."
        return [line]

    def hand_counted(self, event: HandCounted) -> list[str]:
        show, who = event.show, self.who
        what = "crib" if event.what is ShowTurn.CRIB else "hand"
        owner = possessive(who[event.seat])
        cards = sorted(show.hand) if self.sort else show.hand
        head = (f"{owner} {what} {cards_text(cards)} + {card_text(show.starter)}: "
                f"{show.total} ({show_summary(show)}).")
        lines = [head] + ["  " + d for d in show_detail(show)] + [f"  \"{cadence(show).capitalize()}.\""]
        out = event.outcome
        opp = who[1 - event.seat]
        if event.claim is None or out.verdict is Verdict.EXACT:
            if event.claim is not None and event.seat == self.me:
                lines.append(f"Right: you peg {out.claimer}.")
            return lines
        claimer = who[event.seat]
        if out.verdict is Verdict.UNDER:
            line = f"{claimer} claimed {event.claim}, {show.total - event.claim} short."
            if out.opponent:
                line += f" Muggins! {subject(opp, 'take')} {out.opponent}."
            lines.append(line)
        else:
            line = f"{claimer} claimed {event.claim}, but it is worth {show.total}:"
            if out.claimer == 0:
                line += f" {subject(claimer, 'peg')} nothing and {subject(opp, 'peg')} {out.opponent}."
            else:
                line += f" {subject(claimer, 'peg')} {out.claimer}."
            lines.append(line)
        return lines


def describe(event: Event, me: int, names: Names, sort: bool = True) -> list[str]:
    """The message lines for ``event`` as seat ``me`` reads it; ``names``
    are the seats' names (``names[me]`` is shown as "You"); ``sort``: see
    :class:`ScreenWords`."""
    return ScreenWords(me, names, sort).tell(event)
