"""The turn sequence of Accusation: set-up, mulligan, action phase, raids, end of turn.

The whole game is one generator (`game`) that yields a `Decision` whenever a
seat or chance must choose; the state sends the chosen action back in.  A
side's win ends the generator through `GameOver`.
"""

from __future__ import annotations

from pnpforge.rules.engine import CHANCE, RuleViolation
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
from pnpforge.rules.games.accusation.effects import EffectResolver


class TurnFlow(EffectResolver):
    """Set-up and turns; effects and the board come from the base classes."""

    first_seat: int
    turn_number: int
    winning_seats: list[int] | None
    end_text: str

    def game(self) -> Play:
        """The whole game from the first-player draw to a side's win."""
        try:
            choice = yield Decision(CHANCE, "first", [(FIRST, seat) for seat in range(self.players)])
            self.first_seat = choice[1]
            order = self.clockwise(self.first_seat)
            for seat in order:
                for _ in range(OPENING_DRAW):
                    yield from self.draw(seat)
            for seat in order:
                yield from self._mulligan(seat)
            seat = self.first_seat
            while True:
                self.turn_number += 1
                yield from self._turn(seat, 1 if self.turn_number == 1 else TURN_ACTIONS)
                seat = (seat + 1) % self.players
        except GameOver as over:
            self.winning_seats = sorted(over.winners)
            self.end_text = over.reason
            self.end(over.description)

    def _mulligan(self, seat: int) -> Play:
        """Set any cards aside face up, refill to 6, then shuffle the set-aside cards back."""
        while True:
            options = [(ASIDE, c) for c in self.pile(seat, "hand")] + [(KEEP,)]
            choice = yield Decision(seat, "mulligan", options)
            if choice[0] == KEEP:
                break
            self.move(choice[1], seat, "aside")
        if not self.pile(seat, "aside"):
            return
        while self.count(seat, "hand") < HAND_LIMIT:
            if not (yield from self.draw(seat)):
                break
        for card in list(self.pile(seat, "aside")):
            self.move(card, seat, "deck")

    def _turn(self, seat: int, actions: int) -> Play:
        self.turn_seat = seat
        self.actions_left = actions
        self.abilities_used = set()
        cult = self.rules.seat_cults[seat]
        self.round(f"turn {self.turn_number}: seat {seat} ({cult}) has {actions} action(s)")
        while True:
            options = self.main_options(seat)
            if options == [(END,)]:
                break
            choice = yield Decision(seat, "main", options)
            if choice[0] == END:
                break
            yield from self._main_action(seat, choice)
        yield from self._end_of_turn(seat)

    def main_options(self, seat: int) -> list[AccusationAction]:
        """Every main-phase action open to `seat` now (END is always there), sorted: built in the
        order of the action codes, each kind's cards sorted as ints (cheaper than sorting tuples)."""
        used, has_ability = self.abilities_used, self.has_ability
        abilities = [
            (ABILITY, card)
            for card in sorted(self.field(seat, "leader"))
            if has_ability[card] and card not in used
        ]
        if self.actions_left <= 0:
            return [(END,), *abilities]
        kind_of, piles = self.kind_of, self._lists[seat]
        playable = piles["hand"] + piles["conspiracy"]
        if not self.any_ritual_completed():
            playable = [card for card in playable if kind_of[card] != "leader"]
        options: list[AccusationAction] = [(END,)]
        options += [(PLAY, card) for card in sorted(playable)]
        targets = [location for enemy in self._enemies[seat] for location in self.field(enemy, "location")]
        if targets:
            available = self.raid_strength(seat)
            guard = self.guard_by_location()  # every location's guard, summed once
            options += [(RAID, location) for location in sorted(targets) if available >= guard[location]]
        has_action = self.has_action
        options += [
            (LOC_ACTION, location)
            for location in sorted(self.field(seat, "location"))
            if has_action[location]
        ]
        if self.actions_left >= REBUILD_COST:
            options += [(REBUILD, card) for card in sorted(piles["discard"]) if kind_of[card] == "ritual"]
        options += abilities
        return options

    def _main_action(self, seat: int, choice: AccusationAction) -> Play:
        code, card = choice[0], choice[1]
        if code == ABILITY:
            self.abilities_used.add(card)
            self.outcome(seat, f"used the free ability of leader {self.label(card)}", self.card(card).id)
            yield from self.resolve(seat, card, self.card(card).steps("ability") or ())
        elif code == PLAY:
            self.actions_left -= 1
            # magic is used when its effect resolves, a ritual when it is executed: not when played
            if self.card(card).type not in ("magic", "ritual"):
                self.used(seat, self.card(card).id, f"played {self.label(card)}")
            yield from self._play(seat, card)
        elif code == RAID:
            self.actions_left -= 1
            yield from self._raid(seat, card)
        elif code == LOC_ACTION:
            self.actions_left -= 1
            yield from self.execute(seat, card, self.card(card).steps("action") or (), "action")
        elif code == REBUILD:
            self.actions_left -= REBUILD_COST
            self.move(card, seat, "field")
            self.outcome(seat, f"rebuilt ritual {self.label(card)} from the discard pile", self.card(card).id)

    # ---- playing cards ----------------------------------------------------------------------

    def _play(self, seat: int, card: int) -> Play:
        kind = self.card(card).type
        if kind == "magic":
            yield from self._play_magic(seat, card)
            return
        self.move(card, seat, "field")
        if kind == "follower":
            yield from self._follower_enters(seat, card)

    def _follower_enters(self, seat: int, follower: int) -> Play:
        """Played with a turn action: may activate 駐守/解構, then 詠頌 executes."""
        definition = self.card(follower)
        if definition.garrison and self.field(seat, "location"):
            options = [(GARRISON, loc) for loc in self.field(seat, "location")] + [(DECLINE,)]
            choice = yield Decision(seat, "garrison", options, {"card": follower})
            if choice[0] == GARRISON:
                self.attach("garrisoning", follower, choice[1])
                steps = definition.steps("on_garrison")
                if steps:
                    yield from self.execute(seat, follower, steps, "garrison")
        if definition.deconstruct and self.field(seat, "ritual") and self._innocent_on_field(seat, follower):
            options = [(DECONSTRUCT, r) for r in self.field(seat, "ritual")] + [(DECLINE,)]
            choice = yield Decision(seat, "deconstruct", options, {"card": follower})
            if choice[0] == DECONSTRUCT:
                self.attach("deconstructing", follower, choice[1])
                steps = definition.steps("on_deconstruct")
                if steps:
                    yield from self.execute(seat, follower, steps, "deconstruct")
        chant = definition.steps("chant")
        if chant and self._innocent_on_field(seat, follower):
            yield from self.execute(seat, follower, chant, "chant")

    def _innocent_on_field(self, seat: int, follower: int) -> bool:
        """Still there and not guilty: an accusation of an earlier part may have changed that."""
        return follower in self.pile(seat, "field") and follower not in self.guilty

    def _play_magic(self, seat: int, card: int) -> Play:
        """Stardust is checked as the card is played; accused magic has no effect at all."""
        definition = self.card(card)
        self.move(card, seat, "stack")
        boosted = (
            definition.stardust is not None
            and definition.effect.has_stardust()
            and self.stardust(seat) >= definition.stardust
        )
        calamity = definition.calamity
        if boosted and calamity is not None:
            calamity += definition.effect.stardust_calamity
        steps = definition.steps("play") or ()
        changed = definition.steps("stardust_change")
        if boosted and changed is not None:
            steps = changed
        accused = yield from self.accusation(seat, card, calamity)
        if not accused:
            self.used(seat, definition.id, f"played {self.label(card)}: its effect resolves")
            carried_out = yield from self.resolve(seat, card, steps)
            extra = definition.steps("stardust_extra")
            if carried_out and boosted and extra:
                yield from self.resolve(seat, card, extra)
        self.move(card, self.owner(card), "discard")

    def _raid(self, seat: int, location: int) -> Play:
        """Commit followers one by one until their volume reaches the guard; all turn guilty."""
        need = self.guard(location)
        total = self.raid_bonus_all(seat)
        chosen: list[int] = []
        while total < need:
            options = [(RAID_WITH, f) for f in self.raiders(seat) if f not in chosen]
            choice = yield Decision(seat, "raid", options, {"location": location, "need": need - total})
            chosen.append(choice[1])
            total += self.raid_value(choice[1])
        for follower in chosen:
            self.make_guilty(follower)
        raiders = ", ".join(self.label(f) for f in chosen) or "location bonuses alone"
        self.outcome(seat, f"raided {self.label(location)} (guard {need}) with {raiders}; they turn guilty")
        yield from self.destroy(location)

    # ---- end of turn --------------------------------------------------------------------------

    def _end_of_turn(self, seat: int) -> Play:
        yield from self._ritual_step(seat)
        while self.count(seat, "hand") > HAND_LIMIT:
            yield from self.discard(seat, 1, "hand limit")
        if self.count(seat, "hand") > HAND_LIMIT:
            raise RuleViolation("hand limit not enforced")
        for _ in range(END_DRAW):
            yield from self.draw(seat)

    def _ritual_step(self, seat: int) -> Play:
        """May execute one ritual; with an empty deck must, or lose (accused: play goes on)."""
        executable = self.executable_rituals(seat)
        deck_empty = not self.pile(seat, "deck")
        if not executable:
            if deck_empty and not (self.players == 4 and self.count(seat, "score") >= 3):
                losers = self.team_seats(self.team(seat))
                raise GameOver(
                    [s for s in range(self.players) if s not in losers],
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
        if (yield from self.accusation(seat, ritual, self.card(ritual).calamity)):
            return
        self.move(ritual, seat, "score")
        ritual_id = self.card(ritual).id
        self.used(seat, ritual_id, f"executed ritual {self.label(ritual)}")
        self.score(seat, 1, f"completed ritual {self.label(ritual)}", ritual_id)
        team = self.team(seat)
        if self.team_rituals(team) >= self.rituals_to_win():
            seats = self.team_seats(team)
            raise GameOver(
                seats,
                "rituals",
                f"seats {', '.join(map(str, seats))} completed {self.team_rituals(team)} rituals and win",
            )
