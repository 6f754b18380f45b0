"""The game screen as a person sees it: render the bytes the door sends
into pyte and check text, colours and peg positions."""

from collections.abc import Callable

import pyte
import pytest

from door.net.charset import CP437, UTF8
from door.play.board import hole_position
from door.play.game_view import CARD_STEP, HAND_COL, layout_rows, paint_game
from door.play.view_state import Mode, ViewState
from door.ui.canvas import Canvas
from door.ui.renderer import Renderer
from door.ui.style import YELLOW, Style
from door.ui.words import card_text
from engine.actions import Discard, Play
from engine.cards import FULL_DECK, Card, parse_cards
from engine.game import Game
from engine.rules import FirstDeal, Rules

NAMES = ["Ann", "Computer"]


def stacked_game(rules: Rules | None = None) -> Game:
    p, d = parse_cards("TH TD 9C 2S 3D 4D"), parse_cards("KS QS 5H 6C 7D 8D")
    deck = [c for pair in zip(p, d) for c in pair] + [Card.from_str("AC")]
    deck += [c for c in FULL_DECK if c not in deck]
    g = Game(rules or Rules(first_deal=FirstDeal.SYSOP), 1, stacked=[deck])
    g.start()
    return g


def show(game: Game, vs: ViewState, cols: int = 80, rows: int = 24, renderer: Renderer | None = None):
    screen = pyte.Screen(cols, rows)
    stream = pyte.ByteStream(screen)
    canvas = Canvas(cols, rows)
    paint_game(canvas, game, 0, NAMES, vs)
    stream.feed((renderer or Renderer(UTF8)).render(canvas))
    return screen


def screen_of_frames(game: Game, vs: ViewState) -> tuple[pyte.Screen, Callable[..., tuple[object, ...]]]:
    """A terminal screen, and what paints seat 0's next frame of ``game``
    onto it and returns the paintings of the bands it names."""
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    renderer = Renderer(UTF8)

    def frame(*bands: str) -> tuple[object, ...]:
        canvas = Canvas(80, 24)
        paint_game(canvas, game, 0, NAMES, vs)
        stream.feed(renderer.render(canvas))
        return tuple(vs.band(name).canvas for name in bands)

    return screen, frame


def card_row(game: Game) -> int:
    return layout_rows(game.rules)["mine"] + 2


@pytest.mark.parametrize("cols,rows", [(80, 24), (80, 25), (132, 50)])
def test_discard_bar_is_cyan_and_selection_yellow(cols: int, rows: int) -> None:
    g = stacked_game()
    vs = ViewState(mode=Mode.DISCARD, cursor=2, selected=[Card.from_str("TH")], prompt="Choose 2 cards")
    screen = show(g, vs, cols, rows)
    row = card_row(g)
    line = screen.display[row]
    # hand sorted: 2S 3D 4D 9C TD TH
    assert line[HAND_COL:HAND_COL + 30].split() == ["2\u2660", "3\u2666", "4\u2666", "9\u2663", "10\u2666", "10\u2665"]
    bar = HAND_COL + 2 * CARD_STEP
    assert all(screen.buffer[row][c].bg == "cyan" for c in range(bar, bar + 4))
    sel = HAND_COL + 5 * CARD_STEP
    assert all(screen.buffer[row][c].bg == "brown" for c in range(sel, sel + 4))  # ANSI yellow
    assert screen.buffer[row][HAND_COL].bg == "white"
    assert screen.buffer[row][HAND_COL + 5 * CARD_STEP + 2].fg == "red"  # hearts are red
    assert screen.display[rows - 1].strip() == "Choose 2 cards"
    assert "Game #1" in screen.display[0] and "to 121" in screen.display[0]


def test_selecting_the_card_under_the_bar_shows_at_once() -> None:
    """RETURN on the card under the bar must change what the caller sees
    (it used to stay cyan until the bar moved on: the load benchmark found
    the key had no answer)."""
    g = stacked_game()
    before = show(g, ViewState(mode=Mode.DISCARD, cursor=1))
    after = show(g, ViewState(mode=Mode.DISCARD, cursor=1, selected=[Card.from_str("3D")]))
    row, col = card_row(g), HAND_COL + CARD_STEP
    assert all(before.buffer[row][c].bg == "cyan" for c in range(col, col + 4))
    assert all(after.buffer[row][c].bg == "brown" for c in range(col, col + 4))  # selected: yellow
    assert after.buffer[row][col - 1].bg == "cyan" and after.buffer[row][col + 4].bg == "cyan"  # the bar frames it
    assert after.display[row][col:col + 4] == before.display[row][col:col + 4] == " 3\u2666 "


@pytest.mark.parametrize("charset,median_target", [(UTF8, 32), (CP437, 28)])
def test_a_bar_move_costs_at_most_32_bytes(charset, median_target: int) -> None:
    """A highlight-bar move costs a median of at most 32 bytes in
    UTF-8 and 28 in CP437 (the cursor steps along the card row; the two
    cards are written in whichever order costs less, so that a step that
    goes on in the same direction starts where the last one ended, in its
    colours).  The first move, from elsewhere on the screen, needs a CUP."""
    g = stacked_game()
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    renderer = Renderer(charset)
    row = card_row(g)
    sizes: list[int] = []
    for cursor in (0, 1, 2, 3, 4, 5, 4, 3, 2, 1, 0):
        canvas = Canvas(80, 24)
        paint_game(canvas, g, 0, NAMES, ViewState(mode=Mode.DISCARD, cursor=cursor, prompt="Choose 2 cards"))
        data = renderer.render(canvas)
        if charset is UTF8:
            stream.feed(data)
            bar = HAND_COL + cursor * CARD_STEP
            assert [c for c in range(80) if screen.buffer[row][c].bg == "cyan"] == list(range(bar, bar + 4))
        sizes.append(len(data))
    moves = sorted(sizes[2:])  # after the full frame and the first move
    assert moves[len(moves) // 2] <= median_target - 2 and max(moves) <= median_target + 1, sizes
    assert sizes[1] <= median_target + 8, sizes


def test_a_bar_step_in_the_same_direction_starts_where_the_last_ended() -> None:
    """Two steps right: the second writes the new card first (the cursor is
    just before it, the attributes are the bar's), then steps back to
    whiten the old one: 24 bytes, not 29."""
    g = stacked_game()
    renderer = Renderer(UTF8)
    sizes = []
    for cursor in (0, 1, 2, 3):
        canvas = Canvas(80, 24)
        paint_game(canvas, g, 0, NAMES, ViewState(mode=Mode.DISCARD, cursor=cursor))
        sizes.append(len(renderer.render(canvas)))
    assert sizes[2] == 24, sizes


def test_pegs_front_and_back_in_their_holes() -> None:
    g = stacked_game()
    g.pegs[0].back, g.pegs[0].front = 57, 63
    g.pegs[1].back, g.pegs[1].front = 0, 5
    screen = show(g, ViewState())
    top = layout_rows(g.rules)["board"]
    r, c = hole_position(63, 121)
    front = screen.buffer[top + r][c]
    assert front.data == "\u25a0" and front.fg == "green" and front.bold
    r, c = hole_position(57, 121)
    back = screen.buffer[top + r][c]
    assert back.data == "\u25a0" and back.fg == "green" and not back.bold
    r, c = hole_position(5, 121)
    assert screen.buffer[top + 3 + r][c].fg == "magenta" and screen.buffer[top + 3 + r][c].data == "\u25a0"
    assert screen.display[top + 1].startswith("   63")
    # the skunk line sits after hole 90, the game hole at the end
    r, c = hole_position(90, 121)
    assert screen.buffer[top + r][c + 1].data == "\u2502" and screen.buffer[top + r][c + 1].fg == "red"


def test_play_order_numbers_and_x_for_earlier_series() -> None:
    g = stacked_game()
    g.apply(Discard(0, tuple(parse_cards("3D 4D"))))
    g.apply(Discard(1, tuple(parse_cards("7D 8D"))))
    for seat, card in ((0, "TH"), (1, "KS"), (0, "TD"), (1, "QS"), (0, "9C")):
        g.apply(Play(seat, Card.from_str(card)))
    vs = ViewState(mode=Mode.WAIT)
    vs.say("Ann plays 9\u2663, count 19.")
    screen = show(g, vs)
    row = card_row(g)
    # kept, sorted: 2S 9C TD TH; TD and TH were in series 0 (x), 9C is card 2 of series 1
    marks = screen.display[row - 1]
    cards = screen.display[row]
    def mark_over(text: str) -> str:
        col = cards.index(text)
        return marks[col:col + 4].strip()
    assert mark_over("9\u2663") == "2" and mark_over("10\u2666") == "x" and mark_over("10\u2665") == "x"
    assert mark_over("2\u2660") == ""
    info = screen.display[layout_rows(g.rules)["info"]]
    assert "Count: 19" in info and "Dealer: Computer" in info
    opp_row = layout_rows(g.rules)["opponent"] + 2
    assert screen.display[opp_row].split()[:2] == ["K\u2660", "Q\u2660"]  # played cards face up
    assert "\u2592\u2592\u2592\u2592" in screen.display[opp_row]           # the rest face down
    assert "Ann plays 9\u2663, count 19." in "\n".join(screen.display)


def test_sixty_one_point_board_has_one_row_per_player() -> None:
    g = stacked_game(Rules(game_to=61, first_deal=FirstDeal.SYSOP))
    g.pegs[0].front = 33
    screen = show(g, ViewState())
    top = layout_rows(g.rules)["board"]
    assert screen.display[top].startswith("Ann 33")
    assert screen.display[top + 2].startswith("Com  0")


def test_cp437_screen_has_suit_bytes_and_no_utf8() -> None:
    g = stacked_game()
    canvas = Canvas(80, 25)
    paint_game(canvas, g, 0, NAMES, ViewState(mode=Mode.DISCARD))
    data = Renderer(CP437).render(canvas)
    assert b"\x06" in data and b"\x04" in data  # spade and diamond glyphs
    assert b"\xe2" not in data                    # no UTF-8 lead byte of the suits or box drawing


def test_a_bar_move_sends_only_the_two_cards() -> None:
    g = stacked_game()
    r = Renderer(UTF8)
    vs = ViewState(mode=Mode.DISCARD, cursor=0)
    show(g, vs, renderer=r)
    vs.cursor = 1
    canvas = Canvas(80, 24)
    paint_game(canvas, g, 0, NAMES, vs)
    data = r.render(canvas)
    import re
    text = re.sub(rb"\x1b\[[0-9;]*[A-Za-z]", b"", data).decode()
    assert text.split() == ["2\u2660", "3\u2666"], data  # the two cards, nothing else


@pytest.mark.parametrize("game_to", [121, 61])
def test_names_of_twenty_characters_show_in_full_by_the_board(game_to: int) -> None:
    """"Comput", "JCalle" and "Tes 35" were all a caller saw."""
    game = Game(Rules(game_to=game_to, first_deal=FirstDeal.SYSOP), 1)
    game.start()
    screen = pyte.Screen(80, 24)
    canvas = Canvas(80, 24)
    paint_game(canvas, game, 0, ["Jonathan Q Callender", "Computer"], ViewState())
    pyte.ByteStream(screen).feed(Renderer(UTF8).render(canvas))
    board = "\n".join(screen.display[2:2 + (5 if game_to == 121 else 3)])
    assert "Jonathan Q Callender 0" in board and "Computer 0" in board


def test_nothing_of_the_next_deal_shows_while_the_last_count_lingers() -> None:
    """After the show the next hand's six cards showed
    (while the last count lingered) before the chat screen, and before the
    dealer dealt them."""
    from engine.game import Phase
    from engine.players import GreedyPlayer
    from engine.strategy import choose_action

    g = stacked_game()
    player = GreedyPlayer()
    while g.hand_number == 1:
        g.apply(choose_action(g, g.to_act()[0], player))
    assert g.phase is Phase.DISCARD  # the next hand is on the table, not yet shown to anyone
    vs = ViewState(mode=Mode.WAIT, before_deal=True, lingering=True, prompt="Press a key to go on.")
    vs.say("Computer's crib: fifteen two.")
    screen = show(g, vs)
    text = "\n".join(screen.display)
    row = card_row(g)
    assert not screen.display[row].strip(), screen.display[row]  # no card of the new hand
    assert "Hand 2 next" in text and "Computer's crib: fifteen two." in text


def test_parts_kept_from_frame_to_frame_show_every_change() -> None:
    """The title, the pegboard, the dealer line and the message area are
    painted again only when what they show changed: with one
    view and one renderer over several frames, as a session has them, a
    peg moved, a count, a new message and a match score each show, and a
    frame where nothing changed sends nothing but the cursor."""
    g = stacked_game()
    vs = ViewState(mode=Mode.DISCARD)
    screen = pyte.Screen(80, 24)
    stream = pyte.ByteStream(screen)
    renderer = Renderer(UTF8)

    def frame() -> bytes:
        canvas = Canvas(80, 24)
        paint_game(canvas, g, 0, NAMES, vs)
        out = renderer.render(canvas)
        stream.feed(out)
        return out

    frame()
    top = layout_rows(g.rules)["board"]
    assert "Dealer:" in screen.display[layout_rows(g.rules)["info"]]
    assert frame() == b""  # nothing changed
    g.pegs[0].back, g.pegs[0].front = 0, 7
    frame()
    r, c = hole_position(7, 121)
    assert screen.buffer[top + r][c].data == "\u25a0" and screen.display[top + 1].startswith("    7")
    g.apply(Discard(g.pone, tuple(g.hands[g.pone][:2])))
    g.apply(Discard(g.dealer, tuple(g.hands[g.dealer][:2])))
    g.apply(Play(g.pone, g.hands[g.pone][0]))
    frame()
    assert f"Count: {g.count:>2}" in screen.display[layout_rows(g.rules)["info"]]
    vs.say("Ann plays a card for the test.")
    frame()
    assert any("Ann plays a card for the test." in line for line in screen.display[layout_rows(g.rules)["messages"]:])
    vs.match_points = (1, 0)
    frame()
    assert "Games 1-0" in screen.display[0]


def test_the_message_area_is_painted_again_only_for_a_new_message() -> None:
    """The message area's band is kept while its lines are the same: a highlight-bar move after a message paints the hand, not the
    messages again (its key once held what its own painting changed, so
    it was painted afresh at every frame)."""
    g = stacked_game()
    vs = ViewState(mode=Mode.DISCARD)
    vs.say("Hand 1: Ann deals.")
    painted = []

    def frame() -> None:
        canvas = Canvas(80, 24)
        paint_game(canvas, g, 0, NAMES, vs)
        painted.append(vs.band("messages").canvas)

    frame()
    vs.cursor = 1
    frame()
    vs.cursor = 2
    frame()
    assert painted[0] is painted[1] is painted[2]
    vs.say("Another line.")
    frame()
    assert painted[3] is not painted[2]
    assert any("Another line." in painted[3].text(r) for r in range(painted[3].rows))


def test_the_opponents_cards_are_kept_while_the_caller_moves_the_bar_and_show_each_play() -> None:
    """The opponent's cards, the crib and the starter are a band: the same band through highlight-bar moves, and painted again
    (and seen) when the opponent lays away, the starter is cut and the
    opponent plays."""
    g = stacked_game()
    me, opp = 0, 1
    vs = ViewState(mode=Mode.DISCARD)
    screen, frames = screen_of_frames(g, vs)
    top = layout_rows(g.rules)["opponent"]

    def frame() -> object:
        return frames("table")[0]

    first = frame()
    vs.cursor = 3
    assert frame() is first
    assert screen.display[top + 2].count("\u2592" * 4) == 6 and "--" in screen.display[top + 2]
    g.apply(Discard(opp, tuple(g.hands[opp][:2])))
    assert frame() is not first
    assert screen.display[top + 2].count("\u2592" * 4) == 4 + 2  # four in hand, two in the crib
    g.apply(Discard(me, tuple(g.hands[me][:2])))
    frame()
    starter = g.starter
    assert starter is not None and str(starter.rank_char) in screen.display[top + 2][69:74]
    if g.pone == me:
        g.apply(Play(me, min(g.kept[me], key=lambda c: c.rank)))
    card = min(g.kept[opp], key=lambda c: c.rank)
    g.apply(Play(opp, card))
    frame()
    assert screen.display[top + 2][HAND_COL:HAND_COL + 4].strip() == card_text(card)
    assert screen.display[top + 1][HAND_COL + 1:HAND_COL + 3].strip() == ("2" if g.pone == me else "1")


def test_the_callers_cards_and_each_track_are_kept_while_the_other_side_moves() -> None:
    """The player's own cards are a band: the same painting
    while the opponent lays away, painted again (and seen) when the bar
    moves or a card is selected; each seat's track is a band of its own,
    so the opponent's pegs moving leaves this seat's track as painted."""
    g = stacked_game()
    me, opp = 0, 1
    vs = ViewState(mode=Mode.DISCARD)
    screen, frames = screen_of_frames(g, vs)

    def frame() -> tuple[object, ...]:
        return frames("mine", "track 0", "track 1")

    mine, track0, track1 = frame()
    g.apply(Discard(opp, tuple(g.hands[opp][:2])))
    assert frame()[0] is mine  # the opponent's discard: the caller's cards as they were
    vs.cursor = 2
    moved = frame()[0]
    assert moved is not mine
    assert screen.buffer[card_row(g)][HAND_COL + 2 * CARD_STEP].bg == "cyan"
    vs.selected = [sorted(g.hands[me], key=lambda c: c.index)[2]]
    assert frame()[0] is not moved
    assert screen.buffer[card_row(g)][HAND_COL + 2 * CARD_STEP + 1].bg == "brown"  # (pyte's name for yellow)
    g.apply(Discard(me, tuple(g.hands[me][:2])))
    vs.selected, vs.mode = [], Mode.PLAY
    fronts, tracks, seen = [p.front for p in g.pegs], frame()[1:], 0
    while g.to_act() and g.phase.value == "play":  # the play, each side its lowest card; a frame a card
        seat = g.to_act()[0]
        g.apply(Play(seat, min(g.hands[seat], key=lambda c: c.rank)))
        now, after = [p.front for p in g.pegs], frame()[1:]
        for s in (0, 1):
            if now[1 - s] != fronts[1 - s] and now[s] == fronts[s]:  # only the other seat pegged
                assert after[s] is tracks[s] and after[1 - s] is not tracks[1 - s]
                seen += 1
        fronts, tracks = now, after
    assert seen >= 1


def test_a_frames_rows_it_does_not_write_are_one_shared_blank_row() -> None:
    """A canvas builds no row it does not write: every row
    starts as one blank row shared by every canvas of that width, and a
    row is copied only when written; a line drawn with ``Canvas.line`` is
    the same row object in every frame that shows it, which the renderer
    finds unchanged at once."""
    a, b = Canvas(80, 24), Canvas(80, 24)
    assert a.chars[5] is b.chars[5] and a.styles[5] is b.styles[5]
    a.put(5, 3, "x")
    assert a.text(5)[3] == "x" and b.text(5) == " " * 80  # the shared row is not written
    a.line(7, 1, "Your turn, count 5", Style(fg=YELLOW, bold=True))
    b.line(7, 1, "Your turn, count 5", Style(fg=YELLOW, bold=True))
    assert a.chars[7] is b.chars[7] and a.styles[7] is b.styles[7]
    a.put(7, 0, ">")  # a row drawn by line is read-only: written, it is copied
    assert a.text(7).startswith(">Your turn") and b.text(7).startswith(" Your turn")
    renderer = Renderer(UTF8)
    renderer.render(b)
    assert renderer.render(b) == b""
