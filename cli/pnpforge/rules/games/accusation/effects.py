"""What card effects do: accusation, execution, and the verbs of the effect language.

Every function here is a generator that yields a `Decision` whenever a seat or
chance must choose and returns whether the effect was carried out in full,
because general rule 1 ends an effect at the first step that cannot be.
"""

from __future__ import annotations

from collections.abc import Iterable

from pnpforge.rules.engine import RuleViolation
from pnpforge.rules.games.accusation.actions import (
    ACCEPT,
    ACCUSE,
    CHOOSE,
    DECLINE,
    DISCARD,
    NO_ACCUSE,
    Decision,
)
from pnpforge.rules.games.accusation.arithmetic import BoardArithmetic
from pnpforge.rules.games.accusation.board import Attempt, Play
from pnpforge.rules.games.accusation.language import GUARD_AT_MOST_PATTERN, TARGET_VERBS, TYPED_VERBS, Step


class EffectResolver(BoardArithmetic):
    """Accusations and the effect steps, on top of the board."""

    # ---- accusation and execution ------------------------------------------------------------

    def execute(self, seat: int, source: int, steps: Iterable[Step], kind: str) -> Attempt:
        """An executed effect: enemies may accuse it (災厄), otherwise it triggers."""
        accused = yield from self.accusation(seat, source, self.card(source).calamity)
        if accused:
            if kind == "chant":
                yield from self._after_chant_accused(seat)
            return False
        yield from self.resolve(seat, source, tuple(steps))
        return True

    def accusation(self, seat: int, source: int, calamity: int | None) -> Attempt:
        """Ask each enemy clockwise; the first accuser cancels the effect."""
        if calamity is None:
            return False
        for enemy in self.enemies(seat):
            candidates = self.accusers(enemy, calamity)
            if not candidates:
                continue
            options = [(ACCUSE, f) for f in candidates] + [(NO_ACCUSE,)]
            choice = yield Decision(enemy, "accuse", options, {"source": source, "calamity": calamity})
            if choice[0] == NO_ACCUSE:
                continue
            accuser = choice[1]
            self.used(enemy, self.card(accuser).id, f"revealed {self.label(accuser)} to accuse")
            self.outcome(
                enemy,
                f"accused {self.label(source)} (災厄 {calamity}) with {self.label(accuser)}: cancelled",
                self.card(source).id,
            )
            self.move(accuser, enemy, "stack")  # 1. revealed; the effect is cancelled
            steps = self.card(accuser).steps("on_accuse")  # 2. its 控訴時 effect (cannot be accused)
            if steps:
                yield from self.resolve(enemy, accuser, steps)
            self.move(accuser, enemy, "field")  # 3. onto the accuser's field, guilty
            self.make_guilty(accuser)
            return True
        return False

    def _after_chant_accused(self, seat: int) -> Play:
        """「後」 triggers of your cards, e.g. a location that reacts to an accused 詠頌."""
        for card in list(self.field(seat)):
            steps = self.card(card).steps("after_chant_accused")
            if steps and card not in self.guilty:
                yield from self.resolve(seat, card, steps)

    def resolve(self, seat: int, source: int, steps: tuple[Step, ...]) -> Attempt:
        """Resolve steps in order; the first one not carried out in full ends the effect."""
        have = self.symbols(seat)
        repeats = [have[s.per[0]] // s.per[1] if s.per else 1 for s in steps]  # fixed at trigger
        done = True
        for step, count in zip(steps, repeats, strict=True):
            if step.if_done and not done:
                continue
            if step.condition and self.symbols(seat)[step.condition[0]] < step.condition[1]:
                continue
            for _ in range(count):
                if step.may:
                    if not self._possible(seat, step):
                        done = False
                        break
                    options = [(ACCEPT,), (DECLINE,)]
                    choice = yield Decision(seat, "may", options, {"step": step, "source": source})
                    if choice[0] == DECLINE:
                        done = False
                        break
                carried_out = yield from self._verb(seat, source, step)
                if not carried_out:
                    return False
                done = True
        return True

    def _possible(self, seat: int, step: Step) -> bool:
        """Whether an optional step could be carried out at all (else it is not offered)."""
        verb = step.verb
        if verb == "draw":
            return bool(self.pile(seat, "deck"))
        if verb in ("discard", "sacrifice"):
            return bool(self.pile(seat, "hand")) and (verb == "discard" or bool(self.field(seat, "ritual")))
        if verb in TYPED_VERBS:
            pile = "deck" if verb == "search" else "discard"
            return bool(self.of_kind(self.pile(seat, pile), step.kind))
        if verb in TARGET_VERBS:
            return bool(self._targets(seat, step))
        if verb == "absolve":
            return any(f in self.guilty for f in self.field(seat, "follower"))
        return True

    def destroy(self, card: int) -> Play:
        """Field -> owner's discard; attached followers stay on the field; 'on_destroyed' fires."""
        owner = self.owner(card)
        self.move(card, owner, "discard")
        self.outcome(owner, f"{self.label(card)} destroyed", self.card(card).id)
        steps = self.card(card).steps("on_destroyed")
        if steps:
            yield from self.resolve(owner, card, steps)

    # ---- verbs ----------------------------------------------------------------------------------

    def _verb(self, seat: int, source: int, step: Step) -> Attempt:
        verb = step.verb
        if verb == "draw":
            for _ in range(step.count):
                if not (yield from self.draw(seat)):
                    return False
            return True
        if verb == "discard":
            return (yield from self.discard(seat, step.count, "effect"))
        if verb in ("each_discard", "enemy_discard"):
            seats = self.clockwise(self.turn_seat) if verb == "each_discard" else self.enemies(seat)
            results = []
            for other in seats:
                results.append((yield from self.discard(other, step.count, "effect")))
            return any(results)
        if verb in TYPED_VERBS:
            return (yield from self._fetch(seat, step))
        if verb in TARGET_VERBS:
            return (yield from self._target(seat, step))
        if verb == "each_destroy_own_follower":
            return (yield from self._each_destroy_own_follower(verb))
        if verb == "absolve":
            return (yield from self._absolve(seat, step))
        if verb == "sacrifice":
            return (yield from self._sacrifice(seat, step.count))
        if verb == "rechant":
            return (yield from self._rechant(seat, verb))
        raise RuleViolation(f"verb '{verb}' has no implementation")  # parse_effect admits no others

    def _each_destroy_own_follower(self, verb: str) -> Attempt:
        """Each seat from the turn seat on destroys one of its own followers, if it has one."""
        results = []
        for seat in self.clockwise(self.turn_seat):
            own = self.field(seat, "follower")
            if not own:
                results.append(False)
                continue
            choice = yield Decision(seat, "choose", [(CHOOSE, f) for f in own], {"verb": verb})
            yield from self.destroy(choice[1])
            results.append(True)
        return any(results)

    def _rechant(self, seat: int, verb: str) -> Attempt:
        """Execute the 詠頌 of one of your innocent followers again (it can be accused again)."""
        candidates = [f for f in self.innocent_followers(seat) if self.card(f).steps("chant")]
        if not candidates:
            return False
        choice = yield Decision(seat, "choose", [(CHOOSE, f) for f in candidates], {"verb": verb})
        yield from self.execute(seat, choice[1], self.card(choice[1]).steps("chant") or (), "chant")
        return True

    def _fetch(self, seat: int, step: Step) -> Attempt:
        """search (deck→hand, revealed; the deck is reshuffled), recover (discard→hand),
        revive (discard→field)."""
        pile = "deck" if step.verb == "search" else "discard"
        candidates = self.of_kind(self.pile(seat, pile), step.kind)
        if not candidates:
            return False
        choice = yield Decision(seat, "choose", [(CHOOSE, c) for c in candidates], {"verb": step.verb})
        self.move(choice[1], seat, "field" if step.verb == "revive" else "hand")
        return True

    def _targets(self, seat: int, step: Step) -> list[int]:
        kind = "location" if step.verb == "destroy_location" else "follower"
        seats: Iterable[int] = range(self.players)
        if "own" in step.filters:
            seats = [seat]
        elif "enemy" in step.filters:
            seats = self.enemies(seat)
        return [card for other in seats for card in self.field(other, kind) if self._matches(card, step)]

    def _matches(self, card: int, step: Step) -> bool:
        definition = self.card(card)
        for flt in step.filters:
            if flt == "guilty" and card not in self.guilty:
                return False
            if flt == "innocent" and card in self.guilty:
                return False
            if flt == "chant" and not definition.steps("chant"):
                return False
            if flt.startswith("not:") and definition.location_type == flt[4:]:
                return False
            if flt.startswith("is:") and definition.location_type != flt[3:]:
                return False
            if (match := GUARD_AT_MOST_PATTERN.match(flt)) and self.guard(card) > int(match.group(1)):
                return False
        return not (step.verb == "make_guilty" and card in self.guilty)

    def _target(self, seat: int, step: Step) -> Attempt:
        candidates = self._targets(seat, step)
        if not candidates:
            return False
        choice = yield Decision(seat, "choose", [(CHOOSE, c) for c in candidates], {"verb": step.verb})
        card = choice[1]
        if step.verb in ("destroy_follower", "destroy_location"):
            yield from self.destroy(card)
        elif step.verb == "make_guilty":
            self.make_guilty(card)
            self.outcome(self.owner(card), f"{self.label(card)} made guilty", self.card(card).id)
        elif step.verb == "bounce":
            owner = self.owner(card)
            self.move(card, owner, "hand")
            self.outcome(owner, f"{self.label(card)} returned to its owner's hand", self.card(card).id)
        return True

    def _absolve(self, seat: int, step: Step) -> Attempt:
        """解除罪惡 n followers ("upto": at most n, may stop); they do not resume 駐守/解構."""
        for _ in range(step.count):
            candidates = [f for f in self.field(seat, "follower") if f in self.guilty]
            if not candidates:
                return step.upto
            options = [(CHOOSE, f) for f in candidates] + ([(DECLINE,)] if step.upto else [])
            choice = yield Decision(seat, "choose", options, {"verb": "absolve"})
            if choice[0] == DECLINE:
                return True
            self.absolve(choice[1])
        return True

    def _sacrifice(self, seat: int, count: int) -> Attempt:
        """獻祭: cards from hand go face down under one of your rituals (none: impossible)."""
        rituals = self.field(seat, "ritual")
        if not rituals:
            return False
        choice = yield Decision(seat, "choose", [(CHOOSE, r) for r in rituals], {"verb": "sacrifice"})
        ritual = choice[1]
        for _ in range(count):
            hand = self.pile(seat, "hand")
            if not hand:
                return False
            offered = yield Decision(seat, "discard", [(DISCARD, c) for c in hand], {"why": "sacrifice"})
            self.move(offered[1], seat, "under")
            self.attach("sacrificed", offered[1], ritual)
        return True
