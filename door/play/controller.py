"""The human seat's controller: pure functions from (what the screen
holds, the game, where the table stands, a key) to what the player means.

:func:`prompt_for` (:mod:`door.play.prompting`) works out the mode of the
keys and the prompt line from the game now; :func:`handle_key` changes the :class:`ViewState` (the bar,
the selection, the count being typed, the chat line) and returns
*intents* (:data:`Intent`) for the seat to carry out at the table.  No
sockets, no asyncio, no table: unit-tested key by key.

Keys (as in the original door): arrows (and ``h``/``l``, ``4``/``6``) move the highlight
bar, Home and End put it on the first and last card, RETURN or space
selects or plays, DEL unselects; digits and RETURN
count a hand; ``?`` asks for a hint (as in Cribbage Partner), ``o`` turns the rules box
on or off, ``c`` opens the chat window against the sysop, Q or Ctrl-C asks
to leave; before a hand (chat mode) RETURN on a blank line deals and
Ctrl-R replays the last hand against the computer.  Which keys mean what
is data, tables of bindings (:mod:`door.play.key_bindings`): :data:`TABLE_KEYS`,
:data:`CARD_KEYS`, :data:`OVER_KEYS`, :data:`ANSWER_KEYS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from door.net.keys import Key, KeyName
from door.play.hints import hint
from door.play.key_bindings import bind
from door.play.options import SEED_LIMIT
from door.play.prompting import Seating, cursor_to_unplayed, may_replay, prompt_for, shown
from door.play.view_state import Mode, ViewState
from door.ui.words import card_text
from engine.actions import Action, Claim, Discard, HandOver, Play, ReplayHand
from engine.game import Game, Phase
from engine.handover import handed_over
from engine.scoring import MAX_SHOW_POINTS

__all__ = ["Seating", "Submit", "Deal", "Say", "Leave", "Abandon", "Again", "SetSeed", "Release", "Beep", "Intent",
           "may_replay", "prompt_for", "handle_key"]


@dataclass(frozen=True)
class Submit:
    """Send ``action`` to the table."""

    action: Action


@dataclass(frozen=True)
class Deal:
    """Deal the hand on the table (RETURN on a blank chat line)."""


@dataclass(frozen=True)
class Say:
    """Send the chat line ``text``."""

    text: str


@dataclass(frozen=True)
class Leave:
    """Leaving the table: ``asking`` is whether the question "Leave this
    game? (Y/N)" stands (Q puts it, N takes it back); ``confirmed``: leave
    now (Y)."""

    asking: bool = True
    confirmed: bool = False


@dataclass(frozen=True)
class Abandon:
    """Give up waiting for the absent opponent."""


@dataclass(frozen=True)
class Again:
    """The answer to "play again?"."""

    yes: bool


@dataclass(frozen=True)
class SetSeed:
    """Make ``text`` the player's seed for the shuffles to come (typed at
    "Play again?", after the next game's commitment was shown)."""

    text: str


@dataclass(frozen=True)
class Release:
    """Let the held computer go on (the "prompt" pace)."""


@dataclass(frozen=True)
class Beep:
    """A wrong key: ring the bell if the player wants it."""


Intent = Submit | Deal | Say | Leave | Abandon | Again | SetSeed | Release | Beep

_DELETE = {KeyName.DELETE, KeyName.BACKSPACE}


def handle_key(vs: ViewState, game: Game, seating: Seating, key: Key, chat_limit: int = 70) -> list[Intent]:
    """React to one ``key`` in the mode :func:`prompt_for` set; returns what
    the seat must do at the table, in order.  ``chat_limit``: the longest
    chat line, in characters."""
    if seating.leaving:
        return _leave_key(vs, key)
    if vs.lingering and not seating.dealt:
        vs.lingering = False  # any key: on to chat mode
        return []
    if vs.seed_input is not None and vs.mode is Mode.OVER and seating.asking_again:
        return _seed_key(vs, key)  # (every letter is the seed's here: O, Q and ? included)
    intents: list[Intent] = []
    if vs.holding:
        intents.append(Release())
        if vs.mode is Mode.WAIT:
            return intents
    if vs.mode is Mode.CHAT or vs.chatting:
        return intents + _chat_key(vs, game, seating, key, chat_limit)
    meaning = TABLE_KEYS.meaning(key)
    table_key = _TABLE_KEYS.get(meaning) if meaning is not None else None
    done = table_key(vs, game, seating) if table_key is not None else None
    if done is not None:
        return intents + done
    handler = {Mode.DISCARD: _discard_key, Mode.PLAY: _play_key, Mode.COUNT: _count_key,
               Mode.OVER: _over_key, Mode.WAIT: _wait_key}[vs.mode]
    return intents + handler(vs, game, seating, key)


def _leave_key(vs: ViewState, key: Key) -> list[Intent]:
    """Keys at "Leave this game? (Y/N)"."""
    answer = ANSWER_KEYS.meaning(key)
    if answer == "yes":
        vs.say("You leave the table.")
        return [Leave(asking=False, confirmed=True)]
    if answer == "no" or key.name is KeyName.ESCAPE:
        return [Leave(asking=False)]
    return []


def _abandon(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    return [Abandon()] if seating.absent else None


def _hint(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    if vs.mode not in (Mode.DISCARD, Mode.PLAY):
        return None
    if not seating.hints:
        vs.tell("No hints in a game between people (a house rule).")
    elif vs.hint_for != len(game.actions):  # a second ? in the same state costs nothing (a flood of ?s)
        vs.hint, text = hint(game, seating.me)
        vs.hint_for = len(game.actions)
        vs.tell(text)
    return []


def _rules_box(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    if vs.mode is Mode.COUNT:
        return None
    vs.options.box = not vs.options.box
    return []


def _leave(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    return None if vs.mode in (Mode.COUNT, Mode.OVER) else [Leave()]


def _open_chat(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    if vs.mode not in (Mode.DISCARD, Mode.WAIT):
        return None
    if seating.computer:
        vs.tell("Chat is for games against the sysop: the computer does not chat.")
    else:
        vs.chatting = True
    return []


def _peg_for_me(vs: ViewState, game: Game, seating: Seating) -> list[Intent] | None:
    if not seating.by_turns or game.phase not in (Phase.DISCARD, Phase.PLAY) or not game.hands[seating.me]:
        return None
    if handed_over(game, seating.me):
        vs.tell("The computer pegs this hand for you already.")
        return []
    return [Submit(HandOver(seating.me))]


TABLE_KEYS = bind(("abandon", "aA"), ("hint", "?"), ("rules box", "oO"), ("leave", [KeyName.CTRL_C, "qQ"]),
                  ("chat", "cC"), ("peg for me", "pP"))
"""The keys of the game screen in every mode but chat and the seed's
line: A gives up waiting for an absent player, ? a hint, O the rules
box, Q or Ctrl-C leaves, C opens the chat window, P (a game by turns)
lets the computer peg this hand.  Each acts where it applies
(:data:`_TABLE_KEYS`); elsewhere the key goes to the mode's own keys."""

_TABLE_KEYS = {"abandon": _abandon, "hint": _hint, "rules box": _rules_box, "leave": _leave, "chat": _open_chat,
               "peg for me": _peg_for_me}

ANSWER_KEYS = bind(("yes", "yY"), ("no", "nN"))
"""Y and N at a question."""

CARD_KEYS = bind(("left", [KeyName.LEFT, KeyName.UP, "h4"]), ("right", [KeyName.RIGHT, KeyName.DOWN, "l6"]),
                 ("first", [KeyName.HOME]), ("last", [KeyName.END]), ("choose", [KeyName.ENTER, " "]),
                 ("unchoose", [KeyName.DELETE, KeyName.BACKSPACE]))
"""The keys among the cards (the bar, choosing and unchoosing), at the discard and in the play."""

OVER_KEYS = bind(("seed", "sSeE"), ("again", "yY"), ("no more", "nNqQ"))
"""The keys at "Play again?": S (or E: S is a reading key in screen-reader mode) sets the seed."""


def _chat_key(vs: ViewState, game: Game, seating: Seating, key: Key, chat_limit: int) -> list[Intent]:
    """Keys in chat mode (before a hand) or in the chat window."""
    if key.name is KeyName.ENTER:
        if vs.chat_input.strip():
            text, vs.chat_input = vs.chat_input, ""
            return [Say(text)]
        if vs.chatting:
            vs.chatting = False
            return []
        return [Deal()]
    if key.name is KeyName.ESCAPE:
        vs.chatting = False
        vs.chat_input = ""
    elif key.name in _DELETE:
        vs.chat_input = vs.chat_input[:-1]
    elif key.name is KeyName.CTRL_R and vs.mode is Mode.CHAT and may_replay(game, seating):
        return [Submit(ReplayHand(seating.me))]
    elif key.name is KeyName.CHAR:
        if len(vs.chat_input) < chat_limit:
            vs.chat_input += key.char
        else:  # said, not cut without a word
            vs.tell(f"A chat line holds {chat_limit} characters: RETURN sends it.")
    elif key.name is KeyName.CTRL_C and not vs.chatting:
        return [Leave()]
    return []


def _wrong(vs: ViewState, text: str) -> list[Intent]:
    """A key that does nothing here: say what would (once) and beep."""
    vs.tell(text)
    return [Beep()]


def _discard_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    me = seating.me
    hand = shown(vs, game, me)
    meaning = CARD_KEYS.meaning(key)
    if meaning == "left":
        vs.cursor = (vs.cursor - 1) % len(hand)
    elif meaning == "right":
        vs.cursor = (vs.cursor + 1) % len(hand)
    elif meaning == "first":
        vs.cursor = 0
    elif meaning == "last":
        vs.cursor = len(hand) - 1
    elif meaning == "choose":
        card = hand[vs.cursor]
        if len(vs.selected) == 2:
            thrown = (vs.selected[0], vs.selected[1])
            vs.selected = []  # (the seat works out the discard's analysis, off the event loop)
            return [Submit(Discard(me, thrown))]
        if card in vs.selected:
            vs.tell(f"{card_text(card)} is already selected; DEL unselects it.")
        else:
            vs.selected.append(card)
    elif meaning == "unchoose":
        card = hand[vs.cursor]
        if card in vs.selected:
            vs.selected.remove(card)
        elif vs.selected:
            vs.selected.pop()
    else:
        return _wrong(vs, "Arrows move the bar, RETURN selects, DEL unselects.")
    return []


def _play_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    me = seating.me
    meaning = CARD_KEYS.meaning(key)
    if meaning == "left":
        cursor_to_unplayed(vs, game, me, -1)
    elif meaning == "right":
        cursor_to_unplayed(vs, game, me, 1)
    elif meaning in ("first", "last"):
        held = [i for i, c in enumerate(shown(vs, game, me)) if c in game.hands[me]]
        if held:
            vs.cursor = held[0] if meaning == "first" else held[-1]
    elif meaning == "choose":
        card = shown(vs, game, me)[vs.cursor]
        if card not in game.hands[me]:
            vs.tell(f"{card_text(card)} has been played already.")
        elif game.count + card.pip > 31:
            vs.tell(f"{card_text(card)} would take the count past 31: choose another card.")
        else:
            return [Submit(Play(me, card))]
    else:
        return _wrong(vs, "Arrows choose a card, RETURN plays it.")
    return []


def _count_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    if key.name is KeyName.CHAR and key.char.isdigit():
        if len(vs.typed) < 2:
            vs.typed += key.char
    elif key.name in _DELETE:
        vs.typed = vs.typed[:-1]
    elif key.name is KeyName.ENTER:
        if not vs.typed:
            vs.tell("Type the points of the hand, then RETURN (0 if it scores nothing).")
            return []
        points, vs.typed = int(vs.typed), ""
        if points > MAX_SHOW_POINTS:
            vs.tell(f"No hand scores more than {MAX_SHOW_POINTS}: type the count again.")
            return []
        return [Submit(Claim(seating.me, points))]
    else:
        return _wrong(vs, "Type the points with the number keys, then RETURN.")
    return []


def _over_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    if not seating.asking_again:
        return []
    meaning = OVER_KEYS.meaning(key)
    if meaning == "seed":  # the next game's commitment was shown with the result: a seed chosen after it
        vs.seed_input = ""
        vs.tell("Type any words for your seed (they are hashed); RETURN sets it; ESC, or RETURN alone, keeps yours.")
        return []
    if meaning in ("again", "no more"):
        return [Again(meaning == "again")]
    return _wrong(vs, "Press Y to play again, N to leave, or S to set your seed.")


def _seed_key(vs: ViewState, key: Key) -> list[Intent]:
    """Keys while a seed is typed at "Play again?"."""
    assert vs.seed_input is not None
    if key.name is KeyName.ENTER:
        text, vs.seed_input = vs.seed_input.strip(), None
        return [SetSeed(text)] if text else []
    if key.name is KeyName.ESCAPE:
        vs.seed_input = None
    elif key.name in _DELETE:
        vs.seed_input = vs.seed_input[:-1]
    elif key.name is KeyName.CHAR:
        if len(vs.seed_input) < SEED_LIMIT:
            vs.seed_input += key.char
        else:
            vs.tell(f"A seed holds {SEED_LIMIT} characters: RETURN sets it.")
    return []


def _wait_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    return _wrong(vs, f"Please wait: it is {seating.opponent}'s turn.")
