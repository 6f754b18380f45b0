"""The network layer: the :class:`~door.net.terminal.Terminal` contract
(decoded keys in, buffered bytes out, size, charset, hang-up) and the
transports behind it: telnet (telnetlib3), SSH (asyncssh; who may log in is
asked of an :class:`~door.net.ssh.Authenticator` from a higher layer), the
local console socket and its client, BBS stdio and socket terminals and drop
files; the pure key decoder, the charsets, the escape-sequence table, the
per-connection log context.

May import: ``engine`` and the standard library.  Nothing above this layer
imports telnetlib3 or asyncssh."""
