"""Recognisers: one photograph of a game table -> the game's Observation, with confidences.

``common`` holds what every game shares (the table from its markers, zones in mm);
``dolcevita`` reads Dolce Vita.
"""
