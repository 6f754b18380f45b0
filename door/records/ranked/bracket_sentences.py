"""A bracket said in sentences, pure: one a round, for screen-reader mode
and the plain-text bulletin ("Round 1: Ann beat Bob 2 games to 1; Cy has
a bye; Dee against Eve, to play.").  Plain ASCII words, no lines to read
aloud."""

from __future__ import annotations

from door.records.ranked.brackets import BracketState, Empty, Match, MatchState, Section, Source
from door.records.ranked.tournament import Kind

__all__ = ["sentences", "round_name", "rounds_said"]


def round_name(kind: Kind, match: Match, rounds: int) -> str:
    """What a match's round is called: ``"Round 1"`` and ``"Final"`` in a
    single elimination (``rounds``: the bracket's rounds); ``"Winners'
    round 2"``, ``"Losers' round 3"``, ``"Grand final"`` and ``"Reset"`` in
    a double."""
    if match.section is Section.FINAL:
        return "Grand final" if match.round == 1 else "Reset"
    if kind is Kind.SINGLE:
        return "Final" if match.round == rounds else f"Round {match.round}"
    side = "Winners'" if match.section is Section.WINNERS else "Losers'"
    return f"{side} round {match.round}"


def _match_words(state: BracketState, match_id: str) -> str:
    m = state.bracket.match(match_id)
    rounds = len(state.bracket.rounds(Section.WINNERS))
    name = round_name(state.bracket.kind, m, rounds).lower()
    if len(state.bracket.rounds(m.section)[m.round - 1]) > 1:
        return f"{name}, match {m.number}"
    return name if name.endswith("round") or " round " in name else f"the {name}"


def _slot(state: BracketState, s: MatchState, seat: int) -> str:
    player = s.players[seat]
    if isinstance(player, str):
        return player
    source: Source = s.match.sources[seat]
    if player is Empty.BYE or source.match is None:
        return "a bye"
    return f"the {'loser' if source.loser else 'winner'} of {_match_words(state, source.match)}"


def _say(state: BracketState, s: MatchState) -> str | None:
    """One match in words, or ``None`` when there is nothing to say (a bye against a bye)."""
    a, b = s.players
    if s.result is not None:
        won, lost = s.result.games
        loser = s.loser if isinstance(s.loser, str) else "?"
        return f"{s.result.winner} beat {loser} {won} game{'s' if won != 1 else ''} to {lost}"
    if s.match.section is Section.FINAL and s.match.round == 2 and s.walkover:
        return "not needed"
    if s.walkover:
        if a is Empty.BYE and b is Empty.BYE:
            return None
        return f"{s.winner} has a bye"
    verb = "to play" if s.ready else "to come"
    return f"{_slot(state, s, 0)} against {_slot(state, s, 1)}, {verb}"


def rounds_said(state: BracketState) -> list[tuple[str, list[str]]]:
    """``state`` round by round, in the order the bracket is played by
    section (winners', losers', the finals): each round's name
    (:func:`round_name`) and its matches in words (``"Ann beat Bob 2 games
    to 1"``, ``"Cy has a bye"``, ``"Dee against the winner of round 1,
    match 2, to come"``); a round with nothing to say (byes against byes)
    is left out."""
    kind = state.bracket.kind
    winners = len(state.bracket.rounds(Section.WINNERS))
    out = []
    for section in (Section.WINNERS, Section.LOSERS, Section.FINAL):
        for rnd in state.bracket.rounds(section):
            said = [w for w in (_say(state, state.matches[m.id]) for m in rnd) if w is not None]
            if said:
                out.append((round_name(kind, rnd[0], winners), said))
    return out


def sentences(state: BracketState) -> list[str]:
    """``state`` in sentences: one a round, in the order the bracket is
    played by section (winners', losers', the finals), then who is
    champion ("Champion: Ann." or "No champion yet.")."""
    out = [f"{name}: {'; '.join(said)}." for name, said in rounds_said(state)]
    out.append(f"Champion: {state.champion}." if state.champion is not None else "No champion yet.")
    return out
