"""Setting up, the legal moves and applying them.

Each rule is a short named function whose docstring quotes the rulebook.
"""

from __future__ import annotations

import random

from ..common import ANYONE, CHANCE, player_name, players_problem
from ..errors import IllegalMove, InvalidInput
from .catalogue import COLUMNS, NUMBER_VALUES, SLOTS, card_sort_key, deck, number_label
from .distribution import cancel_ties, column_sums, hand_out, must_trade_in, turn_over_bottom
from .options import SHORT_CLOSED, check_options, rounds_for
from .state import (COLLECT, DEAL, DISTRIBUTE, MAX_PLAYERS, MIN_PLAYERS, OVER, PLACE, Collect, Deal, Move, Place,
                    Resolve, State, evolve)

GRID_CARDS = COLUMNS * SLOTS


def new_game(players: int, options: dict | None = None, seed: int | None = None) -> State:
    """A new game.  Without ``seed`` the grid is laid out by chance moves (``Deal``); with a seed
    the shuffle is drawn from ``random.Random(seed)`` and the game starts with the placing.

    'Each player takes the 6 number cards of one colour.'
    """
    problem = players_problem("Dolce Vita", players, MIN_PLAYERS, MAX_PLAYERS)
    if problem:
        raise InvalidInput(problem)
    opts = check_options(options)
    state = State(
        players=players, options=opts, phase=DEAL, round=1, to_move=CHANCE, next_column=0,
        columns=((),) * COLUMNS, box=deck(dict(opts)["money_low_cards"]),
        hands=(NUMBER_VALUES,) * players, under=((),) * COLUMNS,
        goods=((),) * players, money=((),) * players,
    )
    if seed is not None:
        rng = random.Random(seed)
        while state.phase == DEAL:
            state = apply(state, sample_chance(state, rng))
    return state


def next_slot(state: State) -> tuple[int, int]:
    """'The luxury cards are shuffled and laid out face up in a grid of 7 rows of 9 cards each.'

    The slot the next dealt card fills: column by column, each from the bottom slot up.
    """
    dealt = sum(len(c) for c in state.columns)
    return dealt // SLOTS, dealt % SLOTS


def rounds(state: State) -> int:
    """'Play is over after a predetermined number of rounds.'"""
    return rounds_for(state.players, state.opts)


def start_player(state: State, round_number: int) -> int:
    """'The youngest player begins. [...] the second round can now begin with the start player
    shifting clockwise.'  Player 0 is the youngest; clockwise is increasing index."""
    return (round_number - 1) % state.players


def next_placer(hands: tuple[tuple[int, ...], ...], after: int) -> int | None:
    """'Players, in turn, put one of their number cards under any row of luxuries. Then the next
    player follows clockwise [...] until everyone has only one card left.'

    The next player clockwise after ``after`` who holds more than one card, or None.
    """
    n = len(hands)
    for step in range(1, n + 1):
        player = (after + step) % n
        if len(hands[player]) > 1:
            return player
    return None


def column_is_open(state: State, column: int) -> bool:
    """A column without cards is closed to number cards under option short_column = 'closed'
    (a column that runs out of cards is not covered by the rulebook)."""
    return state.opts["short_column"] != SHORT_CLOSED or bool(state.columns[column])


#: Every placement, resolve and collect move, made once (moves are immutable): [player][value] -> moves.
_PLACES = [{v: tuple(Place(p, v, c) for c in range(COLUMNS)) for v in NUMBER_VALUES} for p in range(MAX_PLAYERS)]
_RESOLVES = tuple(Resolve(c) for c in range(COLUMNS))
_COLLECT = Collect()


def legal_moves(state: State) -> list[Move]:
    """Every move the rules allow now; for a chance node, one ``Deal`` per distinct card left."""
    if state.phase == DEAL:
        return [Deal(card) for card in sorted(set(state.box), key=card_sort_key)]
    if state.phase == PLACE:
        p = state.to_move
        if state.opts["short_column"] != SHORT_CLOSED:
            return [move for v in state.hands[p] for move in _PLACES[p][v]]
        return [Place(p, v, c) for v in state.hands[p] for c in range(COLUMNS) if column_is_open(state, c)]
    if state.phase == DISTRIBUTE:
        return [_RESOLVES[state.next_column]]
    if state.phase == COLLECT:
        return [_COLLECT]
    return []


def sample_chance(state: State, rng: random.Random) -> Deal:
    """Draw the next card of the shuffled deck (each physical card equally likely)."""
    if state.phase != DEAL:
        raise IllegalMove("dolcevita.wrong_phase", CHANCE, (), "no chance event is due: the grid is laid out")
    return Deal(rng.choice(state.box))


def apply(state: State, move: Move) -> State:
    """The state after ``move``; IllegalMove when the rules forbid it.  Never changes ``state``."""
    if not isinstance(move, (Deal, Place, Resolve, Collect)):
        raise InvalidInput(f"not a Dolce Vita move: {move!r}")
    if state.phase == OVER:
        raise IllegalMove("dolcevita.game_over", move.player, (), "the game is over: no more moves")
    if isinstance(move, Deal):
        return _deal(state, move)
    if isinstance(move, Place):
        return _place(state, move)
    if isinstance(move, Resolve):
        return _resolve(state, move)
    return _collect(state, move)


def _wrong_phase(state: State, move: Move) -> IllegalMove:
    return IllegalMove("dolcevita.wrong_phase", move.player, (f"phase:{state.phase}",),
                       f"a {type(move).__name__.lower()} move does not fit now: the game is in its "
                       f"{state.phase} phase")


def _deal(state: State, move: Deal) -> State:
    """'The luxury cards are shuffled and laid out face up in a grid of 7 rows of 9 cards each.
    3 cards remain, which are placed back in the box.'"""
    if state.phase != DEAL:
        raise _wrong_phase(state, move)
    if move.card not in state.box:
        raise IllegalMove("dolcevita.not_in_box", CHANCE, (f"card:{move.card}",),
                          f"{move.card} is not among the cards still to lay out")
    column, _ = next_slot(state)
    box = list(state.box)
    box.remove(move.card)
    columns = state.columns[:column] + (state.columns[column] + (move.card,),) + state.columns[column + 1:]
    done = sum(len(c) for c in columns) == GRID_CARDS  # the BOX cards left go back in the box
    return evolve(state, columns=columns, box=tuple(box), phase=PLACE if done else DEAL,
                   to_move=start_player(state, 1) if done else CHANCE)


def _place(state: State, move: Place) -> State:
    """'Players, in turn, put one of their number cards under any row of luxuries.'"""
    p = move.player
    if state.phase in (DISTRIBUTE, COLLECT):
        raise IllegalMove("dolcevita.placing_over", p, (number_label(p, move.value),),
                          "placing has ended: every player has only one number card left")
    if state.phase != PLACE:
        raise _wrong_phase(state, move)
    if p >= state.players:
        raise InvalidInput(f"place: player index {p} does not exist in a {state.players}-player game "
                           f"(indices 0..{state.players - 1})")
    piece = number_label(p, move.value)
    if p != state.to_move:
        raise IllegalMove("dolcevita.not_your_turn", p, (piece,),
                          f"it is {player_name(state.to_move)}'s turn to place a number card, not {player_name(p)}'s")
    if move.value not in state.hands[p]:
        raise IllegalMove("dolcevita.not_in_hand", p, (piece,),
                          f"{player_name(p)} does not hold the number card {move.value}")
    if not column_is_open(state, move.column):
        raise IllegalMove("dolcevita.column_closed", p, (piece, f"column:{move.column}"),
                          f"column {move.column} has no cards left, so no number card may go under it")
    return place_card(state, p, move.value, move.column)


def place_card(state: State, player: int, value: int, column: int) -> State:
    """Move one number card from ``player``'s hand under ``column`` and pass the turn on:
    'When all players have only one card remaining, the placing of cards ends and the
    distribution of the luxury cards occurs.'"""
    hand = list(state.hands[player])
    hand.remove(value)
    hands = state.hands[:player] + (tuple(hand),) + state.hands[player + 1:]
    under = state.under[:column] + (tuple(sorted(state.under[column] + ((player, value),))),) + state.under[column + 1:]
    mover = state.to_move
    if mover < 0 or mover == player:
        following = next_placer(hands, player)
    else:  # a card placed out of turn (the referee continues from it): the turn stays
        following = mover if len(hands[mover]) > 1 else next_placer(hands, mover)
    if following is None:
        return evolve(state, hands=hands, under=under, phase=DISTRIBUTE, to_move=ANYONE, next_column=0)
    return evolve(state, hands=hands, under=under, to_move=following)


def _resolve(state: State, move: Resolve) -> State:
    """'Row after row, from left to right, is now handled in the same manner.'"""
    if state.phase == PLACE:
        raise IllegalMove("dolcevita.still_placing", ANYONE, (f"column:{move.column}",),
                          "the cards are handed out only when every player has one number card left")
    if state.phase != DISTRIBUTE:
        raise _wrong_phase(state, move)
    if move.column != state.next_column:
        raise IllegalMove("dolcevita.wrong_column", ANYONE, (f"column:{move.column}",),
                          f"the columns are handed out from left to right: column {state.next_column} is next, "
                          f"not column {move.column}")
    return distribute_column(state, move.column)


def distribute_column(state: State, c: int) -> State:
    """Hand out column ``c``: totals, ties cancelled, cards from the bottom up, trade-ins; a
    column without number cards turns its bottom card over to the top."""
    opts = state.opts
    column = list(state.columns[c])
    under = state.under[c]
    hands = state.hands
    goods, money = state.goods, state.money
    if not under:
        turn_over_bottom(column)
    else:
        ranked, tied = cancel_ties(column_sums(under))
        if tied:
            back = [list(h) for h in hands]
            for player, value in under:
                if player in tied:
                    back[player].append(value)
            hands = tuple(tuple(sorted(h)) for h in back)
            under = tuple(card for card in under if card[0] not in tied)
        if ranked:
            goods_l = [list(g) for g in goods]
            money_l = [list(m) for m in money]
            hand_out(column, ranked, goods_l, money_l, must_trade_in(state.round, opts["one_of_each_in_round_one"]),
                     opts["trade_in"])
            goods = tuple(tuple(sorted(g, key=card_sort_key)) for g in goods_l)
            money = tuple(tuple(m) for m in money_l)
        elif opts["all_tie_turns_column"]:
            turn_over_bottom(column)
    columns = state.columns[:c] + (tuple(column),) + state.columns[c + 1:]
    unders = state.under[:c] + (under,) + state.under[c + 1:]
    state = evolve(state, columns=columns, under=unders, hands=hands, goods=goods, money=money,
                    next_column=c + 1)
    if c + 1 < COLUMNS:
        return state
    return end_of_round(state)


def end_of_round(state: State) -> State:
    """'End of the Game: After the stated number of rounds the players add up all of their luxury
    goods as well as their money.'  Otherwise the number cards are collected next."""
    if state.round >= rounds(state):
        return evolve(state, phase=OVER, to_move=ANYONE)
    return evolve(state, phase=COLLECT, to_move=ANYONE)


def _collect(state: State, move: Collect) -> State:
    """'When all rows have been sorted each player takes all of their number cards back into their
    hands and the second round can now begin with the start player shifting clockwise.'"""
    if state.phase == DISTRIBUTE:
        raise IllegalMove("dolcevita.not_sorted", ANYONE, (f"column:{state.next_column}",),
                          f"the number cards are taken back only when all rows are sorted; column "
                          f"{state.next_column} is still to hand out")
    if state.phase != COLLECT:
        raise _wrong_phase(state, move)
    round_number = state.round + 1
    return evolve(state, phase=PLACE, round=round_number, to_move=start_player(state, round_number),
                   next_column=0, hands=(NUMBER_VALUES,) * state.players, under=((),) * COLUMNS)
