"""Agreeing on one observation over several settled frames.

A single frame can be misread (a reflection, a half-lit card). Once the scene has settled,
the session recognises a few frames and keeps the observation most of them agree on. Two
observations agree when they are equal apart from their confidences (compared on their JSON).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from ..input import InputError


@dataclass(frozen=True)
class VoteSettings:
    """How many settled frames are read, and how many must agree.

    Attributes
    ----------
    frames : int
        Frames read before a vote is taken.
    quorum : int
        Frames that must agree for the vote to stand after ``frames`` frames.
    max_frames : int
        Frames read at most; then the largest group wins even without a quorum.

    The default reads two settled frames and stands when they agree (a third and later ones
    only when they do not): with a recogniser at its budget of 150 ms a frame, a placement
    then reaches the page within the 500 ms budget (two reads, not three, after the scene
    settles).
    """

    frames: int = 2
    quorum: int = 2
    max_frames: int = 9

    def __post_init__(self) -> None:
        for name in ("frames", "quorum", "max_frames"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise InputError(f"vote setting {name} must be an integer >= 1, got {value!r}")
        if not self.quorum <= self.frames <= self.max_frames:
            raise InputError(f"vote settings need quorum <= frames <= max_frames, got {self.quorum}, "
                             f"{self.frames}, {self.max_frames}")


@dataclass(frozen=True)
class VoteResult:
    """The observation voted for, how many frames agreed, and how many were read."""

    observation: Any
    agree: int
    total: int


def _strip_confidence(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _strip_confidence(v) for k, v in value.items() if "confidence" not in k}
    if isinstance(value, list):
        return [_strip_confidence(v) for v in value]
    return value


def observation_key(observation: Any) -> str:
    """A text that is equal for two observations exactly when they agree (confidences ignored)."""
    return json.dumps(_strip_confidence(observation.to_json()), sort_keys=True, separators=(",", ":"))


def vote(observations: Sequence[Any], settings: VoteSettings) -> VoteResult | None:
    """The observation the frames agree on, or None when more frames are needed.

    Parameters
    ----------
    observations : sequence of Observation
        The readings of consecutive settled frames, oldest first.
    settings : VoteSettings

    Returns
    -------
    VoteResult or None
        None while fewer than ``settings.frames`` frames were read, or while no group has a
        quorum and fewer than ``settings.max_frames`` were read. Otherwise the largest group
        (among equals, the one seen last) represented by its latest member.
    """
    total = len(observations)
    if total < settings.frames:
        return None
    groups: dict[str, list[int]] = {}
    for index, observation in enumerate(observations):
        groups.setdefault(observation_key(observation), []).append(index)
    best = max(groups.values(), key=lambda members: (len(members), members[-1]))
    if len(best) < settings.quorum and total < settings.max_frames:
        return None
    return VoteResult(observations[best[-1]], len(best), total)
