"""A caller's session (the original door's flow, with accounts, records and the
sysop): who is calling, a game to resume, the main menu, then games against
the computer or the sysop until the caller leaves or hangs up."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from door.caller.admission import admit, release
from door.caller.challenges import answer, challenge_caller
from door.caller.club import club_night
from door.caller.correspondence import correspondence, login_news
from door.caller.daily_screens import daily_deal
from door.caller.demonstration import demonstration
from door.caller.handover import hand_over
from door.caller.identity import Caller, Login
from door.caller.kept import (
    KeptGame,
    back_to_waiting_table,
    choose_kept,
    kept_words,
    load_kept,
    resumable,
    to_go_on,
)
from door.caller.login import READER_OFFER, login
from door.caller.menu import MenuItem, MenuState, main_menu, show_recent_games, show_statistics, show_top_players
from door.caller.options_screen import ask_game_options
from door.caller.paging import page_sysop
from door.caller.review import review_recorded
from door.caller.side import CallerSide
from door.caller.ssh_key import offer_key_link
from door.caller.vs_computer import ComputerGame, play_computer
from door.caller.watching import any_watchable, watch_game
from door.net.keys import KeyName
from door.net.terminal import HungUp, TerminalKind
from door.play.computer_seat import ComputerSeat
from door.play.human_seat import HumanSeat
from door.play.options import CallerOptions
from door.play.seat import Seat
from door.play.table import Table
from door.records.accounts import Account
from door.records.game_kinds import GameKind
from door.records.store import SavedGame
from door.sysop.club_night import ClubNight, Night
from door.sysop.doing import Doing
from door.ui.display import Presentation
from door.ui.prompts import BACK, ask_choice, ask_line, charset_test, goodbye, show_page
from engine.rules import Rules
from engine.shuffle import SeededShuffle

__all__ = ["CallerSession", "NO_LOGIN"]


_REPLACING = {MenuItem.PLAY_COMPUTER: GameKind.COMPUTER, MenuItem.NUMBERED_GAME: GameKind.COMPUTER,
              MenuItem.PLAY_SYSOP: GameKind.SYSOP}
"""The menu's choices whose new game replaces the caller's kept game of its kind (one of each is kept)."""
"""Menu choices that start a new game the caller owns (which replaces the kept game they own)."""


NO_LOGIN = Login()
"""What a transport proved of a caller it knows nothing of (telnet, the web page)."""


class CallerSession(CallerSide):
    """One caller's session (the original door's flow, with accounts, records and
    the sysop), from the welcome screen to goodbye: who is calling, a game
    to resume, then the main menu and what the caller chooses there, until
    they leave or hang up.  Its screens are its methods, or functions of
    ``door/caller`` that take it (:class:`~door.caller.side.CallerSide`)."""

    async def run(self, proved: Login = NO_LOGIN, caller: Caller | None = None, challenge: str = "",
                  start: MenuItem | None = None) -> None:
        """``proved``: what the transport proved of who is calling;
        ``caller`` when someone else (a BBS, in door mode, or another
        node) already said who is calling; ``challenge``: the caller here
        whom they came from another node to challenge (their first screen
        after logging in); ``start``: the menu's choice to carry out first
        (a hub's board asked for it).  A hang-up anywhere in the session ends it here,
        the one place that handles :class:`~door.net.terminal.HungUp`."""
        try:
            await self._flow(proved, caller, challenge, start)
        except HungUp:
            pass  # the line ended (or the session went on at another node): nothing more to say to it
        finally:
            self.display.close()
            await release(self)  # (a game here that waits for them keeps their claim until it ends)

    async def _flow(self, proved: Login, caller: Caller | None, challenge: str, start: MenuItem | None) -> None:
        """Who is calling, let in or not, settled in (their presentation
        and options, a game that waits for them), then the menu until they
        leave."""
        self.caller = await self._identify(proved, caller)
        if not await self._admitted():
            return
        await self._settle_in(proved, challenge)
        while True:
            named, challenge = challenge, ""  # (the first time round only)
            first, start = start, None
            if not await self._at_the_menu(named, first):
                break
        goodbye(self.display, f"Thanks for playing cribbage, {self.caller.name}. Goodbye!")
        await self.terminal.drain()

    async def _identify(self, proved: Login, caller: Caller | None) -> Caller:
        """The presentation asked for first (a screen reader's), then who
        is calling: ``caller`` when someone else said so, else the login
        screens (within ``login_timeout`` seconds of silence)."""
        terminal = self.terminal  # (the display changes with the presentation: always self.display)
        if terminal.wants_lines():  # MTTS's screen-reader bit, or TERM=dumb
            self.present(Presentation.LINES)
        elif caller is None:  # the first thing sent: one plain line that a screen reader reads
            terminal.write_text(f"{READER_OFFER}\r\n")
            if await self._reader_asked():
                self.present(Presentation.LINES)
        if caller is not None:
            return caller
        idle = terminal.idle_timeout  # nobody holds a slot at the login screens in silence for long
        if idle is not None:
            terminal.idle_timeout = min(idle, self.ctx.login_timeout)
        caller = await login(self, proved.user_name, proved.account)
        terminal.idle_timeout = idle
        return caller

    async def _admitted(self) -> bool:
        """The caller is let in (:func:`~door.caller.admission.admit`: not
        banned; one session an account across the nodes, an older one here
        closed); False when turned away."""
        turned = await admit(self, self._claim)
        if turned is not None and turned.banned:
            self.terminal.say_farewell(turned.text)
        elif turned is not None:
            await show_page(self.display, "Already on line", [turned.text, "", "Please call again in a minute."])
        else:
            self.log.info("caller is %r%s", self.caller.name, " (guest)" if self.caller.guest else "")
        return turned is None

    async def _claim(self, account: Account) -> bool:
        """One session an account across the nodes: where it is on line,
        the caller goes (that node closes the older session); back here
        only when that node cannot be reached.  True (for
        :func:`~door.caller.admission.admit`: the claim is here)."""
        link, conn = self.ctx.link, self.presence.conn
        if link is None:
            return True
        node = await link.claim(account.id, conn, force=self.terminal.kind is TerminalKind.PEER)
        if node is not None:
            await hand_over(self, node, purpose="session")
            await link.claim(account.id, conn, force=True)  # that node is gone: here
        return True

    async def _settle_in(self, proved: Login, challenge: str) -> None:
        """The caller's options and presentation (screen-reader mode kept
        by the account), a key to link, then a game that waits for them
        (a table between people, a kept game offered to resume unless
        they came to go on with it against ``challenge``)."""
        caller = self.caller
        reader = self.display.lines
        self.options = CallerOptions.from_dict(caller.account.options if caller.account else {},
                                              self.ctx.caller.defaults())
        if reader and not self.options.reader:
            self.present(Presentation.LINES)
            await self.remember_options()  # the account remembers the mode
        elif self.options.reader:
            self.present(Presentation.LINES)
        await offer_key_link(self, proved.offered_key)
        await back_to_waiting_table(self)
        self.presence.messages.extend(await login_news(self))  # (games by correspondence that wait on them)
        going_on = await to_go_on(self, not_against=challenge)  # (the one moved last: the others are on the menu)
        if going_on is not None:
            await self._resume(*going_on)

    async def _at_the_menu(self, named: str, first: MenuItem | None) -> bool:
        """The menu once (or ``first``, a choice made already; or a
        challenge to ``named`` at once) and the choice carried out; False
        when the caller leaves."""
        kept = await load_kept(self)  # the kept games are offered on the menu (none replayed)
        choice = MenuItem.PLAY_CALLER if named else first or await self._menu(kept)
        if choice is MenuItem.QUIT:
            return False
        # a new game of a kind the caller keeps one of replaces it
        owned = next((k for k in kept if k.owned and k.kind is _REPLACING.get(choice)), None)
        if owned is not None and not await self._replace_kept(owned, choice):
            return True
        try:
            await self._chosen(choice, kept, owned.line if owned is not None else None, named)
        except (HungUp, asyncio.CancelledError):
            raise
        except Exception:  # a screen that fails: logged, said, and back to the menu (never a dropped line)
            self.log.exception("the screen for the menu's %s failed", choice)
            await show_page(self.display, "Sorry", [
                "The door could not show that (what went wrong is logged for the sysop).", "",
                "You are back at the main menu."])
        return True

    async def _replace_kept(self, owned: KeptGame, choice: MenuItem) -> bool:
        """Whether a new game (the menu's ``choice``) may replace the
        caller's kept game ``owned``: they are asked."""
        self.doing(Doing.KEPT_GAME_PROMPT)
        against = "the sysop" if choice is MenuItem.PLAY_SYSOP else "the computer"
        answer = await ask_choice(self.display, "Your kept game", [
            f"You have a kept {owned.line}.",
            f"A new game against {against} replaces it.",
            "",
            "Start a new game all the same? (Y/N; N goes back to the menu)",
        ], "YN")
        return answer == "Y"

    async def _reader_asked(self) -> bool:
        """After the first line, wait up to ``reader_wait`` seconds for S
        (and its RETURN): True when it came, before any escape sequence
        was sent.  Any other key is kept for the name prompt."""
        terminal, wait = self.terminal, self.ctx.reader_wait
        if wait <= 0:
            return False
        key = await terminal.get_key(wait)
        if key is None:
            return False
        if key.name is KeyName.CHAR and key.char in "sS":
            after = await terminal.get_key(0.5)  # its RETURN, typed a moment later
            if after is not None and after.name is not KeyName.ENTER:
                terminal.unget(after)
            return True
        terminal.unget(key)
        return False

    async def _chosen(self, choice: MenuItem, kept: list[KeptGame], replaces: str | None, named: str) -> None:
        """Carry out the menu's ``choice`` (``kept``: the caller's kept
        game; ``replaces``: the one a new game would replace; ``named``: a
        caller to challenge at once)."""
        handlers: dict[MenuItem, Callable[[], Awaitable[object]]] = {
            MenuItem.CHALLENGED: lambda: answer(self, replaces=replaces),
            MenuItem.PLAY_CALLER: lambda: self._challenge_named(named, kept),
            MenuItem.PLAY_COMPUTER: self._play,
            MenuItem.NUMBERED_GAME: self._numbered_game,
            MenuItem.DAILY_DEAL: lambda: daily_deal(self, self._daily),
            MenuItem.STATISTICS: lambda: self._reading(Doing.READING_STATISTICS,
                                                       show_statistics(self.display, self.ctx.store, self.caller)),
            MenuItem.TOP_PLAYERS: lambda: self._reading(Doing.READING_TOP,
                                                        show_top_players(self.display, self.ctx.store)),
            MenuItem.RECENT_GAMES: self._recent_games,
            MenuItem.TERMINAL: self._terminal_test,
            MenuItem.CHALLENGES: self._toggle_challenges,
            MenuItem.DEMONSTRATION: lambda: self._reading(Doing.WATCHING_DEMONSTRATION, demonstration(
                self.display, self.ctx.rules, self.ctx.computer_delay or 1.0)),
            MenuItem.PLAY_SYSOP: self._play_sysop,
            MenuItem.WATCH: lambda: watch_game(self),
            MenuItem.CLUB: lambda: club_night(self),
            MenuItem.CORRESPONDENCE: lambda: correspondence(self),
            MenuItem.WATCHERS: self._toggle_watchers,
        }
        if kept:
            handlers[MenuItem.RESUME] = lambda: self._resume_one(kept)
        handler = handlers.get(choice)
        if handler is None:  # (never a fall-through to some other screen)
            self.log.error("no screen for the menu's %s", choice)
            return
        await handler()

    async def _recent_games(self) -> None:
        """Recent games; a registered caller's number key reviews one."""
        self.doing(Doing.READING_RECENT)
        chosen = await show_recent_games(self.display, self.ctx.store, self.caller)
        if chosen is not None:
            await review_recorded(self, chosen)

    async def _reading(self, doing: Doing, screen: Awaitable[None]) -> None:
        """Tell the lobby what the caller is ``doing``, then show ``screen``."""
        self.doing(doing)
        await screen

    async def _terminal_test(self) -> None:
        """The terminal test: the character set, or screen-reader mode on or off."""
        self.doing(Doing.TESTING_TERMINAL)
        presentation = await charset_test(self.display)
        if presentation is not self.display.presentation:
            self.present(presentation)
            await self.remember_options()

    async def _numbered_game(self) -> None:
        """Play the deals of a game number the caller types (Black Dog
        Cribbage's Game | Select); a number on record keeps its rules."""
        self.doing(Doing.CHOOSING_NUMBER)
        text = await ask_line(self.display, "Numbered game", [
            "Play the deals of a numbered game (Black Dog Cribbage's Game | Select).",
            "The same number always gives the same cards.",
        ], "Game number: ", "", 6)
        if text.isdigit() and int(text) >= 1:
            fixed = await self.ctx.store.games.recorded_rules(int(text))
            await self._play(number=int(text), fixed=fixed)

    async def _toggle_challenges(self) -> None:
        """C at the menu: challenges from other callers off, or on again."""
        presence = self.presence
        presence.challengeable = not presence.challengeable
        self.log.info("%r turned challenges %s", self.caller.name, "on" if presence.challengeable else "off")
        self.ctx.lobby.changed()

    async def _toggle_watchers(self) -> None:
        """V at the menu: other callers may watch this caller's games against
        people, or not (remembered with a registered caller's options)."""
        self.options.watchers = not self.options.watchers
        self.log.info("%r %s watchers", self.caller.name, "allows" if self.options.watchers else "refuses")
        await self.remember_options()

    async def _play_sysop(self) -> None:
        """The sysop at another node's console (go there), or page the sysop here."""
        node = self.ctx.lobby.sysop_elsewhere()
        if node is not None:
            await hand_over(self, node)
            return
        await page_sysop(self, self._play)

    async def _menu(self, kept: list[KeptGame]) -> MenuItem:
        """The main menu, where other callers may challenge this one and the
        sysop's messages show at once; the choice."""
        display, ctx, caller, presence = self.display, self.ctx, self.caller, self.presence
        self.doing(Doing.MAIN_MENU)
        messages = list(presence.messages)
        presence.messages.clear()

        def deliver(text: str) -> None:
            messages.append(text)
            display.say(text)
            display.refresh_soon()

        presence.deliver = deliver
        ctx.lobby.at_menu(presence, True)
        try:
            state = MenuState(
                sysop_available=lambda: ctx.lobby.sysop_available() or ctx.lobby.sysop_elsewhere() is not None,
                opponents=lambda: ctx.lobby.has_opponents(presence),
                challenged=lambda: ctx.lobby.challenge_for(presence) is not None,
                challenges_on=lambda: presence.challengeable,
                watchable=lambda: any_watchable(ctx.lobby.tables, presence),
                watchers_on=lambda: self.options.watchers,
                correspondence=lambda: caller.account is not None,
                club=lambda: club.words() if isinstance(club := ctx.lobby.club, ClubNight)
                and club.state is Night.OPEN else "")
            choice = await main_menu(display, caller, state, messages, resume=kept_words(kept))
            if choice is not MenuItem.CHALLENGED and (pending := ctx.lobby.challenge_for(presence)) is not None:
                ctx.lobby.answer_challenge(pending, None)  # the caller chose something else: that is a no
            return choice
        finally:
            ctx.lobby.at_menu(presence, False)
            presence.deliver = None

    async def _resume_one(self, kept: list[KeptGame]) -> None:
        """R at the menu: go on with the caller's kept game, or with the
        one they choose of several."""
        chosen = kept[0] if len(kept) == 1 else await choose_kept(self, kept)
        if chosen is not None:
            await self._resume(chosen)

    async def _challenge_named(self, named: str, kept: list[KeptGame]) -> None:
        """Challenge a caller (``named``: one come from another node, to go
        on with the kept game with them when there is one)."""
        own = next((k for k in kept if k.against(named)), None)
        await challenge_caller(self, named=named, resume=await resumable(self, own) if own is not None else None)

    async def _resume(self, kept: KeptGame, saved: SavedGame | None = None) -> None:
        """Go on with a kept game (``saved``: read already, else read and
        replayed now): against the computer at once, against the sysop by
        paging them, against another caller by challenging them."""
        saved = saved or await resumable(self, kept)
        if saved is None:
            return
        if kept.against_sysop:
            await page_sysop(self, self._play, resume=saved)
        elif kept.against_caller:
            await challenge_caller(self, resume=saved)
        else:
            await self._play(resume=saved)

    async def _play(self, number: int | None = None, resume: SavedGame | None = None,
                    fixed: Rules | None = None) -> None:
        """Games against the computer until the caller stops
        (:func:`~door.caller.vs_computer.play_computer`).  A new game's
        options are set on the options screen first (and remembered for a
        registered caller); a resumed game keeps the rules it was played
        with, and so does a numbered game on record (``fixed``)."""
        ctx, options = self.ctx, self.options
        rules = ctx.rules
        if resume is None:
            self.doing(Doing.CHOOSING_OPTIONS)
            chosen = await ask_game_options(self.display, ctx.rules, ctx.caller, options, fixed=fixed,
                                            commitment="" if number is not None else self.seeds.next_commitment)
            if chosen == BACK:
                return  # back to the menu
            await self.remember_options()
            rules = fixed or options.game_rules(ctx.rules, [*ctx.caller.may_change, "run_mode"])
        await play_computer(self, ComputerGame(rules, options, number, resume), self._at_computer_table)

    async def _daily(self, day: str, deal: SeededShuffle) -> bool:
        """Today's deal (``day``, its shuffles) against the day's computer."""
        return await play_computer(self, ComputerGame(self.ctx.rules, self.options, daily=(day, deal)),
                                   self._at_computer_table)

    async def _at_computer_table(self, table: Table, seat: Seat, computer: ComputerSeat,
                                 resume: SavedGame | None) -> bool:
        """The caller at ``table`` against ``computer`` (their keys at
        ``seat``) until it is done (:data:`~door.caller.vs_computer.Sitting`);
        the call's seeds carried on, and a seed set at "Play again?"
        remembered.  False (a caller does not leave here); raises
        :class:`~door.net.terminal.HungUp` when the line ended."""
        assert isinstance(seat, HumanSeat)
        presence = self.presence
        presence.deliver = seat.notice
        keys = asyncio.create_task(seat.play())
        try:
            await table.run(resume)
        finally:
            keys.cancel()
            computer.stop()
            presence.deliver = None
            # the seats and the table refer to each other: unlinked, the game and its events go by reference
            # counting now, not at the collector's next full pass (tests/loopback/test_cycles.py)
            seat.table = computer.table = None
            self.seeds = table.dealer.seeds  # (a new chain, when the call used one up)
            await self.remember_options()  # a seed set at "Play again?" is the caller's from now on
        if keys.done() and not keys.cancelled():
            keys.result()  # the game's key loop met the end of the line: HungUp
        return False
