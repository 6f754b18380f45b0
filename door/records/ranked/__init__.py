"""Ranked play: the terms and results of matches between people, their
Glicko-2 ratings, the fair-play checks that decide whether a match may be
rated, the club nights' Swiss pairing and standings, and tournaments'
pure core: formats, Swiss pairing and standings, knock-out brackets,
season points, and a bracket drawn and said."""
