"""A call or a connection of more games than one chain of the door's
seeds holds: the commitment a player is told before the next game is
that of the chain that deals it, never an error (the screens' options
screen and the protocol's ``welcome`` and ``seed`` read it; a used-up
chain raised there, so a program's 257th game on one connection ended
its session and a caller's showed "Sorry")."""

from __future__ import annotations

from typing import Any

import pytest

from door.caller.program import Program
from door.caller.program_side import ProgramSide
from door.caller.side import CallerSide
from door.play.deals import Dealer
from engine.match import Match
from engine.rules import Rules
from engine.shuffle import SeedChain, commitment


def _side(kind: str) -> Any:
    """A side whose chain of two seeds the call has used up."""
    chain = SeedChain("ab" * 32, 2)
    chain.take()
    chain.take()
    if kind == "program":
        side = ProgramSide(None, None, None, None, Program("Bot"))  # type: ignore[arg-type]
        side.who.seeds = chain
    else:
        side = CallerSide(None, None, None, None)  # type: ignore[arg-type]
        side.seeds = chain
    return side


@pytest.mark.parametrize("kind", ["program", "caller"])
def test_a_used_up_chain_gives_way_to_one_whose_commitment_deals_the_next_game(kind: str) -> None:
    side = _side(kind)
    told = side.seeds.next_commitment  # (raised ValueError: the chain is used up)
    game = Dealer(lambda: None, side.seeds).next_game(Match(Rules()), ("cd" * 32, "ef" * 32),
                                                     lambda text: pytest.fail(f"a new chain said mid-table: {text}"))
    assert game.shuffle is not None and commitment(game.shuffle.server_seed) == told
    assert side.seeds.left == side.seeds.length - 1  # (the same chain from then on, one seed used)
