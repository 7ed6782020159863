"""The two pages: the dashboard (live view, state, scores, flags, event log) and setup."""

from __future__ import annotations

from flask import Blueprint, render_template

from ..live.sources import LAUNCH
from ..vision.capture import registered_sources
from .context import get_session

bp = Blueprint("pages", __name__)

#: Camera indices offered on the setup page.
CAMERAS_OFFERED = 4
#: Default player colours on the setup page (red, blue, green, yellow, purple).
DEFAULT_COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#e6b800", "#9467bd")


@bp.get("/")
def dashboard() -> str:
    return render_template("dashboard.html", view=get_session().view())


@bp.get("/setup")
def setup() -> str:
    session = get_session()
    sources = []
    if session.launch_source:
        sources.append((LAUNCH, f"from the command line: {session.launch_source}"))
    sources += [(name, name) for name in registered_sources()]
    sources += [(str(i), f"camera {i}") for i in range(CAMERAS_OFFERED)]
    return render_template("setup.html", view=session.view(), sources=sources, colours=DEFAULT_COLOURS)
