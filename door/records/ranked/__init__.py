"""Ranked play: the terms and results of matches between people, their
Glicko-2 ratings, the fair-play checks that decide whether a match may be
rated, and the club nights' Swiss pairing and standings."""
