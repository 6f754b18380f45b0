"""The game screen, as one player sees it.

Layout at 80x24 (more rows lengthen the message area):

- row 0: the title bar (game number, run mode, target, games won);
- rows 2-6: the pegboard (seat 0's track, then seat 1's);
- row 8: dealer and crib, the count;
- rows 10-12: the opponent's cards (backs until the show), with the
  play-order number above each card played and ``x`` above cards of earlier
  series (as in the original door); the crib and the starter on the right;
- rows 14-16: the player's cards with the cyan highlight bar, selected cards
  in yellow (as in the original door);
- rows 18 .. rows-2: messages, newest last, explaining every score in words;
- the last row: the prompt, which says what the player may do now.

:func:`paint_game` draws all of it into a :class:`Canvas` from the
:class:`~engine.game.Game` and a :class:`ViewState`; the renderer then sends
only what changed.
"""

from __future__ import annotations

import time
from functools import lru_cache, partial
from operator import attrgetter

from door.net.charset import SUIT_GLYPHS
from door.play.board import board_height, draw_legend, draw_track, track_rows
from door.play.options import CallerOptions
from door.play.view_state import Mode, ViewState
from door.ui.canvas import Canvas
from door.ui.cells import cell_width, fit
from door.ui.style import BLACK, BLUE, CYAN, GREEN, MAGENTA, RED, WHITE, YELLOW, Style
from door.ui.words import show_summary
from engine.cards import Card
from engine.events import HandCounted, ShowTurn
from engine.game import Game, Phase
from engine.rules import Counting, Rules
from engine.scoring import RunMode
from engine.tally import HandRecord

__all__ = ["paint_game", "rules_summary", "CARD_WIDTH", "CARD_STEP", "HAND_COL", "PEG_COLOURS",
           "layout_rows"]

CARD_WIDTH = 4
"""Cells per card: ``" 5♥ "`` or ``"10♦ "``."""
CARD_STEP = 5
"""Columns from one card to the next."""
HAND_COL = 2
"""Column of the first card of a hand."""
PEG_COLOURS = (GREEN, MAGENTA)
"""Peg colour of seat 0 and seat 1."""
TRACKS = ("track 0", "track 1")
"""The bands of seat 0's and seat 1's tracks on the pegboard."""

TITLE = Style(fg=WHITE, bg=BLUE, bold=True)
LABEL = Style(fg=CYAN, bold=True)
TEXT = Style(fg=WHITE)
DIM = Style(fg=WHITE)
BRIGHT = Style(fg=WHITE, bold=True)
ORDER = Style(fg=YELLOW, bold=True)
PROMPT = Style(fg=YELLOW, bold=True)
RULE = Style(fg=BLUE)
NOTE = Style(fg=YELLOW)
CARD_BACK = Style(fg=CYAN, bg=BLUE)
CARD_BACK_CELLS = "\u2592" * CARD_WIDTH
BAR_BG = CYAN          # the highlight bar (the original door: "cyan highlight bar")
SELECTED_BG = YELLOW   # a selected card (the original door: "highlighted yellow")


def layout_rows(rules: Rules) -> dict[str, int]:
    """Row numbers of the screen's parts for ``rules`` (the board is shorter
    for a 61-point game)."""
    board_top = 2
    info = board_top + board_height(rules.game_to) + 1
    return {"board": board_top, "info": info, "opponent": info + 2, "mine": info + 6,
            "messages": info + 10}


@lru_cache(maxsize=256)
def _card_face(card: Card, bg: int) -> tuple[str, Style]:
    """A face-up card's four cells and their style (memoized: 52 cards in a
    few backgrounds, drawn on every frame)."""
    rank = "10" if card.rank == 10 else " " + card.rank_char
    return f"{rank}{SUIT_GLYPHS[card.suit.letter]} ", Style(fg=RED if card.suit.is_red else BLACK, bg=bg)


def draw_card(canvas: Canvas, row: int, col: int, card: Card | None, bg: int = WHITE) -> None:
    """One card in four cells at (``row``, ``col``): face up, or its back
    when ``card`` is ``None``."""
    if card is None:
        canvas.put(row, col, CARD_BACK_CELLS, CARD_BACK)
        return
    text, style = _card_face(card, bg)
    canvas.put(row, col, text, style)


def _order_marks(game: Game, seat: int) -> dict[int, str]:
    """The mark above each card ``seat`` played, by the card's index (an
    int hashes in C, a card in Python): its order in the current series,
    or ``x`` from an earlier one."""
    series = game.series_number
    return {p.card.index: str(p.order) if p.series == series else "x" for p in game.played[seat]}


def my_cards(game: Game, me: int, sort: bool = True) -> list[Card]:
    """The cards shown in the player's row: six while discarding, then the
    four kept (played ones stay in place, marked); in rank order when
    ``sort`` (Black Dog Cribbage's automatic sort), else as dealt."""
    cards = list(game.hands[me]) if game.phase is Phase.DISCARD else list(game.kept[me])
    return sorted(cards, key=_BY_INDEX) if sort else cards  # (the index's order is the cards' own, and fast)


_BY_INDEX = attrgetter("index")


def paint_game(canvas: Canvas, game: Game, me: int, names: list[str], vs: ViewState) -> None:
    """Draw the whole game screen for seat ``me`` into ``canvas``.

    ``names``: both seats' display names; ``vs``: the :class:`ViewState`."""
    rows = layout_rows(game.rules)
    opp = 1 - me
    you = -1 if vs.spectator else me  # whom the words call "you": nobody, for a watcher
    # the parts that change seldom are bands, painted again only when what
    # they show changed: each key is all its painter reads
    rules = game.rules
    box = vs.options.box
    vs.band("title").draw(canvas, 0, 2, (game.number, rules, vs.series, vs.match_points, box,
                                         box and vs.options.skill, box and vs.computer),
                          lambda band: _title(band, game, names, vs))
    # the board as three bands: a peg moving paints its own track again
    # and the legend's scores, not the other track
    board, track = rows["board"], track_rows(rules.game_to)
    pegs = game.pegs
    for seat in (0, 1):
        peg, name = pegs[seat], names[seat]
        vs.band(TRACKS[seat]).draw(canvas, board + seat * (track + 1), track,
                                   (rules.game_to, rules.skunk, rules.double_skunk, peg.front, peg.back, name),
                                   partial(draw_track, top=0, rules=rules, peg=peg, name=name,
                                           colour=PEG_COLOURS[seat]))
    vs.band("legend").draw(canvas, board + track, 1, (pegs[0].front, pegs[1].front, tuple(names)),
                           lambda band: draw_legend(band, 0, pegs, names, PEG_COLOURS))
    # before a deal the screen is the last show and the chat, whatever the
    # keys do (a player who is waiting for an absent opponent included);
    # while the last count lingers, its messages: never the cards of the
    # hand that is not dealt yet
    before_deal = vs.mode is Mode.CHAT or vs.before_deal
    chat = vs.mode is Mode.CHAT or (vs.before_deal and not vs.lingering)
    playing = game.phase is Phase.PLAY
    vs.band("info").draw(canvas, rows["info"], 1, (game.dealer, you, tuple(names), vs.replayed_hand, before_deal,
                                                    game.count if playing else -1, game.hand_number, vs.clock),
                         lambda band: _info(band, 0, game, you, names, vs.replayed_hand, before_deal=before_deal,
                                            clock=vs.clock))
    if before_deal and vs.review:
        _review(canvas, rows["opponent"], vs.review, you, names, vs.options.sort)
        if vs.recap is not None:
            _recap(canvas, rows["opponent"] + 1 + len(vs.review), vs.recap, me, names, you)
    elif before_deal:
        _before_the_deal(canvas, rows["opponent"], game, you, names, vs)
    else:
        _hands(canvas, rows, game, me, opp, names, vs)
    if chat or vs.chatting:
        _chat(canvas, rows["messages"], canvas.rows - 1, vs)
    else:  # the rule above the area to the row above the prompt
        top, bottom = rows["messages"], canvas.rows - 1
        # (not msg_top nor msg_painted: the painter sets them, so a key
        # taken before it painted would differ at every frame after)
        vs.band("messages").draw(canvas, top - 1, bottom - top + 1, (vs.log_version, len(vs.log), vs.note),
                                 lambda band: _messages(band, 1, bottom - top + 1, vs))
    _prompt(canvas, vs)


def _title(canvas: Canvas, game: Game, names: list[str], vs: ViewState) -> None:
    canvas.fill(0, 0, canvas.cols, TITLE)
    runs = "runs in order" if game.rules.run_mode is RunMode.ORDERED else "runs any order"
    left = f" CRIBBAGE  Game #{game.number}  to {game.rules.game_to}  {runs}"
    right = f"{vs.series or f'Games {vs.match_points[0]}-{vs.match_points[1]}'}  ^L redraw "
    canvas.put(0, 0, left, TITLE)
    canvas.put(0, canvas.cols - len(right), right, TITLE)
    if vs.options.box:  # the rules box, under the title
        canvas.put(1, 1, rules_summary(game.rules, vs.options, vs.computer), Style(fg=CYAN))


def _info(canvas: Canvas, row: int, game: Game, me: int, names: list[str], replayed: bool = False,
          before_deal: bool = False, clock: str = "") -> None:
    """Who deals this hand (``before_deal``: the hand about to be dealt,
    while the last one's show is still on screen), the decision ``clock``
    that runs (a game between people), the count, the hand."""
    dealer = "You" if game.dealer == me else names[game.dealer]
    crib = "your crib" if game.dealer == me else f"{names[game.dealer]}'s crib"
    if cell_width(dealer) > 12:
        crib = "the crib"
    col = canvas.put(row, 1, "Next deal: " if before_deal else "Dealer: ", LABEL)
    col = canvas.put(row, col, f"{dealer} ({crib})", BRIGHT)
    if clock:  # between the dealer and the count; only the time when a long name leaves no room for the words
        start = max(col + 2, 30)
        text = clock if start + cell_width(clock) <= 51 else clock.rsplit(" ", 1)[-1]
        if start + cell_width(text) <= 51:
            canvas.put(row, start, text, Style(fg=YELLOW, bold=True))
    if game.phase is Phase.PLAY:
        canvas.put(row, 52, "Count: ", LABEL)
        canvas.put(row, 59, f"{game.count:>2}", Style(fg=YELLOW, bold=True))
    hand = f"Hand {game.hand_number}" + (" next" if before_deal else "") + (" (replay)" if replayed else "")
    canvas.put(row, min(64, canvas.cols - 1 - len(hand)), hand, LABEL)


def _hands(canvas: Canvas, rows: dict[str, int], game: Game, me: int, opp: int, names: list[str],
           vs: ViewState) -> None:
    face_up = game.phase in (Phase.SHOW, Phase.OVER) or vs.reveal
    crib_up = game.phase is Phase.OVER or (game.show_turn is not None and game.show_turn[1] is ShowTurn.CRIB)
    # the opponent's cards, the crib and the starter: a band, the same
    # while the caller moves the bar or types a count
    held = tuple(game.hands[opp]) if game.phase is Phase.DISCARD else (tuple(game.played[opp]), tuple(game.kept[opp]))
    vs.band("table").draw(canvas, rows["opponent"], 3,
                          (face_up, crib_up, names[opp], game.phase, held, game.series_number, tuple(game.crib),
                           game.starter),
                          lambda band: _table(band, game, opp, names, face_up, crib_up))
    # mine
    top = rows["mine"]
    if vs.spectator:
        _covered_hand(canvas, top, game, me, names, face_up)
        return
    # the player's own cards: a band too, painted again when a card, a
    # mark, the bar or a selection changed (not at the opponent's moves)
    marks = _order_marks(game, me)
    cards = tuple(my_cards(game, me, vs.options.sort))
    hint, selected = vs.hint, vs.selected
    looks = tuple((marks.get(card.index), bool(hint) and card in hint, card in selected) for card in cards)
    bar = vs.cursor if vs.mode in (Mode.DISCARD, Mode.PLAY) else -1
    counting = ""
    if game.phase is Phase.SHOW and game.show_turn is not None:
        seat, what = game.show_turn
        who = "your" if seat == me else f"{names[seat]}'s"
        counting = f"Counting {who} {what.value}"
    vs.band("mine").draw(canvas, top, 3, (cards, looks, bar, counting),
                         lambda band: _my_hand(band, cards, looks, bar, counting))


def _my_hand(canvas: Canvas, cards: tuple[Card, ...], looks: tuple[tuple[str | None, bool, bool], ...],
             bar: int, counting: str) -> None:
    """The player's cards from ``canvas``'s row 0: the label (with
    ``counting``, whose count of the show is under way), the marks above
    them (``looks``: each card's play-order mark, whether the hint
    recommends it, whether it is selected) and the cards, the one at
    index ``bar`` under the highlight bar (-1: no bar)."""
    canvas.put(0, 1, "Your cards", LABEL)
    for i, (card, (mark, hinted, selected)) in enumerate(zip(cards, looks)):
        col = HAND_COL + i * CARD_STEP
        if mark is not None:
            canvas.put(1, col + 1, mark.rjust(2), ORDER if mark != "x" else DIM)
        if hinted:
            canvas.put(1, col, " \u25bc ", Style(fg=YELLOW, bold=True))  # the hint's mark: ▼
        on_bar = i == bar
        if selected:
            draw_card(canvas, 2, col, card, SELECTED_BG)
            if on_bar:  # the bar frames a selected card, so that selecting it shows at once
                canvas.put(2, col - 1, " ", Style(bg=BAR_BG))
                canvas.put(2, col + CARD_WIDTH, " ", Style(bg=BAR_BG))
        else:
            draw_card(canvas, 2, col, card, BAR_BG if on_bar else WHITE)
    if counting:
        canvas.put(0, 44, counting, Style(fg=YELLOW, bold=True))


def _table(canvas: Canvas, game: Game, opp: int, names: list[str], face_up: bool, crib_up: bool) -> None:
    """The opponent's cards (``face_up`` or not), the crib (``crib_up``
    or not) and the starter, from ``canvas``'s row 0."""
    _covered_hand(canvas, 0, game, opp, names, face_up)
    canvas.put(0, 44, "Crib", LABEL)
    crib_cards: list[Card | None] = list(game.crib) if crib_up else [None] * len(game.crib)
    for i, card in enumerate(crib_cards):
        draw_card(canvas, 2, 44 + i * CARD_STEP, card)
    canvas.put(0, 68, "Starter", LABEL)
    if game.starter:
        draw_card(canvas, 2, 69, game.starter)
    else:
        canvas.put(2, 69, " -- ", DIM)


def _covered_hand(canvas: Canvas, top: int, game: Game, seat: int, names: list[str], face_up: bool) -> None:
    """Someone else's cards (the opponent's, or a watched player's): the
    cards played in the order played, the rest as backs until the show
    (``face_up``: the show, the end of the game, or a demonstration)."""
    canvas.put(top, 1, f"{names[seat]}'s cards", LABEL)
    marks = _order_marks(game, seat)
    if game.phase is Phase.DISCARD:
        cards: list[Card | None] = list(game.hands[seat]) if face_up else [None] * len(game.hands[seat])
    else:
        played: list[Card | None] = [p.card for p in game.played[seat]]
        cards = played + [c if face_up else None for c in game.kept[seat] if c not in played]
    for i, card in enumerate(cards):
        col = HAND_COL + i * CARD_STEP
        mark = marks.get(card.index) if card is not None else None
        if mark is not None:
            canvas.put(top + 1, col + 1, mark.rjust(2), ORDER if mark != "x" else DIM)
        draw_card(canvas, top + 2, col, card)


def _review(canvas: Canvas, top: int, counted: list[HandCounted], me: int, names: list[str],
            sort: bool = True) -> None:
    """The last hand's show, a row a count: whose, the four cards, the
    points and what they are (the starter once, in the heading)."""
    col = canvas.put(top, 1, "The show, starter ", LABEL)
    if counted:
        draw_card(canvas, top, col, counted[0].show.starter)
    for i, hc in enumerate(counted):
        row = top + 1 + i
        name = names[hc.seat]
        owner = "Your" if hc.seat == me else (f"{name}'s" if cell_width(name) <= 9 else "Their")
        col = canvas.put(row, 1, fit(f"{owner} {hc.what.value}", REVIEW_LABEL) + " ", BRIGHT)
        for card in (sorted(hc.show.hand) if sort else hc.show.hand):
            draw_card(canvas, row, col, card)
            col += CARD_STEP
        col = canvas.put(row, col, f"{hc.show.total:>2}", Style(fg=YELLOW, bold=True))
        summary = show_summary(hc.show, short=True)
        if col + 2 + cell_width(summary) > canvas.cols:
            summary = summary.replace(", ", ",")
        canvas.put(row, col + 2, summary, TEXT)


REVIEW_LABEL = 16
"""Cells of a review row's label ("Computer's crib"): with four cards and
the points, the breakdown in its short words always fits 80 columns."""


def rules_summary(rules: Rules, options: CallerOptions, computer: bool = True) -> str:
    """The one-line rules box of the game screen (Cribbage Partner's "Box"): the
    rules the title bar (target, run mode) does not already say, and the
    computer's level (when ``computer`` plays); at most 74 columns.

    >>> rules_summary(Rules(), CallerOptions())
    'manual count · muggins · over-claim forfeit · skunk 91/61 · expert computer'
    """
    if rules.counting is Counting.MANUAL:  # muggins and over-claims are about typed counts
        muggins = "muggins" if rules.muggins else "no muggins"
        text = f"manual count \u00b7 {muggins} \u00b7 over-claim {rules.overclaim.value}"
    else:
        text = "automatic count"
    text += f" \u00b7 skunk {rules.skunk}/{rules.double_skunk}"
    return text + f" \u00b7 {options.skill.value} computer" if computer else text


def _recap(canvas: Canvas, top: int, recap: HandRecord, me: int, names: list[str], you: int) -> None:
    """The hand recap (as in Cribbage Partner): each player's points by category (``me``
    first; ``you``: the seat called "You", -1 for a watcher)."""
    canvas.put(top, 1, f"{'Hand recap':<21}Pegging  Hand  Crib  Heels  Muggins  Total", LABEL)
    for i, seat in enumerate((me, 1 - me)):
        f = recap.seats[seat]
        crib = f"{f.crib_points:>4}" if recap.dealer == seat else "   -"
        who = "You" if seat == you else names[seat]
        canvas.put(top + 1 + i, 1, f"{fit(who, 20)} {f.pegging:>7}{f.hand_points:>6}{crib:>6}{f.heels:>7}"
                                   f"{f.muggins_won:>9}{f.total:>7}", BRIGHT)


def _before_the_deal(canvas: Canvas, top: int, game: Game, me: int, names: list[str], vs: ViewState) -> None:
    """Before the first deal both players see the cut for the deal and the
    rules."""
    dealer = "you deal" if game.dealer == me else f"{names[game.dealer]} deals"
    if vs.cut:
        canvas.put(top + 1, 1, vs.cut, TEXT)
    canvas.put(top, 1, f"Before hand {game.hand_number}: {dealer}.", LABEL)
    runs = "in any order" if game.rules.run_mode is RunMode.UNORDERED else "in exact order"
    canvas.put(top + 2, 1, f"The rules: game to {game.rules.game_to}, runs {runs} in the play,", TEXT)
    canvas.put(top + 3, 1, rules_summary(game.rules, vs.options, vs.computer) + ".", TEXT)


def _chat(canvas: Canvas, top: int, bottom: int, vs: ViewState) -> None:
    """The chat window (the original door's chat mode): lines with times and names,
    and the line being typed."""
    height = bottom - top - 1
    canvas.fill(top - 1, 0, canvas.cols, Style(fg=MAGENTA), "\u2500")
    canvas.put(top - 1, 2, " Chat ", Style(fg=MAGENTA, bold=True))
    width = canvas.cols - 2
    lines: list[str] = []
    for when, name, text in vs.chat[-height * 2:]:
        stamp = time.strftime("%H:%M", time.localtime(when))
        lines.extend(vs.wrap(f"{stamp} {name}: {text}", width))
    for i, line in enumerate(lines[-height:] if height > 0 else []):
        canvas.line(top + i, 1, line, TEXT)
    entry = "> " + vs.chat_input
    canvas.line(bottom - 1, 1, entry[-(canvas.cols - 3):], BRIGHT)
    canvas.cursor = (bottom - 1, min(canvas.cols - 2, 1 + len(entry)))


def _messages(canvas: Canvas, top: int, bottom: int, vs: ViewState) -> None:
    """The message area: lines fill it downward; when it is full, it turns
    half a page (the newest lines move to the top) rather than scrolling a
    line at a time, which would resend every line for every message.  A turn
    never hides lines that have not been painted yet."""
    height = bottom - top
    if height <= 0:
        return
    canvas.line(top - 1, 0, "\u2500" * canvas.cols, RULE)
    width = canvas.cols - 2
    note = vs.wrap(vs.note, width) if vs.note else ()
    for i, line in enumerate(note[-height:]):  # the mode's own note, under the messages
        canvas.line(bottom - len(note[-height:]) + i, 1, line, NOTE)
    height -= len(note[-height:])
    if height <= 0:
        return
    vs.msg_top = min(vs.msg_top, len(vs.log))
    lines = [line for entry in vs.log[vs.msg_top:] for line in vs.wrap(entry, width)]
    if len(lines) > height:
        keep = max(1, height // 2)
        count, first = 0, len(vs.log)
        while first > vs.msg_top:
            n = len(vs.wrap(vs.log[first - 1], width))
            if count + n > keep and count:
                break
            count += n
            first -= 1
        # never turn past lines the player has not seen yet
        vs.msg_top = min(first, max(vs.msg_top, vs.msg_painted))
        lines = [line for entry in vs.log[vs.msg_top:] for line in vs.wrap(entry, width)][-height:]
    vs.msg_painted = len(vs.log)
    for i, line in enumerate(lines):
        canvas.line(top + i, 1, line, TEXT)


def _prompt(canvas: Canvas, vs: ViewState) -> None:
    row = canvas.rows - 1
    text = vs.prompt
    typed = vs.typed if vs.mode is Mode.COUNT else vs.seed_input if vs.mode is Mode.OVER else None
    if typed is not None:
        text = f"{vs.prompt}{typed}"
        canvas.cursor = (row, min(canvas.cols - 2, 1 + len(text)))
    canvas.line(row, 1, text, PROMPT)
