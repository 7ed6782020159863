"""Checks for fields read from JSON: each failure names the field and says what was expected."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .errors import ProfileError


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    if isinstance(value, Mapping):
        return "an object"
    return type(value).__name__


def fail(field: str, expected: str, value: Any) -> ProfileError:
    """The error for ``field``: expected ``expected``, got (a description of) ``value``."""
    return ProfileError(f"field {field!r} must be {expected}, got {_kind(value)}")


def section(obj: Any, field: str) -> Mapping[str, Any]:
    """``obj`` as a JSON object, or a :class:`ProfileError` naming ``field``."""
    if not isinstance(obj, Mapping):
        raise fail(field, "an object", obj)
    return obj


def get(obj: Mapping[str, Any], key: str, where: str) -> Any:
    """``obj[key]``; a missing key is a :class:`ProfileError` naming ``where.key``."""
    if key not in obj:
        raise ProfileError(f"field {_join(where, key)!r} is missing")
    return obj[key]


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def number(value: Any, field: str, *, positive: bool = False) -> float:
    """A finite JSON number (not a boolean), optionally > 0."""
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (positive and value <= 0):
        raise fail(field, "a positive number" if positive else "a finite number", value)
    return float(value)


def integer(value: Any, field: str, *, minimum: int | None = None) -> int:
    """A JSON integer (not a boolean), optionally at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool) or (minimum is not None and value < minimum):
        raise fail(field, "an integer" if minimum is None else f"an integer >= {minimum}", value)
    return value


def string(value: Any, field: str) -> str:
    """A JSON string."""
    if not isinstance(value, str):
        raise fail(field, "a string", value)
    return value


def _numbers_only(value: Any) -> bool:
    if isinstance(value, list):
        return all(_numbers_only(v) for v in value)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def matrix(value: Any, field: str, shape: tuple[int, ...]) -> np.ndarray:
    """A nested list of finite numbers of exactly ``shape``, as a float64 array.

    ``-1`` in ``shape`` accepts any length on that axis.
    """
    want = "x".join("N" if n < 0 else str(n) for n in shape)
    expected = f"a {want} matrix of numbers" if len(shape) > 1 else f"a list of {want} numbers"
    if not isinstance(value, list) or not _numbers_only(value):
        raise fail(field, expected, value)
    try:
        array = np.array(value, dtype=np.float64)
    except ValueError:
        raise ProfileError(f"field {field!r} must be {expected}, got rows of different lengths") from None
    if array.ndim != len(shape) or any(n >= 0 and n != m for n, m in zip(shape, array.shape)):
        got = "x".join(map(str, array.shape)) if array.ndim else "a scalar"
        raise ProfileError(f"field {field!r} must be {expected}, got shape {got}")
    if not np.all(np.isfinite(array)):
        raise ProfileError(f"field {field!r} must hold finite numbers only")
    return array


def size(value: Any, field: str) -> tuple[int, int]:
    """An image size ``[width, height]`` in pixels, both positive integers."""
    if not (isinstance(value, list) and len(value) == 2):
        raise fail(field, "[width, height] in pixels", value)
    return (integer(value[0], f"{field}[0]", minimum=1), integer(value[1], f"{field}[1]", minimum=1))


def readonly(array: np.ndarray, dtype: type = np.float64) -> np.ndarray:
    """A read-only float64 copy of ``array`` (dataclass fields stay frozen)."""
    out = np.array(array, dtype=dtype)
    out.setflags(write=False)
    return out
