"""The live loop's parts, one idea each.

``recognition`` (the Recogniser protocol and the per-game registry), ``voting`` (agreeing on
one observation over the settled frames), ``judge`` (a verdict turned into events), ``hub``
(fan-out of committed events and the annotated picture to the dashboard's streams), ``loop``
(the frame loop thread: source, motion gate, recognition, vote), ``sources`` (which sources
the dashboard may open) and ``calibration_status`` (what the setup page shows). The session
that ties them to the game log is :mod:`tableref.session`; see docs/api.md.
"""
