"""A referee's verdict turned into the events to record: pure functions, no I/O.

``reading_events`` covers a change seen on the table; ``correction_events`` a player's
correction on the dashboard; ``milestones`` the round and game ends that a new state brings.
Each returns :class:`~tableref.events.EventDraft` records in the order they are to be committed.

A change on the table that the referee explains with no move never vanishes: when the table
now shows the state again (a player put a piece back), it is a ``state_corrected`` event
("table"); otherwise an ``unexplained_change`` naming what differs (:func:`observation_changes`).
A place that only went out of sight (a hand over it), or came back into sight as the state has
it, is no change.
"""

from __future__ import annotations

import json
from collections import Counter
from types import ModuleType
from typing import Any, Callable, Sequence

from ..events import EventDraft
from ..gamelog import PlayerInfo
from ..rules.common import CHANCE, Verdict, Violation
from ..rules.daluigi.observation import UNKNOWN as DALUIGI_UNKNOWN
from ..rules.dolcevita.catalogue import UNKNOWN as DOLCEVITA_UNKNOWN

#: Moves named in one summary line at most (a whole dealt grid is summarised by its count).
SUMMARY_MOVES = 3
#: Keys that name where an observed item lies (Dolce Vita and Da Luigi items, Ligretto cells).
PLACE_KEYS = ("where", "cell")

#: What a place the camera could not see holds, as :func:`observation_changes` compares contents:
#: Dolce Vita's and Da Luigi's unknown labels, a Ligretto space whose cover is unknown (nothing
#: left to show, or only whether a token stands there: :data:`HIDDEN_SPACE`).
HIDDEN = (DOLCEVITA_UNKNOWN, DALUIGI_UNKNOWN, "")
HIDDEN_SPACE = "token="

SnapshotMaker = Callable[[Sequence[Violation]], "bytes | None"]


def player_name(players: Sequence[PlayerInfo], index: int | None) -> str:
    """How to name player ``index`` in a summary: their name, else "player N" counted from 1
    (index 0 is "player 1"), as every sentence of the rules engines counts them."""
    if index is None or index == CHANCE:
        return "the table"
    if 0 <= index < len(players):
        return players[index].name
    return f"player {index + 1}"


def describe_move(move: dict) -> str:
    """One move's JSON in a few words: its type and its fields, e.g. ``place value=3 column=2``."""
    kind = str(move.get("type", "move"))
    fields = " ".join(f"{k}={v}" for k, v in move.items() if k not in ("type", "player"))
    return f"{kind} {fields}".strip()


def _mover(moves: Sequence[Any]) -> int | None:
    for move in moves:
        player = getattr(move, "player", None)
        if isinstance(player, int) and player >= 0:
            return player
    return None


def _moves_text(moves: list[dict]) -> str:
    """The moves in a few words: a run of more than SUMMARY_MOVES moves of one type by its count
    (``63 x deal``), at most SUMMARY_MOVES parts, then how many moves are left unnamed."""
    runs: list[list[dict]] = []
    for move in moves:
        if runs and runs[-1][0].get("type") == move.get("type"):
            runs[-1].append(move)
        else:
            runs.append([move])
    parts: list[tuple[str, int]] = []  # (text, moves it names)
    for run in runs:
        if len(run) > SUMMARY_MOVES:
            parts.append((f"{len(run)} x {run[0].get('type', 'move')}", len(run)))
        else:
            parts.extend((describe_move(m), 1) for m in run)
    shown = parts[:SUMMARY_MOVES]
    more = len(moves) - sum(n for _, n in shown)
    return "; ".join(text for text, _ in shown) + (f" and {more} more" if more > 0 else "")


def rounds_done(state_json: dict) -> int | None:
    """Rounds finished in a state, from its JSON: the scored rounds (``results``) when the game
    keeps them, else the round under way minus one; None for a game without rounds."""
    if isinstance(state_json.get("results"), list):
        return len(state_json["results"])
    if isinstance(state_json.get("round"), int):
        return state_json["round"] - 1
    return None


def milestones(rules: ModuleType, before: Any, after: Any, players: Sequence[PlayerInfo] = ()) -> list[EventDraft]:
    """The round end and game end that going from ``before`` to ``after`` brings, if any
    (winners named by ``players``' names, else "player N" counted from 1)."""
    out: list[EventDraft] = []
    after_json = after.to_json()
    done_before, done_after = rounds_done(before.to_json()), rounds_done(after_json)
    over = rules.is_over(after) and not rules.is_over(before)
    score = rules.score(after).to_json()
    if done_before is not None and done_after is not None and done_after > done_before and not over:
        out.append(EventDraft("round_end", f"Round {done_after} is over: scores {score['totals']}",
                              data={"round": done_after, "score": score}))
    if over:
        winners = ", ".join(player_name(players, w) for w in score["winners"])
        out.append(EventDraft("game_end", f"The game is over: scores {score['totals']}, won by {winners}",
                              data={"score": score}))
    return out


def _with_names(score: dict, players: Sequence[PlayerInfo]) -> dict:
    return {**score, "names": [player_name(players, i) for i in range(len(score["totals"]))]}


def _content(entry: Any, place_key: str | None) -> str:
    """What one observed entry shows, without its place and confidences: its label, else ``key=value``s."""
    if not isinstance(entry, dict):
        return json.dumps(entry, sort_keys=True)
    shown = {k: v for k, v in entry.items() if k != place_key and "confidence" not in k}
    if set(shown) == {"label"}:
        return str(shown["label"])
    return " ".join(f"{k}={json.dumps(v) if isinstance(v, (dict, list)) else v}"
                    for k, v in sorted(shown.items()) if v is not None)


def _entry_place(entry: dict) -> tuple[str | None, str | None]:
    """The key naming an observed entry's place (:data:`PLACE_KEYS`) and that place as text (a
    cell's coordinates joined by commas); (None, None) for an entry that names no place."""
    place_key = next((k for k in PLACE_KEYS if k in entry), None)
    if place_key is None:
        return None, None
    place = entry[place_key]
    return place_key, ",".join(map(str, place)) if isinstance(place, list) else str(place)


def _places(observation: dict) -> dict[str, list[str]]:
    """An observation's JSON as place -> sorted contents (a place may hold several items)."""
    out: dict[str, list[str]] = {}
    for key, value in observation.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for entry in value:
                place_key, place = _entry_place(entry)
                out.setdefault(key if place is None else place, []).append(_content(entry, place_key))
        elif "confidence" not in key:
            out.setdefault(key, []).append(_content(value, None))
    return {place: sorted(contents) for place, contents in out.items()}


def _hidden(contents: list[str]) -> bool:
    """Whether a place's contents (:func:`_places`) are all out of sight (:data:`HIDDEN`)."""
    return bool(contents) and all(c in HIDDEN or c.startswith(HIDDEN_SPACE) for c in contents)


def still_disputed(held: dict, previous: dict | None, observation: dict, kept: dict) -> list[str]:
    """The places where a reading shows, as the reading before it (``previous``) did, what
    neither the state held (``held``, that state's own observation) nor the position the
    referee would keep from it (``kept``) has there. (All four are observations' JSON.)"""
    if previous is None:
        return []
    was, last, now, left = _places(held), _places(previous), _places(observation), _places(kept)
    return [place for place in sorted(set(was) | set(now))
            if now.get(place, []) not in (was.get(place, []), left.get(place, []))
            and now.get(place, []) == last.get(place, [])]


def with_places_of(observation: dict, other: dict, places: Sequence[str]) -> dict:
    """``observation`` (JSON) with what it shows at ``places`` replaced by what ``other`` shows there."""
    chosen = set(places)
    out = dict(observation)
    for key, value in observation.items():
        if isinstance(value, list) and all(isinstance(v, dict) for v in value):
            theirs = [v for v in other.get(key, []) if isinstance(v, dict)]
            out[key] = ([v for v in value if _entry_place(v)[1] not in chosen]
                        + [v for v in theirs if _entry_place(v)[1] in chosen])
    return out


def observation_changes(before: dict, after: dict) -> list[dict]:
    """What differs between two observations (their JSON), place by place, confidences ignored.

    Parameters
    ----------
    before, after : dict
        Observations as ``Observation.to_json()`` gives them: lists of items that name their
        place (``where`` or ``cell``) and other fields compared whole.

    Returns
    -------
    list of dict
        ``{"where": place, "was": [...], "now": [...]}`` for each place whose contents differ,
        sorted by place; empty when the two agree.
    """
    was, now = _places(before), _places(after)
    return [{"where": place, "was": was.get(place, []), "now": now.get(place, [])}
            for place in sorted(set(was) | set(now)) if was.get(place, []) != now.get(place, [])]


def describe_change(change: dict) -> str:
    """One place's change in a few words, e.g. ``column:2:under: yellow:1 (was nothing)``."""
    now = ", ".join(change["now"]) or "nothing"
    was = ", ".join(change["was"]) or "nothing"
    return f"{change['where']}: {now} (was {was})"


def _changes_text(changes: list[dict]) -> str:
    shown = [describe_change(c) for c in changes[:SUMMARY_MOVES]]
    more = len(changes) - len(shown)
    return "; ".join(shown) + (f" and {more} more" if more > 0 else "")


def _unmoved_events(rules: ModuleType, before: Any, verdict: Verdict, observation: dict,
                    previous: dict | None, snapshot: SnapshotMaker) -> list[EventDraft]:
    """Events for a reading that differs from the last one although no move explains it.

    A place that only went out of sight (a hand over it), or came back into sight as the state
    has it, is no change of the table: it is left out."""
    expected = rules.observe(before).to_json()
    held = _places(expected)
    changes = [c for c in observation_changes(expected if previous is None else previous, observation)
               if not (_hidden(c["now"]) or (_hidden(c["was"]) and c["now"] == held.get(c["where"], [])))]
    if not changes:
        return []
    if not observation_changes(expected, observation):
        return [EventDraft("state_corrected", f"The table was put back as the game has it: {_changes_text(changes)}",
                           data={"how": "table", "changes": changes, "note": verdict.note})]
    return [EventDraft("unexplained_change", f"Unexplained change on the table: {_changes_text(changes)}",
                       data={"changes": changes, "differs_from_state": observation_changes(expected, observation),
                             "note": verdict.note},
                       snapshot=snapshot(()))]


def _rule_key(violation: dict) -> tuple:
    """A broken rule as a flag names it: its code and pieces."""
    return str(violation.get("code")), tuple(sorted(map(str, violation.get("pieces", ()))))


def _flag_key(violations: Sequence[dict]) -> tuple:
    return tuple(sorted(map(_rule_key, violations)))


def named_by_open_flags(violations: Sequence[dict], open_flags: Sequence[Any]) -> bool:
    """Whether one of ``violations`` (JSON) is a rule and pieces that one of the ``open_flags``
    (events) already names."""
    named = {_rule_key(v) for e in open_flags if e.kind == "illegal_flagged" for v in e.data.get("violations", ())}
    return any(_rule_key(v) in named for v in violations)


def repeats_open_flag(draft: EventDraft, open_flags: Sequence[Any]) -> bool:
    """Whether ``draft`` is a flag for the very rules and pieces an open flag already names.

    A misreading the state cannot take in (or an illegal change nobody has decided on yet) is
    seen again at every later reading of the table; the players are told once, and the open
    flag stays until they accept or undo it. The session passes the flags the state stands on
    (:func:`~tableref.events.standing_flags`): an older open flag that names the same card (Dolce
    Vita's number cards return to the hands each round) does not hide a new placement's flag.
    """
    if draft.kind != "illegal_flagged" or not draft.data:
        return False
    key = _flag_key(draft.data.get("violations", ()))
    return any(_flag_key(e.data.get("violations", ())) == key for e in open_flags if e.kind == "illegal_flagged")


def reading_events(rules: ModuleType, before: Any, verdict: Verdict, players: Sequence[PlayerInfo],
                   snapshot: SnapshotMaker, *, observation: dict | None = None,
                   previous: dict | None = None) -> list[EventDraft]:
    """Events for a change seen on the table (plus the milestones it brings).

    Parameters
    ----------
    rules : module
        The game's rules (``tableref.rules.<game>``).
    before : State
        The state the reading was refereed from.
    verdict : Verdict
        The referee's verdict on the reading.
    players : sequence of PlayerInfo
    snapshot : callable (violations) -> JPEG bytes or None
        The frame with the offending pieces outlined (no violations: the frame as read).
    observation : dict, optional
        The reading (its JSON); without it, a verdict with no move gives no event.
    previous : dict, optional
        The reading before it (its JSON); None: the table was last seen as ``before`` shows.

    Returns
    -------
    list of EventDraft
        A move accepted or a flag; for a legal verdict with no move, nothing when the table is as
        last seen, ``state_corrected`` (how ``table``) when it shows ``before`` again, else an
        ``unexplained_change`` naming each place that differs.
    """
    if verdict.legal and not verdict.moves:
        return [] if observation is None else _unmoved_events(rules, before, verdict, observation, previous, snapshot)
    moves = [m.to_json() for m in verdict.moves]
    score = _with_names(rules.score(verdict.state).to_json(), players)
    state = verdict.state.to_json()
    if verdict.legal:
        mover = _mover(verdict.moves)
        draft = EventDraft("move_accepted", f"{player_name(players, mover)}: {_moves_text(moves)}", player=mover,
                           data={"moves": moves, "score": score, "note": verdict.note}, state=state)
    else:
        first = verdict.violations[0]
        who = player_name(players, first.player)
        draft = EventDraft("illegal_flagged", f"Flag for {who}: {first.sentence}", player=first.player,
                           data={"violations": [v.to_json() for v in verdict.violations], "moves": moves,
                                 "score": score, "note": verdict.note},
                           state=state, snapshot=snapshot(verdict.violations))
    return [draft, *milestones(rules, before, verdict.state, players)]


def places_gone(rules: ModuleType, base: Any, flagged: Any, observation: dict) -> list[str]:
    """The places where a reading contradicts what the camera's open flags saw: they took the
    table from ``base`` to ``flagged``, and there now something they saw added is gone, or
    something they saw taken is back. Cheap: the session asks it before refereeing again."""
    was, saw, now = (_places(x) for x in (rules.observe(base).to_json(), rules.observe(flagged).to_json(),
                                          observation))
    out = []
    for place in sorted(set(was) | set(saw)):
        before, flagged_there, seen = (Counter(d.get(place, [])) for d in (was, saw, now))
        if before != flagged_there and ((flagged_there - before) - seen or (before - flagged_there) & seen):
            out.append(place)
    return out


def clears_flags(rules: ModuleType, base: Any, verdict: Verdict, observation: dict, gone: Sequence[str]) -> bool:
    """Whether a reading shows that what the camera's open flags saw is no longer on the table.

    ``base`` is the state before the flags, ``verdict`` the reading refereed from ``base``,
    ``gone`` the places where the reading contradicts what the flags saw (:func:`places_gone`).
    Two things must hold: from ``base`` the reading is legal (legal moves, or the table exactly
    as ``base`` has it), and at one of those places the reading now shows plainly what that
    legal explanation has there: a misreading, or the piece taken back. A flagged piece merely
    hidden (a hand over it) shows as unknown, which no legal state has; a flagged piece still
    lying there (a card played out of turn, then the player whose turn it was playing too) is
    no place gone and keeps its flag, although a legal order of the same moves could explain the
    table now.
    """
    if not verdict.legal or not gone:
        return False
    if not verdict.moves and observation_changes(rules.observe(base).to_json(), observation):
        return False
    return shows_as_read(rules, verdict.state, observation, gone)


def shows_as_read(rules: ModuleType, state: Any, observation: dict, places: Sequence[str]) -> bool:
    """Whether ``state`` has, at one of ``places``, just what the reading ``observation`` shows there."""
    held, now = _places(rules.observe(state).to_json()), _places(observation)
    return any(now.get(place, []) == held.get(place, []) for place in places)


def withdrawal_events(flags: Sequence[tuple[int, dict]]) -> list[EventDraft]:
    """``flag_withdrawn`` drafts for the camera's flags ``(seq, state before it)``, the latest
    first, so that the last draft leaves the state the earliest flag started from."""
    return [EventDraft("flag_withdrawn", f"Flag {seq} withdrawn: the table now shows a legal position without "
                       "it (a misreading, or the piece was taken back)", data={"flag": seq}, state=state)
            for seq, state in sorted(flags, reverse=True)]


def revision_event(moves: Sequence[int], places: Sequence[str], state: dict) -> EventDraft:
    """The ``move_revised`` draft for accepted moves ``moves`` (their events' seqs) that a later
    reading showed misread at ``places``: the state returns to ``state``, the one before them."""
    which = ", ".join(str(seq) for seq in sorted(moves))
    return EventDraft("move_revised", f"Move{'s' if len(moves) > 1 else ''} {which} revised: the table now shows "
                      f"{', '.join(places)} otherwise than read then (a misreading)",
                      data={"moves": sorted(moves), "places": list(places)}, state=state)


def correction_events(rules: ModuleType, before: Any, after: Any, how: str, players: Sequence[PlayerInfo],
                      by: int | None, verdict: Verdict | None = None,
                      snapshot: SnapshotMaker | None = None) -> list[EventDraft]:
    """Events for a correction: ``after`` replaces the state; a verdict's violations stay open as a flag."""
    score = _with_names(rules.score(after).to_json(), players)
    data: dict[str, Any] = {"how": how, "score": score}
    shot = None
    if verdict is not None:
        data["moves"] = [m.to_json() for m in verdict.moves]
        data["violations"] = [v.to_json() for v in verdict.violations]
        if verdict.violations and snapshot is not None:
            shot = snapshot(verdict.violations)
    summary = f"{player_name(players, by) if by is not None else 'A player'} corrected the {how}"
    if verdict is not None and verdict.violations:
        summary += f"; flag: {verdict.violations[0].sentence}"
    draft = EventDraft("state_corrected", summary, player=by, data=data, state=after.to_json(), snapshot=shot)
    return [draft, *milestones(rules, before, after, players)]
