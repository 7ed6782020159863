"""Final wealth, the winner, and what is wrong in a position as it lies."""

from __future__ import annotations

from collections import Counter

from ..common import Score, Violation, player_name, players_named
from .catalogue import NUMBER_VALUES, deck_counter, number_label, parse_card
from .options import TIE_GOODS, TIE_MONEY
from .state import OVER, State


def is_over(state: State) -> bool:
    """'Play is over after a predetermined number of rounds.'"""
    return state.phase == OVER


def wealth_parts(state: State) -> dict[str, tuple[int, ...]]:
    """'After the stated number of rounds the players add up all of their luxury goods as well as
    their money.'"""
    goods = tuple(sum(parse_card(card)[1] for card in held) for held in state.goods)
    money = tuple(sum(held) for held in state.money)
    return {"goods": goods, "money": money}


def richest(totals: tuple[int, ...], parts: dict[str, tuple[int, ...]], tiebreak: str) -> tuple[tuple[int, ...], str]:
    """'The richest player wins.'  The rulebook gives no tie-break (option ``tiebreak``)."""
    best = max(totals)
    winners = [p for p, total in enumerate(totals) if total == best]
    if len(winners) == 1:
        return tuple(winners), ""
    if tiebreak in (TIE_MONEY, TIE_GOODS):
        part = "money" if tiebreak == TIE_MONEY else "goods"
        top = max(parts[part][p] for p in winners)
        broken = tuple(p for p in winners if parts[part][p] == top)
        return broken, (f"{players_named(winners, capital=True)} tie at {best}; the one(s) with the most {part} "
                        f"win (option tiebreak = {tiebreak})")
    return tuple(winners), (f"{players_named(winners, capital=True)} tie at {best} and share the win "
                            "(option tiebreak = shared)")


def score(state: State) -> Score:
    """Wealth per player (goods plus money), winners after the tie-break, and whether it is final."""
    parts = wealth_parts(state)
    totals = tuple(g + m for g, m in zip(parts["goods"], parts["money"]))
    winners, sentence = richest(totals, parts, state.opts["tiebreak"])
    return Score(totals=totals, parts=parts, winners=winners, tiebreak=sentence, final=is_over(state))


def one_of_each(state: State) -> list[Violation]:
    """'Players may only ever possess one piece of each luxury property'."""
    if not state.opts["one_of_each_in_round_one"]:
        return []
    found = []
    for player, held in enumerate(state.goods):
        kinds = Counter(parse_card(card)[0] for card in held)
        for kind, count in sorted(kinds.items()):
            if count > 1:
                cards = tuple(c for c in held if parse_card(c)[0] == kind)
                found.append(Violation("dolcevita.two_of_a_kind", player, cards,
                                       f"{player_name(player)} holds {count} cards of {kind}; one may only own one "
                                       "of "
                                       f"each luxury good", rule="one_of_each"))
    return found


def all_luxury_cards(state: State) -> list[Violation]:
    """'66 small luxury cards' lie in the grid, with the players or in the box, each once."""
    seen = Counter(card for column in state.columns for card in column)
    seen.update(state.box)
    for held in state.goods:
        seen.update(held)
    for held in state.money:
        seen.update(f"money:{value}" for value in held)
    expected = deck_counter(state.opts["money_low_cards"])
    if seen == expected:
        return []
    missing = sorted((expected - seen).elements())
    extra = sorted((seen - expected).elements())
    return [Violation("dolcevita.card_count", None, tuple(missing + extra),
                      f"the luxury cards do not add up: missing {missing or 'none'}, too many {extra or 'none'}",
                      rule="all_luxury_cards")]


def all_number_cards(state: State) -> list[Violation]:
    """'Each player takes the 6 number cards of one colour.'  Each lies in the hand or under a column."""
    found = []
    for player in range(state.players):
        cards = sorted(list(state.hands[player]) + [v for cards in state.under for p, v in cards if p == player])
        if cards != list(NUMBER_VALUES):
            found.append(Violation("dolcevita.number_cards", player,
                                   tuple(number_label(player, v) for v in cards),
                                   f"{player_name(player)}'s number cards are {cards}, not one each of "
                                   f"{list(NUMBER_VALUES)}",
                                   rule="all_number_cards"))
    return found


def violations(state: State) -> list[Violation]:
    """Every rule the position breaks as it lies."""
    return one_of_each(state) + all_luxury_cards(state) + all_number_cards(state)
