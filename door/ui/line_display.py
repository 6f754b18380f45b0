"""The line presentation: the door for a screen reader or a
teletype.  Nothing is painted: a screen is said once, as plain lines, when
it is shown; what changes later is said as a new line; typed keys are
echoed.  No cursor addressing, no erase, no colour, no box drawing, no
redraw: Ctrl-L says the current screen again.
"""

from __future__ import annotations

from collections.abc import Callable

from door.net.keys import Key, KeyName
from door.net.terminal import Terminal
from door.ui.display import Display, Painter, Presentation, Text
from door.ui.speech import digest_groups, speak_cards

__all__ = ["LineDisplay"]

class LineDisplay(Display):
    """The screen of one ``terminal`` in the line presentation: the same
    calls as :class:`Display`, said instead of painted."""

    presentation = Presentation.LINES

    def __init__(self, terminal: Terminal) -> None:
        super().__init__(terminal)
        self._open = False  # a prompt or an echo is on the current line
        self._line = ""  # what is on it: the prompt and what was typed after it (written again after a say)
        self._keep = False  # the next screen shown is not said (:meth:`keep_said`)
        self.told_keys = False
        """The game's reading keys were said (once a call: a caller who knows them is not told again)."""

    def show(self, painter: Painter, hold: Callable[[], bool] | None = None, text: Text | None = None) -> None:
        """Make ``painter`` the current screen (for a later switch to the
        full screen) and say ``text``."""
        self.painter, self.hold, self.text = painter, hold, text
        self._line = ""  # (a new screen: the last one's prompt is not written again)
        if self._keep:
            self._keep = False
            return
        if text is not None:
            self.say(*text())

    def keep_said(self) -> None:
        """The next screen shown is the one said last, changed only where
        the caller was just told: it is not said again (Ctrl-L says it)."""
        self._keep = True

    def say(self, *lines: str) -> None:
        """Write each of ``lines`` (blank ones skipped) on a line of its own,
        cards named in full (:func:`~door.ui.speech.speak_cards`), a seed
        or a digest in groups of four (:func:`~door.ui.speech.digest_groups`).  A long
        line is not broken: a screen reader reads a line as one utterance,
        and a teletype's own margin folds it.  A prompt and what was typed
        after it, on the line when they came, are written again after
        them: typed keys are never split by a line said meanwhile."""
        out = [digest_groups(speak_cards(line.strip())) for line in lines if line.strip()]
        if not out:
            return
        if self._open:
            self.terminal.write(b"\r\n")
            self._open = False
        self.terminal.write_text("".join(line + "\r\n" for line in out) + self._line)
        self._open = bool(self._line)

    def forget_line(self) -> None:
        """The prompt on the line is answered another way (its question
        is gone): not written again after what is said next."""
        self._line = ""

    def answer(self, *lines: str) -> bool:
        """Say ``lines`` unless more keys wait (see :meth:`Display.answer`):
        200 KB of wrong keys pasted cost one line, not a line each."""
        if self.terminal.has_input():
            return False
        self.say(*lines)
        return True

    def prompt(self, text: str) -> None:
        """Write ``text`` and leave the cursor after it (what is typed next
        is echoed there)."""
        if self._open:
            self.terminal.write(b"\r\n")
        self.terminal.write_text(text)
        self._open, self._line = True, text

    def echo(self, text: str) -> None:
        """Echo typed ``text``; ``"\\b"`` erases the last character typed."""
        if text == "\b":
            self.terminal.write(b"\b \b")
            self._line = self._line[:-1]
        elif text == "\n":
            self.terminal.write(b"\r\n")
            self._open, self._line = False, ""
            return
        else:
            self.terminal.write_text(text)
            self._line += text
        self._open = True

    def refresh(self) -> None:
        """Nothing to paint: what changes is said when it happens."""

    def refresh_soon(self) -> None:
        """Nothing to paint (see :meth:`refresh`)."""

    def too_small(self) -> bool:
        """Lines fit any window."""
        return False

    def redraw(self) -> None:
        """Ctrl-L: say the current screen again (once for a burst of them)."""
        if self.text is not None:
            self.answer(*self.text())

    def screen_key(self, key: Key) -> bool:
        """Ctrl-L says the screen again; a window change changes nothing."""
        if key.name is KeyName.CTRL_L:
            self.redraw()
            return True
        return key.name is KeyName.RESIZE
