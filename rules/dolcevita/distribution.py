"""Handing out one column's luxury cards at the end of the placing.

Every rule is a small function whose docstring quotes the rulebook sentence it implements.
"""

from __future__ import annotations

from .catalogue import MONEY, parse_card
from .options import TRADE_IN_PLACE


def column_sums(under: tuple[tuple[int, int], ...]) -> dict[int, int]:
    """'Beginning with the left row, each player totals the value of his numbers lying there.'"""
    sums: dict[int, int] = {}
    for player, value in under:
        sums[player] = sums.get(player, 0) + value
    return sums


def cancel_ties(sums: dict[int, int]) -> tuple[list[int], set[int]]:
    """'If there is a tie of equal numbers then the players take these cards back into their
    hands - they don't count - then the luxury cards are distributed in the normal manner.'

    Returns the counting players, highest total first, and the players whose cards go back.
    """
    counts: dict[int, int] = {}
    for total in sums.values():
        counts[total] = counts.get(total, 0) + 1
    tied = {p for p, total in sums.items() if counts[total] > 1}
    ranked = sorted((p for p in sums if p not in tied), key=lambda p: -sums[p])
    return ranked, tied


def turn_over_bottom(column: list[str]) -> None:
    """'If no number cards are placed under a row the bottom card is removed and placed at the
    top of the row.'"""
    if column:
        column.append(column.pop(0))


def must_trade_in(round_number: int, from_round_one: bool) -> bool:
    """'All rounds play out in the same manner as the first, though now there is a special rule
    when collecting. Players may only ever possess one piece of each luxury property.'

    From round 1 ("only ever", option ``one_of_each_in_round_one``) or from round 2 ("now").
    """
    return from_round_one or round_number > 1


def trade_in(goods: list[str], new_card: str) -> str | None:
    """'so if they get another they must exchange the old one and must keep the new.'

    Removes and returns the old card of the new card's good (the lowest, should a player hold
    two of it from a first round without the rule), or None.  'This rule is not valid with the
    money cards.'
    """
    kind = parse_card(new_card)[0]
    old = [g for g in goods if parse_card(g)[0] == kind]
    if not old:
        return None
    lowest = min(old, key=lambda g: parse_card(g)[1])
    goods.remove(lowest)
    return lowest


def hand_out(column: list[str], ranked: list[int], goods: list[list[str]], money: list[list[int]],
             exchange: bool, trade_in_where: str) -> None:
    """'The player with the highest value gets the lowest luxury card of this row (i.e. the card
    at the bottom of the row). [...] The player with the second-highest number value gets the next
    luxury card up, etc.'

    A traded-in good goes to the TOP of the column (the rulebook's note, option ``trade_in`` =
    'top') or into the slot the new card left ('place': "into the row from which he has gotten
    his new car").  Players ranked beyond the column's last card get nothing.  ``column``,
    ``goods`` and ``money`` are changed in place.
    """
    pos = 0
    for player in ranked:
        if pos >= len(column):
            return
        card = column[pos]
        kind, value = parse_card(card)
        if kind == MONEY:
            keep_money(money[player], value)
            del column[pos]
            continue
        old = trade_in(goods[player], card) if exchange else None
        goods[player].append(card)
        if old is None:
            del column[pos]
        elif trade_in_where == TRADE_IN_PLACE:
            column[pos] = old
            pos += 1
        else:
            del column[pos]
            column.append(old)


def keep_money(money: list[int], value: int) -> None:
    """'One may have as much money as one can collect. One keeps every money card that one gets
    in the course of the game.'"""
    money.append(value)
    money.sort()
