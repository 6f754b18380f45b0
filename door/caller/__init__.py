"""The caller layer: a caller's flow from the welcome screen to goodbye:
who is calling (the :class:`~door.caller.identity.Login` a transport
proved, the SSH authenticator, the name and password prompts), the main
menu, the options screen, games against the computer or the sysop.

May import: every layer below it, :mod:`door.config` and
:mod:`door.context`."""
