"""The turn sequence of Accusation: set-up, mulligan, action phase, raids, end of turn.

The whole game is one generator (`game`) that yields a `Decision` whenever a
seat or chance must choose; the state sends the chosen action back in.  A
side's win ends the generator through `GameOver`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.rules.engine import CHANCE, RuleViolation
from pnpforge.rules.games.accusation import arithmetic, board, effects
from pnpforge.rules.games.accusation.actions import (
    ABILITY,
    ASIDE,
    DECLINE,
    DECONSTRUCT,
    END,
    END_DRAW,
    FIRST,
    GARRISON,
    HAND_LIMIT,
    KEEP,
    LOC_ACTION,
    OPENING_DRAW,
    PLAY,
    RAID,
    RAID_WITH,
    REBUILD,
    REBUILD_COST,
    RITUAL,
    TURN_ACTIONS,
    AccusationAction,
    Decision,
    GameOver,
)
from pnpforge.rules.games.accusation.board import Play

if TYPE_CHECKING:
    from pnpforge.rules.games.accusation.state import AccusationState


# rulebook 004:57 「雙方玩家將自己的教主放置在陰謀區」
def game(st: AccusationState) -> Play:
    """The whole game from the first-player draw to a side's win."""
    try:
        choice = yield Decision(CHANCE, "first", [(FIRST, seat) for seat in range(st.players)])
        st.first_seat = choice[1]
        order = board.clockwise(st, st.first_seat)
        for seat in order:
            for _ in range(OPENING_DRAW):
                yield from board.draw(st, seat)
        for seat in order:
            yield from _mulligan(st, seat)
        seat = st.first_seat
        while True:
            st.turn_number += 1
            yield from _turn(st, seat, 1 if st.turn_number == 1 else TURN_ACTIONS)
            seat = (seat + 1) % st.players
    except GameOver as over:
        st.winning_seats = sorted(over.winners)
        st.end_text = over.reason
        st.end(over.description)


# rulebook 004:59 「調度時可以將任意數量手牌公開放在桌上，從牌庫抽牌至6張，然後將公開的牌洗回牌庫。」
def _mulligan(st: AccusationState, seat: int) -> Play:
    """Set any cards aside face up, refill to 6, then shuffle the set-aside cards back."""
    while True:
        options = [(ASIDE, c) for c in board.pile(st, seat, "hand")] + [(KEEP,)]
        choice = yield Decision(seat, "mulligan", options)
        if choice[0] == KEEP:
            break
        board.move(st, choice[1], seat, "aside")
    if not board.pile(st, seat, "aside"):
        return
    while board.count(st, seat, "hand") < HAND_LIMIT:
        if not (yield from board.draw(st, seat)):
            break
    for card in list(board.pile(st, seat, "aside")):
        board.move(st, card, seat, "deck")


# rulebook 004:65 「每個回合有2個行動可以執行，先手玩家第一回合只有1個行動」
def _turn(st: AccusationState, seat: int, actions: int) -> Play:
    st.turn_seat = seat
    st.actions_left = actions
    st.abilities_used = set()
    cult = st.rules.seat_cults[seat]
    st.round(f"turn {st.turn_number}: seat {seat} ({cult}) has {actions} action(s)")
    while True:
        options = main_options(st, seat)
        if options == [(END,)]:
            break
        choice = yield Decision(seat, "main", options)
        if choice[0] == END:
            break
        yield from _main_action(st, seat, choice)
    yield from _end_of_turn(st, seat)


# rulebook 004:87 「玩家可以消耗2個回合行動，將棄牌區的1個儀式放置到場上。」
# rulebook 004:244 「雙方玩家必須有其中一方完成1個儀式，才可以在回合中打出教主。」
def main_options(st: AccusationState, seat: int) -> list[AccusationAction]:
    """Every main-phase action open to `seat` now (END is always there), sorted: built in the
    order of the action codes, each kind's cards sorted as ints (cheaper than sorting tuples)."""
    used, has_ability = st.abilities_used, st.rules.has_ability
    abilities = [
        (ABILITY, card)
        for card in sorted(board.field(st, seat, "leader"))
        if has_ability[card] and card not in used
    ]
    if st.actions_left <= 0:
        return [(END,), *abilities]
    kind_of, piles = st.rules.kind_of, st._lists[seat]
    playable = piles["hand"] + piles["conspiracy"]
    if not arithmetic.any_ritual_completed(st):
        playable = [card for card in playable if kind_of[card] != "leader"]
    options: list[AccusationAction] = [(END,)]
    options += [(PLAY, card) for card in sorted(playable)]
    targets = [
        location for enemy in st.rules.enemies[seat] for location in board.field(st, enemy, "location")
    ]
    if targets:
        available = arithmetic.raid_strength(st, seat)
        guard = arithmetic.guard_by_location(st)  # every location's guard, summed once
        options += [(RAID, location) for location in sorted(targets) if available >= guard[location]]
    has_action = st.rules.has_action
    options += [
        (LOC_ACTION, location)
        for location in sorted(board.field(st, seat, "location"))
        if has_action[location]
    ]
    if st.actions_left >= REBUILD_COST:
        options += [(REBUILD, card) for card in sorted(piles["discard"]) if kind_of[card] == "ritual"]
    options += abilities
    return options


def _main_action(st: AccusationState, seat: int, choice: AccusationAction) -> Play:
    code, card = choice[0], choice[1]
    if code == ABILITY:
        st.abilities_used.add(card)
        st.outcome(seat, f"used the free ability of leader {board.label(st, card)}", board.card(st, card).id)
        yield from effects.resolve(st, seat, card, board.card(st, card).steps("ability") or ())
    elif code == PLAY:
        st.actions_left -= 1
        # magic is used when its effect resolves, a ritual when it is executed: not when played
        if board.card(st, card).type not in ("magic", "ritual"):
            st.used(seat, board.card(st, card).id, f"played {board.label(st, card)}")
        yield from _play(st, seat, card)
    elif code == RAID:
        st.actions_left -= 1
        yield from _raid(st, seat, card)
    elif code == LOC_ACTION:
        st.actions_left -= 1
        yield from effects.execute(st, seat, card, board.card(st, card).steps("action") or (), "action")
    elif code == REBUILD:
        st.actions_left -= REBUILD_COST
        board.move(st, card, seat, "field")
        st.outcome(
            seat, f"rebuilt ritual {board.label(st, card)} from the discard pile", board.card(st, card).id
        )


# rulebook 004:69 「打出的信徒、地點、儀式、教主會被放置到場上，若你打出的信徒有詠頌效果，會立刻執行。」
def _play(st: AccusationState, seat: int, card: int) -> Play:
    kind = board.card(st, card).type
    if kind == "magic":
        yield from _play_magic(st, seat, card)
        return
    board.move(st, card, seat, "field")
    if kind == "follower":
        yield from _follower_enters(st, seat, card)


# rulebook 004:378 「可將該駐守信徒放置到你場上的1個地點下方，該地點守護增加X。」
# rulebook 004:386 「可以將該信徒放置到1個你場上的儀式下方，該儀式會減少X個符號需求。」
def _follower_enters(st: AccusationState, seat: int, follower: int) -> Play:
    """Played with a turn action: may activate 駐守/解構, then 詠頌 executes."""
    definition = board.card(st, follower)
    if definition.garrison and board.field(st, seat, "location"):
        options = [(GARRISON, loc) for loc in board.field(st, seat, "location")] + [(DECLINE,)]
        choice = yield Decision(seat, "garrison", options, {"card": follower})
        if choice[0] == GARRISON:
            board.attach(st, "garrisoning", follower, choice[1])
            steps = definition.steps("on_garrison")
            if steps:
                yield from effects.execute(st, seat, follower, steps, "garrison")
    if definition.deconstruct and board.field(st, seat, "ritual") and _innocent_on_field(st, seat, follower):
        options = [(DECONSTRUCT, r) for r in board.field(st, seat, "ritual")] + [(DECLINE,)]
        choice = yield Decision(seat, "deconstruct", options, {"card": follower})
        if choice[0] == DECONSTRUCT:
            board.attach(st, "deconstructing", follower, choice[1])
            steps = definition.steps("on_deconstruct")
            if steps:
                yield from effects.execute(st, seat, follower, steps, "deconstruct")
    chant = definition.steps("chant")
    if chant and _innocent_on_field(st, seat, follower):
        yield from effects.execute(st, seat, follower, chant, "chant")


def _innocent_on_field(st: AccusationState, seat: int, follower: int) -> bool:
    """Still there and not guilty: an accusation of an earlier part may have changed that."""
    return follower in board.pile(st, seat, "field") and follower not in st.guilty


# rulebook 004:221 「被控訴的魔法不會有任何效果，包括星塵效果。無論是否被控訴，將打出的魔法置入棄牌區。」
# rulebook 004:233 「星塵條件會在打出魔法當下檢查是否滿足」
def _play_magic(st: AccusationState, seat: int, card: int) -> Play:
    """Stardust is checked as the card is played; accused magic has no effect at all."""
    definition = board.card(st, card)
    board.move(st, card, seat, "stack")
    boosted = (
        definition.stardust is not None
        and definition.effect.has_stardust()
        and arithmetic.stardust(st, seat) >= definition.stardust
    )
    calamity = definition.calamity
    if boosted and calamity is not None:
        calamity += definition.effect.stardust_calamity
    steps = definition.steps("play") or ()
    changed = definition.steps("stardust_change")
    if boosted and changed is not None:
        steps = changed
    accused = yield from effects.accusation(st, seat, card, calamity)
    if not accused:
        st.used(seat, definition.id, f"played {board.label(st, card)}: its effect resolves")
        carried_out = yield from effects.resolve(st, seat, card, steps)
        extra = definition.steps("stardust_extra")
        if carried_out and boosted and extra:
            yield from effects.resolve(st, seat, card, extra)
    board.move(st, card, board.owner(st, card), "discard")


# rulebook 004:75 「將自己場上聲量總和大於等於該地點守護值(咖啡色方形數字)的非罪惡狀態信徒變為罪惡狀態」
def _raid(st: AccusationState, seat: int, location: int) -> Play:
    """Commit followers one by one until their volume reaches the guard; all turn guilty."""
    need = arithmetic.guard(st, location)
    total = arithmetic.raid_bonus_all(st, seat)
    chosen: list[int] = []
    while total < need:
        options = [(RAID_WITH, f) for f in arithmetic.raiders(st, seat) if f not in chosen]
        choice = yield Decision(seat, "raid", options, {"location": location, "need": need - total})
        chosen.append(choice[1])
        total += arithmetic.raid_value(st, choice[1])
    for follower in chosen:
        board.make_guilty(st, follower)
    raiders = ", ".join(board.label(st, f) for f in chosen) or "location bonuses alone"
    st.outcome(seat, f"raided {board.label(st, location)} (guard {need}) with {raiders}; they turn guilty")
    yield from effects.destroy(st, location)


# rulebook 004:98 「若你手牌超過6張，棄置多餘手牌。」
# rulebook 004:99 「抽2張牌」
def _end_of_turn(st: AccusationState, seat: int) -> Play:
    yield from _ritual_step(st, seat)
    while board.count(st, seat, "hand") > HAND_LIMIT:
        yield from board.discard(st, seat, 1, "hand limit")
    if board.count(st, seat, "hand") > HAND_LIMIT:
        raise RuleViolation("hand limit not enforced")
    for _ in range(END_DRAW):
        yield from board.draw(st, seat)


# rulebook 004:97 「若此時你牌庫已經沒牌，則你必須執行儀式(被控訴則遊戲繼續)，否則你輸掉這場遊戲。」
def _ritual_step(st: AccusationState, seat: int) -> Play:
    """May execute one ritual; with an empty deck must, or lose (accused: play goes on)."""
    executable = arithmetic.executable_rituals(st, seat)
    deck_empty = not board.pile(st, seat, "deck")
    if not executable:
        if deck_empty and not (st.players == 4 and board.count(st, seat, "score") >= 3):
            losers = board.team_seats(st, board.team(st, seat))
            raise GameOver(
                [s for s in range(st.players) if s not in losers],
                "deck out",
                f"seat {seat} ends its turn with an empty deck and no ritual it can execute: "
                f"seats {', '.join(map(str, losers))} lose",
            )
        return
    options = [(RITUAL, r) for r in executable] + ([] if deck_empty else [(DECLINE,)])
    choice = yield Decision(seat, "ritual", options)
    if choice[0] == DECLINE:
        return
    ritual = choice[1]
    if (yield from effects.accusation(st, seat, ritual, board.card(st, ritual).calamity)):
        return
    board.move(st, ritual, seat, "score")
    ritual_id = board.card(st, ritual).id
    st.used(seat, ritual_id, f"executed ritual {board.label(st, ritual)}")
    st.score(seat, 1, f"completed ritual {board.label(st, ritual)}", ritual_id)
    team = board.team(st, seat)
    if board.team_rituals(st, team) >= board.rituals_to_win(st):
        seats = board.team_seats(st, team)
        raise GameOver(
            seats,
            "rituals",
            f"seats {', '.join(map(str, seats))} completed {board.team_rituals(st, team)} rituals and win",
        )
