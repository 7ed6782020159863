"""Reading dice in ordinary photos: every die's box, colour and confidence, without markers.

:class:`~.detect.DiceDetector` (``DiceDetector.open()`` loads the shipped model) finds the
dice; :func:`~.colour.name_colour` names a die's body colour; :mod:`.score` and
:mod:`.evaluate` measure a detector on labelled photos (:mod:`.labels`). See docs/dice.md.
"""
