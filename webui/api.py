"""The JSON API (documented in docs/api.md). Reads are GET; every command is a POST with the
CSRF token. No endpoint takes a file path: photos are uploaded, sources are chosen by name."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, jsonify, request

from ..gamelog import PlayerInfo, check_game_id
from ..input import InputError
from ..vision.imageio import decode_image
from .context import get_session, int_arg, json_body, optional_player

bp = Blueprint("api", __name__, url_prefix="/api")

#: Events returned by one /api/events call at most.
MAX_EVENTS_PAGE = 1000


def _game_id() -> str:
    """The ``game`` query argument, or the game in play; 404 when there is neither."""
    session = get_session()
    wanted = request.args.get("game")
    if wanted:
        return session.log.game(check_game_id(wanted)).id
    current = session.game_id()
    if current is None:
        abort(404, "no game is being played; name one with ?game=ID (see GET /api/games)")
    return current


@bp.get("/csrf")
def csrf() -> Response:
    return jsonify({"token": current_app.config["CSRF_TOKEN"], "header": "X-CSRF-Token"})


@bp.get("/state")
def state() -> Response:
    return jsonify(get_session().view())


@bp.get("/events")
def events() -> Response:
    game_id = _game_id()
    after = int_arg("after", 0)
    limit = int_arg("limit", MAX_EVENTS_PAGE, 1, MAX_EVENTS_PAGE)
    page = get_session().log.events(game_id, after=after, limit=limit)
    return jsonify({"game_id": game_id, "events": [e.to_json() for e in page]})


@bp.get("/score")
def score() -> Response:
    session = get_session()
    game_id = _game_id()
    record = session.log.game(game_id)
    series = [{"seq": e.seq, "at": e.at, "kind": e.kind, "totals": e.data["score"]["totals"],
               "round": e.data.get("round")}
              for e in session.log.events(game_id) if isinstance(e.data.get("score"), dict)]
    current = series[-1] if series else None
    return jsonify({"game_id": game_id, "names": [p.name for p in record.players],
                    "colours": [p.colour for p in record.players], "series": series,
                    "current": current})


@bp.get("/games")
def games() -> Response:
    return jsonify({"games": [g.to_json() for g in get_session().log.games()]})


@bp.get("/games/<game_id>")
def game_record(game_id: str) -> Response:
    return jsonify(get_session().log.export(check_game_id(game_id)))


@bp.get("/games/<game_id>/events/<int:seq>/snapshot.jpg")
def snapshot(game_id: str, seq: int) -> Response:
    event = get_session().log.event(check_game_id(game_id), seq)
    if event.snapshot is None:
        abort(404, f"event {seq} of game {game_id} has no snapshot")
    return Response(event.snapshot, mimetype="image/jpeg", headers={"Cache-Control": "max-age=3600"})


@bp.get("/calibration")
def calibration() -> Response:
    return jsonify(get_session().calibration_status(detect=request.args.get("detect") == "1"))


@bp.post("/analyze")
def analyze() -> Response:
    upload = request.files.get("image")
    if upload is not None:
        data = upload.read()
        name = f"uploaded image {upload.filename!r}" if upload.filename else "uploaded image"
    elif request.mimetype.startswith("image/") or request.mimetype == "application/octet-stream":
        data, name = request.get_data(), "uploaded image"
    else:
        abort(400, "send a photo as multipart form field 'image' or as the body with Content-Type image/...")
    image = decode_image(data, name=name, max_pixels=current_app.config["MAX_UPLOAD_PIXELS"])
    game_name = request.args.get("game") or None
    return jsonify(get_session().analyze(image, game_name))


@bp.post("/flags/<int:seq>/accept")
def accept(seq: int) -> Response:
    by = optional_player(json_body(required=False))
    return jsonify({"event": get_session().accept(seq, by).to_json()})


@bp.post("/flags/<int:seq>/undo")
def undo(seq: int) -> Response:
    by = optional_player(json_body(required=False))
    return jsonify({"event": get_session().undo(seq, by).to_json()})


@bp.post("/correct")
def correct() -> Response:
    data = json_body()
    by = optional_player(data)
    payload = {k: v for k, v in data.items() if k != "player"}
    return jsonify({"events": [e.to_json() for e in get_session().correct(payload, by)]})


@bp.post("/game/start")
def start() -> Response:
    data = json_body()
    name = data.get("game")
    raw_players = data.get("players")
    if not isinstance(name, str):
        abort(400, "'game' must name a game, e.g. \"dolcevita\"")
    if not isinstance(raw_players, list) or not raw_players:
        abort(400, "'players' must be a list of {\"name\", \"colour\"} objects, one per player")
    players = [PlayerInfo.from_json(p) for p in raw_players]
    options = data.get("options") or {}
    if not isinstance(options, dict):
        abort(400, "'options' must be a JSON object of rules options")
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise InputError(f"'seed' must be an integer, got {seed!r}")
    record = get_session().start_game(name, players, options, seed)
    return jsonify({"game": record.to_json()})


@bp.post("/game/stop")
def stop() -> Response:
    json_body(required=False)
    get_session().stop_game()
    return jsonify({"stopped": True})


@bp.post("/source")
def source() -> Response:
    data = json_body()
    get_session().set_source(data.get("spec"))  # type: ignore[arg-type]
    return jsonify(get_session().view()["source"])
