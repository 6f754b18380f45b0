"""The human seat's controller: pure functions from (what the screen
holds, the game, where the table stands, a key) to what the player means.

:func:`prompt_for` works out the mode of the keys and the prompt line from
the game now; :func:`handle_key` changes the :class:`ViewState` (the bar,
the selection, the count being typed, the chat line) and returns
*intents* (:data:`Intent`) for the seat to carry out at the table.  No
sockets, no asyncio, no table: unit-tested key by key.

Keys (as in the original door): arrows (and ``h``/``l``, ``4``/``6``) move the highlight
bar, Home and End put it on the first and last card, RETURN or space
selects or plays, DEL unselects; digits and RETURN
count a hand; ``?`` asks for a hint (as in Cribbage Partner), ``o`` turns the rules box
on or off, ``c`` opens the chat window against the sysop, Q or Ctrl-C asks
to leave; before a hand (chat mode) RETURN on a blank line deals and
Ctrl-R replays the last hand against the computer.
"""

from __future__ import annotations

from dataclasses import dataclass

from door.net.keys import Key, KeyName
from door.play.game_view import my_cards
from door.play.hints import hint
from door.play.options import SEED_LIMIT
from door.play.view_state import Mode, ViewState
from door.ui.cells import cell_width
from door.ui.words import card_text
from engine.actions import Action, Claim, Discard, Play, ReplayHand
from engine.cards import Card
from engine.game import Game, Phase
from engine.scoring import MAX_SHOW_POINTS

__all__ = ["Seating", "Submit", "Deal", "Say", "Leave", "Abandon", "Again", "SetSeed", "Release", "Beep", "Intent",
           "may_replay", "prompt_for", "handle_key"]


@dataclass(frozen=True)
class Seating:
    """Where the table stands for seat ``me``: both ``names``; whether the
    opponent is the ``computer``; whether the hand on the table was
    ``dealt`` (else chat mode, as in the original door); whether the opponent is
    ``absent`` (line dropped) and the ``seconds_left`` for them to come
    back; whether the table is ``asking_again`` (play another game?);
    whether this player is ``leaving`` (asked Q, not yet answered);
    whether ``hints`` are given."""

    me: int
    names: tuple[str, str]
    computer: bool = True
    dealt: bool = True
    absent: bool = False
    seconds_left: int = 0
    asking_again: bool = False
    leaving: bool = False
    hints: bool = True
    """Whether hints are given (? and the best discard after the hand):
    always against the computer, between people as the house says."""
    again_question: str = "Play again?"
    """What the table asks after a game ("Rematch?" after a match)."""
    leave_question: str = "Leave this game? (Y/N)"
    """What the table asks before this player leaves on purpose (in a
    rated match, what it costs: :meth:`door.play.table.Table.leave_question`)."""
    rated: bool = False
    """A rated match (the player who stays cannot end it while the other is away)."""

    @property
    def opponent(self) -> str:
        return self.names[1 - self.me]


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

_LEFT = {KeyName.LEFT, KeyName.UP}
_RIGHT = {KeyName.RIGHT, KeyName.DOWN}
_DELETE = {KeyName.DELETE, KeyName.BACKSPACE}


def _char(key: Key, chars: str) -> bool:
    return key.name is KeyName.CHAR and key.char in chars


def may_replay(game: Game, seating: Seating) -> bool:
    """Replaying a hand is offered against the computer only (against a
    person both would have to agree)."""
    return game.can_replay() and seating.computer


def prompt_for(vs: ViewState, game: Game, seating: Seating) -> None:
    """Set ``vs.mode`` and ``vs.prompt`` from the game now (the next key
    depends on them), and keep the bar on a card that is there."""
    me, opponent = seating.me, seating.opponent
    vs.before_deal = not seating.dealt and not game.over
    if seating.leaving:
        vs.prompt = seating.leave_question
    elif not game.over and seating.absent:
        vs.mode = Mode.WAIT
        left = seating.seconds_left
        then = "then the match is yours by forfeit" if seating.rated else "A abandons the game"
        vs.prompt = f"Waiting for {opponent} to come back ({left // 60}:{left % 60:02d}); {then}."
    elif game.over:
        vs.mode = Mode.OVER
        if not seating.asking_again:
            vs.seed_input = None
            vs.prompt = "Game over."
        elif vs.seed_input is not None:
            vs.prompt = "Your seed: "
        else:
            vs.prompt = f"{seating.again_question} (Y/N; S sets your seed)"
    elif not seating.dealt and vs.lingering:
        vs.mode = Mode.WAIT
        vs.prompt = "Press a key to go on."
    elif not seating.dealt:
        vs.mode = Mode.CHAT
        # every chat prompt says how to leave: Q and Y are chat here
        if me == game.dealer or seating.computer:
            vs.prompt = "Chat, then RETURN on a blank line deals. Ctrl-C leaves the table."
            if may_replay(game, seating):
                vs.prompt = "Chat; RETURN on a blank line deals, Ctrl-R replays the hand, Ctrl-C leaves."
        else:
            vs.prompt = f"Chat; {opponent} deals with RETURN on a blank line. Ctrl-C leaves."
    elif vs.chatting:
        vs.prompt = "Chat: RETURN sends, RETURN on a blank line or ESC goes back to your cards."
    elif me in game.to_act() and game.phase is Phase.DISCARD:
        vs.mode = Mode.DISCARD
        crib = "your" if game.dealer == me else (f"{opponent}'s" if cell_width(opponent) <= 10 else "their")
        if len(vs.selected) < 2:
            vs.prompt = f"Choose 2 cards for {crib} crib: arrows, RETURN selects, DEL unselects."
        else:
            vs.prompt = (f"RETURN lays away {card_text(vs.selected[0])} {card_text(vs.selected[1])}"
                         f" to {crib} crib; DEL unselects.")
        vs.cursor = min(vs.cursor, len(game.hands[me]) - 1)
    elif me in game.to_act() and game.phase is Phase.PLAY:
        first_turn = vs.mode is not Mode.PLAY and len(game.hands[me]) == 4
        vs.mode = Mode.PLAY
        vs.prompt = f"Your turn, count {game.count}: arrows choose a card, RETURN plays it."
        if first_turn:  # the bar starts the play on the first card that may be played, not where the discard left it
            playable = game.playable(me)
            vs.cursor = next((i for i, c in enumerate(_shown(vs, game, me)) if c in playable), 0)
        _cursor_to_unplayed(vs, game, me, 0)
    elif me in game.to_act() and game.phase is Phase.SHOW:
        assert game.show_turn is not None
        if vs.mode is not Mode.COUNT:
            vs.typed = ""
        vs.mode = Mode.COUNT
        vs.prompt = f"Count your {game.show_turn[1].value} (type the points, RETURN): "
    else:
        vs.mode = Mode.WAIT
        if vs.holding:
            vs.prompt = "Press a key to go on."
        elif game.phase is Phase.DISCARD:
            vs.prompt = f"Waiting for {opponent} to lay away two cards..."
        else:
            vs.prompt = f"{opponent}'s turn..."
    _notes_go_with_their_mode(vs)


def _notes_go_with_their_mode(vs: ViewState) -> None:
    if vs.note and vs.note_mode is not vs.mode:
        vs.note, vs.note_mode = "", None


def handle_key(vs: ViewState, game: Game, seating: Seating, key: Key, chat_limit: int = 70) -> list[Intent]:
    """React to one ``key`` in the mode :func:`prompt_for` set; returns what
    the seat must do at the table, in order.  ``chat_limit``: the longest
    chat line, in characters."""
    if seating.leaving:
        if _char(key, "yY"):
            vs.say("You leave the table.")
            return [Leave(asking=False, confirmed=True)]
        if key.name is KeyName.ESCAPE or _char(key, "nN"):
            return [Leave(asking=False)]
        return []
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
    if seating.absent and _char(key, "aA"):
        return intents + [Abandon()]
    if _char(key, "?") and vs.mode in (Mode.DISCARD, Mode.PLAY) and not seating.hints:
        vs.tell("No hints in a game between people (a house rule).")
        return intents
    if _char(key, "?") and vs.mode in (Mode.DISCARD, Mode.PLAY):
        if vs.hint_for != len(game.actions):  # a second ? in the same state costs nothing (a flood of ?s)
            vs.hint, text = hint(game, seating.me)
            vs.hint_for = len(game.actions)
            vs.tell(text)
        return intents
    if _char(key, "oO") and vs.mode is not Mode.COUNT:
        vs.options.box = not vs.options.box
        return intents
    if (key.name is KeyName.CTRL_C or _char(key, "qQ")) and vs.mode not in (Mode.COUNT, Mode.OVER):
        return intents + [Leave()]
    if _char(key, "cC") and vs.mode in (Mode.DISCARD, Mode.WAIT):
        if seating.computer:
            vs.tell("Chat is for games against the sysop: the computer does not chat.")
        else:
            vs.chatting = True
        return intents
    handler = {Mode.DISCARD: _discard_key, Mode.PLAY: _play_key, Mode.COUNT: _count_key,
               Mode.OVER: _over_key, Mode.WAIT: _wait_key}[vs.mode]
    return intents + handler(vs, game, seating, key)


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


def _shown(vs: ViewState, game: Game, me: int) -> list[Card]:
    """The player's cards in the order on the screen."""
    return my_cards(game, me, vs.options.sort)


def _cursor_to_unplayed(vs: ViewState, game: Game, me: int, step: int) -> None:
    """Move the bar ``step`` cards among those still in hand (0: onto the
    nearest one still in hand)."""
    held = game.hands[me]
    indexes = [i for i, c in enumerate(_shown(vs, game, me)) if c in held]
    if not indexes:
        return
    if step == 0:
        if vs.cursor not in indexes:
            vs.cursor = min(indexes, key=lambda i: (i < vs.cursor, abs(i - vs.cursor)))
        return
    pos = indexes.index(vs.cursor) if vs.cursor in indexes else 0
    vs.cursor = indexes[(pos + step) % len(indexes)]


def _wrong(vs: ViewState, text: str) -> list[Intent]:
    """A key that does nothing here: say what would (once) and beep."""
    vs.tell(text)
    return [Beep()]


def _discard_key(vs: ViewState, game: Game, seating: Seating, key: Key) -> list[Intent]:
    me = seating.me
    hand = _shown(vs, game, me)
    if key.name in _LEFT or _char(key, "h4"):
        vs.cursor = (vs.cursor - 1) % len(hand)
    elif key.name in _RIGHT or _char(key, "l6"):
        vs.cursor = (vs.cursor + 1) % len(hand)
    elif key.name is KeyName.HOME:
        vs.cursor = 0
    elif key.name is KeyName.END:
        vs.cursor = len(hand) - 1
    elif key.name is KeyName.ENTER or _char(key, " "):
        card = hand[vs.cursor]
        if len(vs.selected) == 2:
            thrown = (vs.selected[0], vs.selected[1])
            vs.selected = []  # (the seat works out the discard's analysis, off the event loop)
            return [Submit(Discard(me, thrown))]
        if card in vs.selected:
            vs.tell(f"{card_text(card)} is already selected; DEL unselects it.")
        else:
            vs.selected.append(card)
    elif key.name in _DELETE:
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
    if key.name in _LEFT or _char(key, "h4"):
        _cursor_to_unplayed(vs, game, me, -1)
    elif key.name in _RIGHT or _char(key, "l6"):
        _cursor_to_unplayed(vs, game, me, 1)
    elif key.name in (KeyName.HOME, KeyName.END):
        held = [i for i, c in enumerate(_shown(vs, game, me)) if c in game.hands[me]]
        if held:
            vs.cursor = held[0] if key.name is KeyName.HOME else held[-1]
    elif key.name is KeyName.ENTER or _char(key, " "):
        card = _shown(vs, game, me)[vs.cursor]
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
    if _char(key, "sSeE"):  # (E too: S is a reading key in screen-reader mode) the next game's commitment was shown with the result: a seed chosen after it
        vs.seed_input = ""
        vs.tell("Type any words for your seed (they are hashed); RETURN sets it; ESC, or RETURN alone, keeps yours.")
        return []
    if _char(key, "yY"):
        return [Again(True)]
    if _char(key, "nNqQ"):
        return [Again(False)]
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
