"""The networked door: telnet and SSH listeners, terminals, screens, the
table that drives a game between two seats, and the command line."""
