"""What the door says aloud: the game in short plain sentences with full
card names, for a caller in screen-reader mode, and the show
counted as players say it ("fifteen two, fifteen four, and a pair is six"),
in both presentations.

Every sentence here is plain ASCII words: no suit glyphs, no box drawing,
no abbreviations a speech synthesizer would spell out ("5H", "15s").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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

__all__ = ["short_digests", "digest_groups", "has_digest", "speak_cards", "number_words", "card_name", "cards_names",
           "cards_list", "numbered_cards", "numbered_ranks", "suited_cards", "rank_name", "suits_count", "hand_words", "show_cards", "cadence",
           "spoken", "SpokenWords", "scores_event", "points_of"]

_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king")
_SUITS = ("clubs", "diamonds", "hearts", "spades")
_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
         "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_words(n: int) -> str:
    """``0`` -> ``"zero"``, ``21`` -> ``"twenty-one"``, ``121`` -> ``"one
    hundred twenty-one"`` (0 <= n < 1000; larger numbers as digits)."""
    if n < 0 or n >= 1000:
        return str(n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    hundreds, rest = divmod(n, 100)
    return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")


def card_name(card: Card) -> str:
    """``"five of hearts"``, ``"ten of diamonds"``, ``"jack of spades"``."""
    return f"{_RANKS[card.rank - 1]} of {_SUITS[card.suit]}"


def cards_names(cards: Sequence[Card]) -> str:
    """``"five of hearts, six of clubs and king of spades"``."""
    names = [card_name(c) for c in cards]
    if len(names) <= 1:
        return "".join(names) or "no cards"
    return ", ".join(names[:-1]) + " and " + names[-1]


def numbered_cards(cards: Sequence[Card | None]) -> str:
    """``"1 ace of spades, 2 five of hearts"``: the cards a caller
    chooses among by number (``None``: a card not offered, skipped, its
    number kept for the cards after it)."""
    return ", ".join(f"{i} {card_name(c)}" for i, c in enumerate(cards, 1) if c is not None)


def suited_cards(cards: Sequence[Card]) -> str:
    """``"clubs, 1 two, 2 jack; hearts, 3 king"``: the cards a caller
    chooses among by number, in the order given (sorted by suit), each
    suit said once before its cards."""
    groups: list[tuple[int, list[str]]] = []
    for i, card in enumerate(cards, 1):
        if not groups or groups[-1][0] != card.suit:
            groups.append((card.suit, []))
        groups[-1][1].append(f"{i} {rank_name(card)}")
    return "; ".join(f"{_SUITS[suit]}, {', '.join(ranks)}" for suit, ranks in groups)


def numbered_ranks(cards: Sequence[Card | None]) -> str:
    """``"1 ace, 3 five"``: the cards a caller may play, by number and rank
    alone (in the play only ranks score; ``None``: a card not offered)."""
    return ", ".join(f"{i} {rank_name(c)}" for i, c in enumerate(cards, 1) if c is not None)


def cards_list(cards: Sequence[Card]) -> str:
    """``"five of hearts, six of clubs, king of spades"``: a hand said as
    a list, a comma between cards (a screen reader pauses there)."""
    return ", ".join(card_name(c) for c in cards) or "no cards"


def rank_name(card: Card) -> str:
    """``"five"``: a card by its rank alone, where its suit counts for
    nothing (the play scores by rank)."""
    return _RANKS[card.rank - 1]


def suits_count(hand: Sequence[Card]) -> bool:
    """True when the suits of a four-card ``hand`` can make a flush (all
    four of one suit): then every card is said in full; otherwise only a
    jack's suit can score (nobs), and the rest need their ranks alone.

    >>> from engine.cards import parse_cards
    >>> suits_count(parse_cards("4D 5H 9S QH")), suits_count(parse_cards("4H 5H 9H QH"))
    (False, True)
    """
    return len({c.suit for c in hand}) == 1


def hand_words(hand: Sequence[Card]) -> str:
    """A hand in the show: ``"four, five, jack of hearts, queen"`` (a jack
    with its suit, for nobs), or every card in full when a flush can be
    (:func:`suits_count`)."""
    if suits_count(hand):
        return cards_list(hand)
    return ", ".join(card_name(c) if c.rank == 11 else rank_name(c) for c in hand)


def show_cards(hand: Sequence[Card], starter: Card) -> str:
    """A hand to count, as it is said: ``"four, five, jack of hearts,
    queen; starter king of hearts"`` (:func:`hand_words`; the starter's
    suit when a flush or nobs can use it)."""
    needs_suit = suits_count(hand) or any(c.rank == 11 for c in hand)
    return f"{hand_words(hand)}; starter {card_name(starter) if needs_suit else rank_name(starter)}"


_GLYPH_SUITS = {"\u2663": "clubs", "\u2666": "diamonds", "\u2665": "hearts", "\u2660": "spades"}
_CARD_TEXT = re.compile("(10|[A2-9JQK])([\u2663\u2666\u2665\u2660])")
_RANK_TEXT = {"A": 1, "J": 11, "Q": 12, "K": 13}


def speak_cards(text: str) -> str:
    """``text`` with every card written the screen's way (``"5♥"``,
    ``"10♦"``) named in full (``"five of hearts"``): hints and notes
    made for the full screen, said in the line presentation."""
    def name(m: re.Match[str]) -> str:
        rank = _RANK_TEXT.get(m.group(1)) or int(m.group(1))
        return f"{_RANKS[rank - 1]} of {_GLYPH_SUITS[m.group(2)]}"

    return _CARD_TEXT.sub(name, text)


_DIGEST = re.compile(r"\b[0-9a-f]{64}\b")


def has_digest(text: str) -> bool:
    """True when ``text`` holds a 64-hex-digit seed or digest."""
    return _DIGEST.search(text) is not None


def short_digests(text: str) -> str:
    """``text`` with each 64-hex-digit seed or digest left out ("its
    digits on request"): 64 digits read out one by one help nobody when
    they come unasked (the seeds are read on a key, :func:`digest_groups`,
    and are all on the Recent games page)."""
    return _DIGEST.sub("(digits on request)", text)


def digest_groups(text: str) -> str:
    """``text`` with each 64-hex-digit seed or digest in groups of four,
    as a person compares them: ``"3e72 aa3c ad43 ..."``."""
    return _DIGEST.sub(lambda m: " ".join(m.group(0)[i:i + 4] for i in range(0, 64, 4)), text)


_RUN_LENGTH = {3: "three", 4: "four", 5: "five"}
_RUNS_COUNT = {2: "two", 3: "three", 4: "four"}


def cadence(show: ShowScore) -> str:
    """The show counted aloud, as players count it: the fifteens ("fifteen
    two, fifteen four"), then each part with the running total ("a pair is
    six", "a run of three is nine", "a flush of four is thirteen", "nobs is
    fourteen"); ``"nothing"`` for a hand that scores nothing.  The last
    number said is always the hand's total (checked against the scorer for
    100,000 random hands and cribs: tests/unit/test_speech.py)."""
    total = 0
    parts: list[str] = []
    for item in show.items:
        if item.kind is ShowKind.FIFTEEN:
            total += item.points
            parts.append(f"fifteen {number_words(total)}")
    pairs: dict[int, int] = {}
    for item in show.items:
        if item.kind is ShowKind.PAIR:
            pairs[item.cards[0].rank] = pairs.get(item.cards[0].rank, 0) + item.points
    for i, points in enumerate(pairs.values()):
        total += points
        name = {2: "another pair" if i else "a pair", 6: "a pair royal", 12: "a double pair royal"}[points]
        parts.append(f"{name} is {number_words(total)}")
    runs = [item for item in show.items if item.kind is ShowKind.RUN]
    if runs:
        total += sum(item.points for item in runs)
        length = _RUN_LENGTH[len(runs[0].cards)]
        name = f"a run of {length}" if len(runs) == 1 else f"{_RUNS_COUNT[len(runs)]} runs of {length}"
        parts.append(f"{name} is {number_words(total)}")
    for item in show.items:
        if item.kind is ShowKind.FLUSH:
            total += item.points
            parts.append(f"a flush of {number_words(len(item.cards))} is {number_words(total)}")
        elif item.kind is ShowKind.NOBS:
            total += item.points
            parts.append(f"nobs is {number_words(total)}")
    if not parts:
        return "nothing"
    if len(parts) <= 2:
        return " and ".join(parts)
    return ", ".join(parts[:-1]) + ", and " + parts[-1]


def _play_score_words(score: PlayScore) -> str:
    """``"two for fifteen"``, ``"three for a run of three"``, ``"one for the go"``."""
    what = {PlayKind.FIFTEEN: "fifteen", PlayKind.THIRTY_ONE: "thirty-one", PlayKind.PAIR: "a pair",
            PlayKind.PAIR_ROYAL: "a pair royal", PlayKind.DOUBLE_PAIR_ROYAL: "a double pair royal",
            PlayKind.GO: "the go", PlayKind.LAST_CARD: "last card"}.get(score.kind)
    if what is None:  # a run
        what = f"a run of {number_words(score.length)}"
    return f"{number_words(score.points)} for {what}"


def points_of(event: Event) -> tuple[int, int]:
    """The points ``event`` pegs for each seat (both for a count: the
    claimer's and the muggins)."""
    points = [0, 0]
    if isinstance(event, CardPlayed):
        points[event.seat] += sum(s.points for s in event.scores)
    elif isinstance(event, PlayPoint):
        points[event.seat] += event.score.points
    elif isinstance(event, StarterTurned):
        points[event.dealer] += event.heels
    elif isinstance(event, HandCounted):
        points[event.seat] += event.outcome.claimer
        points[1 - event.seat] += event.outcome.opponent
    return points[0], points[1]


def scores_event(event: Event) -> int | None:
    """The seat whose score ``event`` changes (the claimer's for a count,
    however the points went), or ``None``."""
    if isinstance(event, CardPlayed) and event.scores:
        return event.seat
    if isinstance(event, PlayPoint):
        return event.seat
    if isinstance(event, StarterTurned) and event.heels:
        return event.dealer
    if isinstance(event, HandCounted) and (event.outcome.claimer or event.outcome.opponent):
        return event.seat
    return None


class SpokenWords(Telling[list[str]]):
    """The events in short sentences for screen-reader mode
    (:class:`~door.ui.telling.Telling`): ``["You: five, fifteen, two for
    fifteen."]`` (the scores are added by the line seat).  Each fact once:
    a hand the caller counts was named in the count's prompt, so its
    result is the count alone; the starter is said when it is turned.  At
    most four lines an event (the line mode's budget is ten lines)."""


    def untold(self) -> list[str]:
        return []
    def cut_for_deal(self, event: CutForDeal) -> list[str]:
        who = self.who
        if not event.cuts:  # a fixed first dealer: the loser of the last game, a rematch, or the house's rule
            return [f"{subject(who[event.dealer], 'deal')} first."]
        a, b = event.cuts[-1]
        tie = "A tie; cut again. " * (len(event.cuts) > 1)
        return [f"{tie}{who[0]} cut the {card_name(a)}, {who[1]} the {card_name(b)}: "
                f"{subject(_lower(who[event.dealer]), 'deal')} first."]

    def hand_replayed(self, event: HandReplayed) -> list[str]:
        me = self.me
        return [f"Hand {number_words(event.number)} is played again. The scores go back to "
                f"{event.scores[me]} for you and {event.scores[1 - me]} for {self.who[1 - me]}."]

    def pegging_handed_over(self, event: PeggingHandedOver) -> list[str]:
        return [f"{subject(self.who[event.seat], 'let')} the computer peg this hand."]

    def hand_dealt(self, event: HandDealt) -> list[str]:
        return [f"Hand {number_words(event.number)}, {subject(_lower(self.who[event.dealer]), 'deal')}."]

    def discarded(self, event: Discarded) -> list[str]:
        if event.seat == self.me:
            return [f"Laid away: {card_name(event.cards[0])}, {card_name(event.cards[1])}."]
        return [f"{self.names[event.seat]} has laid away."]

    def starter_turned(self, event: StarterTurned) -> list[str]:
        line = f"Starter: {card_name(event.card)}."
        if event.heels:
            line += f" His heels: {subject(_lower(self.who[event.dealer]), 'peg')} two."
        return [line]

    def card_played(self, event: CardPlayed) -> list[str]:
        # by rank alone: the play scores by rank, and each card is named in full in the show if its suit scores
        line = f"{self.who[event.seat]}: {rank_name(event.card)}, {number_words(event.count)}"
        if event.scores:  # "Computer: five, fifteen, two for fifteen and three for a run of three."
            line += ", " + " and ".join(_play_score_words(s) for s in event.scores)
        return [line + "."]

    def go_declared(self, event: GoDeclared) -> list[str]:
        return [f"{self.who[event.seat]}: go."]

    def play_point(self, event: PlayPoint) -> list[str]:
        return [f"{self.who[event.seat]}: {_play_score_words(event.score)}."]

    def series_reset(self, event: SeriesReset) -> list[str]:
        return []  # (the next card's count, or the next turn's, says it is back to zero)

    def game_over(self, event: GameOver) -> list[str]:
        r = event.result
        line = f"{subject(self.who[r.winner], 'win')}, {r.scores[r.winner]} to {r.scores[1 - r.winner]}."
        if r.skunk is Skunk.SKUNK:
            line += f" A skunk: it counts {number_words(r.value)} games."
        elif r.skunk is Skunk.DOUBLE:
            line += f" A double skunk: it counts {number_words(r.value)} games."
        return [line]

    def hand_counted(self, event: HandCounted) -> list[str]:
        show, who, me = event.show, self.who, self.me
        what = "crib" if event.what is ShowTurn.CRIB else "hand"
        owner = possessive(who[event.seat])
        counted = f"{cadence(show)}."
        out = event.outcome
        if event.seat == me and event.claim is not None:
            head = counted.capitalize()  # its cards and the starter were in the prompt to count it
        else:  # (the starter was said when it was turned; suits that cannot score are left out)
            head = f"{owner} {what}: {hand_words(sorted(show.hand))}. {counted.capitalize()}"
        if event.claim is None:
            return [head]  # counted by the door: the count said is what is pegged
        if out.verdict is Verdict.EXACT:  # (the count said last is the claim: "right" says it was the player's)
            return [head[:-1] + ": right." if event.seat == me else head]
        claimer, other = who[event.seat], who[1 - event.seat]
        if out.verdict is Verdict.UNDER:
            line = f"{claimer} claimed {number_words(event.claim)}, {number_words(show.total - event.claim)} short."
            if out.opponent:
                line += f" Muggins: {subject(other, 'take')} {number_words(out.opponent)}."
        else:
            line = f"{claimer} claimed {number_words(event.claim)}, but it is worth {number_words(show.total)}."
            if out.claimer == 0:
                line += (f" {subject(claimer, 'peg')} nothing and {subject(other, 'peg')} "
                         f"{number_words(out.opponent)}.")
            else:
                line += f" {subject(claimer, 'peg')} {number_words(out.claimer)}."
        return [head, line]


def _lower(who: str) -> str:
    """``"you"`` for ``"You"`` inside a sentence; a name as it is."""
    return "you" if who == "You" else who


def spoken(event: Event, me: int, names: Sequence[str]) -> list[str]:
    """``event`` in short sentences for seat ``me`` (``names``: both
    seats' names; ``names[me]`` is said as "You"): see :class:`SpokenWords`."""
    return SpokenWords(me, names).tell(event)
