"""The options screen before a game against the computer (Cribbage Partner's
options screen; the original door's run mode, asked last: 1 or 2 starts the game)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from door.config import CallerConfig
from door.play.options import CHANGEABLE_RULES, SEED_LIMIT, CallerOptions, Pace
from door.ui.display import Display
from door.ui.line_display import LineDisplay
from door.ui.prompts import BACK, ask_choice, ask_line
from engine.rules import Counting, FirstDeal, Overclaim, Rules

__all__ = ["ask_game_options", "Option", "OPTIONS", "OPTION_KEYS"]

@dataclass(frozen=True)
class Option:
    """One line of the options screen: the ``key`` that steps it, the
    ``field`` it changes (a rule of :data:`CHANGEABLE_RULES` or a field of
    :class:`CallerOptions`, stepped by :meth:`CallerOptions.toggle`), its
    ``label``, and ``describe(rules, options, opponent)``: its value in words."""

    key: str
    field: str
    label: str
    describe: Callable[[Rules, CallerOptions, str], str]


OPTIONS: tuple[Option, ...] = (
    Option("G", "game_to", "Game to",
           lambda r, o, opp: f"{r.game_to} points (skunk below {r.skunk}, double {r.double_skunk})"),
    Option("C", "counting", "Counting",
           lambda r, o, opp: ("manual: you type the points of your hands" if r.counting is Counting.MANUAL
                              else "automatic: the door counts every hand")),
    Option("M", "muggins", "Muggins",
           lambda r, o, opp: f"on: points you miss go to {opp}" if r.muggins else "off: missed points are lost"),
    Option("O", "overclaim", "Over-claims",
           lambda r, o, opp: (f"forfeit: you peg 0, {opp} the count"
                              if r.overclaim is Overclaim.FORFEIT else "capped: you peg the true count")),
    Option("F", "first_deal", "First deal",
           lambda r, o, opp: {FirstDeal.CUT: "by the cut (low card deals)", FirstDeal.CALLER: "you deal",
                              FirstDeal.SYSOP: f"{opp} deals"}[r.first_deal]),
    Option("P", "pace", "Pace",
           lambda r, o, opp: ("pause: goes on by itself after each score" if o.pace is Pace.PAUSE
                              else "prompt: waits for a key after each score")),
    Option("B", "beep", "Sound", lambda r, o, opp: "beep on scores and go" if o.beep else "silent"),
    Option("S", "sort", "Your hand", lambda r, o, opp: "in rank order" if o.sort else "as dealt"),
    Option("K", "skill", "Computer", lambda r, o, opp: o.skill.value),
    Option("X", "box", "Rules box", lambda r, o, opp: "shown on the game screen" if o.box else "hidden"),
    Option("Y", "shuffle_seed", "Your seed",
           lambda r, o, opp: (f"{o.shuffle_seed!r}: your part of every shuffle" if o.shuffle_seed
                              else "drawn for this call (Y to type your own)")),
)
"""The options screen, line by line (Cribbage Partner's options, the door's own)."""

OPTION_KEYS = {option.key: option.field for option in OPTIONS}
"""The letter that steps each option."""


async def ask_game_options(display: Display, house: Rules, caller: CallerConfig, options: CallerOptions,
                           opponent: str = "the computer",
                           fixed: Rules | None = None, commitment: str = "") -> CallerOptions | str:
    """Let the caller set ``options`` (changed in place) and pick the run
    mode; returns them when the caller presses 1 or 2, :data:`BACK` when
    the caller goes back to the menu (Q or ESC).
    Rules the sysop does not let callers change are shown as house rules;
    ``fixed`` rules (a numbered game on record) are shown and kept as played.
    ``commitment``: the SHA-256 of the door's seed for the next game, shown
    above the caller's own seed so that they may set theirs after seeing it
    (said on V in the line presentation; empty for a numbered game, which
    is dealt from its number).  In the line presentation the screen is
    said once; after a change, only the line that changed."""
    said: list[str] = []  # the screen as said last (the line presentation)
    while True:
        rules = fixed or options.game_rules(house, caller.may_change)
        lines, answers = _heading(commitment, display.lines)
        shown, keys = _option_lines(rules, options, caller, opponent, fixed)
        lines += [*shown, *_runs_lines(fixed), "Q or ESC goes back to the main menu."]
        changed = [line for old, line in zip(said, lines) if old != line] if len(said) == len(lines) else []
        if changed and isinstance(display, LineDisplay):
            display.say(*changed)  # the option changed, not the whole screen again
            display.keep_said()
        said = lines
        got = await ask_choice(display, "Game options", lines, keys + "12Q", banner=False, escape=True,
                               answers=answers)
        if got in ("Q", BACK):
            return BACK
        if got in "12":
            if fixed is None:
                options.rules["run_mode"] = "unordered" if got == "1" else "ordered"
            return options
        if got == "Y":
            options.shuffle_seed = await _ask_seed(display, options.shuffle_seed)
            continue
        options.toggle(OPTION_KEYS[got], house, caller.skills)


def _heading(commitment: str, spoken: bool) -> tuple[list[str], dict[str, list[str]]]:
    """The screen's first lines, and the keys answered in place (V says
    the ``commitment`` when ``spoken``, the line presentation: 64 digits
    said only on demand)."""
    if commitment and spoken:
        return (["Options for this game: press a letter. The door's seed is fixed: commitment ready, V to hear it.",
                 ""], {"V": [f"The door's seed commits to SHA-256 {commitment}."]})
    if commitment:  # (two lines, as the heading's: the screen has no row to spare at 80x24)
        return ["Options for this game: press a letter. The door's seed is fixed already:",
                f"  SHA-256 {commitment}"], {}
    return ["Options for this game: press a letter to change one.", ""], {}


def _option_lines(rules: Rules, options: CallerOptions, caller: CallerConfig, opponent: str,
                  fixed: Rules | None) -> tuple[list[str], str]:
    """A line for each of :data:`OPTIONS` (its key, or why it cannot
    change: a house rule, or as a numbered game recorded it), and the keys
    of those that can."""
    lines, keys = [], ""
    for option in OPTIONS:
        key, name, label = option.key, option.field, option.label
        value = option.describe(rules, options, opponent)
        locked = (name in CHANGEABLE_RULES and name not in caller.may_change) or (
            name == "skill" and len(caller.skills) < 2)
        if fixed is not None and name in CHANGEABLE_RULES:
            lines.append(f"     {label:<13} {value} (as recorded)")
        elif locked:
            lines.append(f"     {label:<13} {value} (house rule)")
        else:
            lines.append(f"  {key}  {label:<13} {value}")
            keys += key
    return lines, keys


def _runs_lines(fixed: Rules | None) -> list[str]:
    """The question of the runs in the play (1 or 2 starts the game), or a
    numbered game's recorded answer."""
    if fixed is not None:
        runs = "in any order" if fixed.run_mode.value == "unordered" else "in exact order"
        return ["", f"This game number is on record: it keeps its rules (runs {runs} in the play).",
                "Press 1 or 2 to start."]
    return ["", "How do runs count during the play?",
            "  1  Runs need not be in order: 7-5-6 is a run worth 3.",
            "  2  Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6.",
            "Press 1 or 2 to start. (Runs in the show always count in any order.)"]


async def _ask_seed(display: Display, seed: str) -> str:
    """Y: the caller's own shuffle seed typed (``seed``: the one now)."""
    return await ask_line(
        display, "Your shuffle seed",
        ["Every deal comes from the door's seed and yours. The door's seed is fixed",
         "already (its SHA-256 is on the options screen); when the game ends it shows",
         "the seed itself, so you can deal every hand again and see that nothing was",
         "changed, and that the door chose its seed before you chose yours.", "",
         "Type any words (they are hashed), or RETURN alone for a seed drawn for",
         "this call."],
        "Your seed: ", seed, limit=SEED_LIMIT)
