"""The options screen before a game against the computer (seed 003's
options screen; seed 004's run mode, asked last: 1 or 2 starts the game)."""

from __future__ import annotations

from engine.rules import Counting, FirstDeal, Overclaim, Rules

from door.config import CallerConfig
from door.ui.display import Display
from door.play.options import CHANGEABLE_RULES, CallerOptions, Pace
from door.ui.prompts import ask_choice

__all__ = ["ask_game_options", "OPTION_KEYS"]

OPTION_KEYS = {"G": "game_to", "C": "counting", "M": "muggins", "O": "overclaim", "F": "first_deal",
               "P": "pace", "B": "beep", "S": "sort", "K": "skill", "X": "box"}
"""The letter that steps each option."""


def _describe(name: str, rules: Rules, options: CallerOptions, opponent: str) -> tuple[str, str]:
    if name == "game_to":
        return "Game to", f"{rules.game_to} points (skunk below {rules.skunk}, double below {rules.double_skunk})"
    if name == "counting":
        return "Counting", ("manual: you type the points of your hands" if rules.counting is Counting.MANUAL
                            else "automatic: the door counts every hand")
    if name == "muggins":
        return "Muggins", (f"on: points you miss go to {opponent}" if rules.muggins else "off: missed points are lost")
    if name == "overclaim":
        return "Over-claims", (f"forfeit: you peg nothing, {opponent} pegs the count"
                               if rules.overclaim is Overclaim.FORFEIT else "capped: you peg the true count")
    if name == "first_deal":
        return "First deal", {FirstDeal.CUT: "by the cut (low card deals)", FirstDeal.CALLER: "you deal",
                              FirstDeal.SYSOP: f"{opponent} deals"}[rules.first_deal]
    if name == "pace":
        return "Pace", ("pause: goes on by itself after each score" if options.pace is Pace.PAUSE
                        else "prompt: waits for a key after each score")
    if name == "beep":
        return "Sound", "beep on scores and go" if options.beep else "silent"
    if name == "sort":
        return "Your hand", "in rank order" if options.sort else "as dealt"
    if name == "skill":
        return "Computer", options.skill.value
    return "Rules box", "shown on the game screen" if options.box else "hidden"


async def ask_game_options(display: Display, house: Rules, caller: CallerConfig, options: CallerOptions,
                           opponent: str = "the computer", fixed: Rules | None = None) -> CallerOptions | None:
    """Let the caller set ``options`` (changed in place) and pick the run
    mode; returns them when the caller presses 1 or 2, ``None`` on hang-up.
    Rules the sysop does not let callers change are shown as house rules;
    ``fixed`` rules (a numbered game on record) are shown and kept as played."""
    while True:
        rules = fixed or options.game_rules(house, caller.may_change)
        lines = ["Options for this game: press a letter to change one.", ""]
        keys = ""
        for key, name in OPTION_KEYS.items():
            label, value = _describe(name, rules, options, opponent)
            locked = (name in CHANGEABLE_RULES and name not in caller.may_change) or (
                name == "skill" and len(caller.skills) < 2)
            if fixed is not None and name in CHANGEABLE_RULES:
                lines.append(f"     {label:<13} {value} (as recorded)")
            elif locked:
                lines.append(f"     {label:<13} {value} (house rule)")
            else:
                lines.append(f"  {key}  {label:<13} {value}")
                keys += key
        if fixed is not None:
            runs = "in any order" if fixed.run_mode.value == "unordered" else "in exact order"
            lines += ["", f"This game number is on record: it keeps its rules (runs {runs} in the play).",
                      "Press 1 or 2 to start."]
        else:
            lines += ["", "How do runs count during the play?",
                      "  1  Runs need not be in order: 7-5-6 is a run worth 3.",
                      "  2  Runs must be in exact order: 5-6-7 or 7-6-5, not 7-5-6.",
                      "Press 1 or 2 to start. (Runs in the show always count in any order.)"]
        got = await ask_choice(display, "Game options", lines, keys + "12", banner=False)
        if got is None:
            return None
        if got in "12":
            if fixed is None:
                options.rules["run_mode"] = "unordered" if got == "1" else "ordered"
            return options
        options.toggle(OPTION_KEYS[got], house, caller.skills)

