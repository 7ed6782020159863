"""A referee's verdict turned into the events to record: pure functions, no I/O.

``reading_events`` covers a change seen on the table; ``correction_events`` a player's
correction; ``milestones`` the round and game ends that a new state brings. Each returns
:class:`~tableref.events.EventDraft` records in the order they are to be committed.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Sequence

from ..events import EventDraft
from ..gamelog import PlayerInfo
from ..rules.common import CHANCE, Verdict, Violation

#: Moves named in one summary line at most (a whole dealt grid is summarised by its count).
SUMMARY_MOVES = 3

SnapshotMaker = Callable[[Sequence[Violation]], "bytes | None"]


def player_name(players: Sequence[PlayerInfo], index: int | None) -> str:
    """How to name player ``index`` in a summary: their name, else "player N"."""
    if index is None or index == CHANCE:
        return "the table"
    if 0 <= index < len(players):
        return players[index].name
    return f"player {index}"


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
    shown = [describe_move(m) for m in moves[:SUMMARY_MOVES]]
    more = len(moves) - len(shown)
    return "; ".join(shown) + (f" and {more} more" if more > 0 else "")


def rounds_done(state_json: dict) -> int | None:
    """Rounds finished in a state, from its JSON: the scored rounds (``results``) when the game
    keeps them, else the round under way minus one; None for a game without rounds."""
    if isinstance(state_json.get("results"), list):
        return len(state_json["results"])
    if isinstance(state_json.get("round"), int):
        return state_json["round"] - 1
    return None


def milestones(rules: ModuleType, before: Any, after: Any) -> list[EventDraft]:
    """The round end and game end that going from ``before`` to ``after`` brings, if any."""
    out: list[EventDraft] = []
    after_json = after.to_json()
    done_before, done_after = rounds_done(before.to_json()), rounds_done(after_json)
    over = rules.is_over(after) and not rules.is_over(before)
    score = rules.score(after).to_json()
    if done_before is not None and done_after is not None and done_after > done_before and not over:
        out.append(EventDraft("round_end", f"Round {done_after} is over: scores {score['totals']}",
                              data={"round": done_after, "score": score}))
    if over:
        winners = ", ".join(f"player {w}" for w in score["winners"])
        out.append(EventDraft("game_end", f"The game is over: scores {score['totals']}, won by {winners}",
                              data={"score": score}))
    return out


def _with_names(score: dict, players: Sequence[PlayerInfo]) -> dict:
    return {**score, "names": [player_name(players, i) for i in range(len(score["totals"]))]}


def reading_events(rules: ModuleType, before: Any, verdict: Verdict, players: Sequence[PlayerInfo],
                   snapshot: SnapshotMaker) -> list[EventDraft]:
    """Events for a change seen on the table: none, a move accepted, or a flag (plus milestones)."""
    if verdict.legal and not verdict.moves:
        return []
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
    return [draft, *milestones(rules, before, verdict.state)]


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
    return [draft, *milestones(rules, before, after)]
