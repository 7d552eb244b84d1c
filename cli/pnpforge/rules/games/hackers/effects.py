"""Attack, repair and the round's end: how damage is placed, removed and scored.

Damage is spread evenly over the holes of the attacked colour (water-filling,
four per hole); the owner places what cannot be spread evenly, the virtual
player's remainders are placed automatically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnpforge.rules.engine import RuleViolation

from . import arithmetic, board
from .arithmetic import landed
from .board import AttackRecord, Decision
from .data import AUTO_RECOVERY, HOLE_CAPACITY, INCIDENT_REPAIR, REPAIR_PER_CARD, ROUNDS, UNDERGROUND_VP

if TYPE_CHECKING:
    from .state import HackersState


# -- III attack ------------------------------------------------------------------------------
def _job_attack_phase(st: HackersState, seats: tuple[int, ...]) -> None:
    board.push(st, *[("attack", seat) for seat in board.priority(st, seats)])


# rulebook 002:185 「展示一張攻擊卡，將費用支付到棄牌堆以獲得該費用對應」
def _job_attack(st: HackersState, seat: int) -> None:
    st.revealed[seat] = True
    key = board.chosen(st, seat).key
    assert key is not None
    colours = st.catalogue.attack[key.card].colours
    if len(colours) > 1:
        board.decide(st, "colour", seat, [("colour", c) for c in sorted(colours)])
    else:
        board.push(st, ("hit", seat, colours[0]))


def _on_colour(st: HackersState, decision: Decision, action: tuple) -> None:
    board.push(st, ("hit", decision.seat, action[1]))


def attack_strength(st: HackersState, seat: int, card_id: str, pay: int, colour: str) -> tuple[int, int]:
    """(attack, direct) of `seat` attacking with this card; see `arithmetic.attack_strength`."""
    return arithmetic.attack_strength(st.catalogue, board.tableau_ids(st, seat), card_id, pay, colour)


# rulebook 002:192 「擊力減去自己本顏色防禦力同等值之傷害指示物。」
def damage_against(st: HackersState, owner: int, colour: str, attack: int, direct: int) -> int:
    """Tokens that would land on `owner`: attack less defence, plus direct, up to the free slots."""
    return landed(attack, direct, board.defence_of(st, owner, colour), board.free_slots(st, owner, colour))


# rulebook 002:208 「獲得於單一對手檯面成功放置最大傷害等量之勝利點數。」
def _job_hit(st: HackersState, seat: int, colour: str) -> None:
    choice = board.chosen(st, seat)
    assert choice.key is not None
    card_id = choice.key.card
    attack, direct = attack_strength(st, seat, card_id, choice.pay_option, colour)
    board.discard_board(st, seat)
    st.used(seat, card_id, f"attacked in {colour} paying {choice.pay_option}")
    placements, placed_on = [], []
    for owner in range(st.owner_count):
        if owner == seat or not board.has_colour(st, owner, colour):
            continue
        placed = damage_against(st, owner, colour, attack, direct)
        if placed <= 0:
            continue
        placed_on.append(placed)
        refs = tuple(
            (k, h)
            for k, sv in enumerate(st.servers[owner])
            for h, c in enumerate(sv.spec.holes)
            if c == colour
        )
        placements.append(("place", owner, refs, placed))
        st.outcome(
            seat,
            f"attack ({attack} attack, {direct} direct) puts {placed} damage in {colour} "
            f"on {board.owner_name(st, owner)}",
            card_id,
        )
    if not placed_on:
        st.outcome(seat, f"attack ({attack} attack, {direct} direct) in {colour} lands no damage", card_id)
    proofs = board.count_effect(st, seat, "proof_of_concept")
    markets = board.count_effect(st, seat, "underground_market")
    st.attacks.append(AttackRecord(seat, tuple(placed_on), proofs, markets))
    board.gain(st, seat, max(placed_on, default=0), "damage placed", card_id)
    if placed_on:
        board.gain(st, seat, proofs, "Proof of Concept: an opponent damaged")
    if len(placed_on) >= 2:
        board.gain(st, seat, UNDERGROUND_VP * markets, "Underground Market: two opponents damaged")
    board.push(st, *placements)


# rulebook 002:194 「有傷害均勻分配到所有本顏色漏洞上」
# rulebook 002:200 「每個漏洞上僅能放置４點傷害，若所有本色漏洞已填滿，」
def _job_place(st: HackersState, owner: int, refs: tuple[tuple[int, int], ...], amount: int) -> None:
    """Spread `amount` evenly (water-filling, 4 per hole); the owner places the remainder."""
    board.servers_changed(st)
    servers = st.servers[owner]
    damage = [servers[k].damage[h] for k, h in refs]
    amount = min(amount, sum(HOLE_CAPACITY - x for x in damage))
    level = min(damage)
    while level < HOLE_CAPACITY:
        step = sum(1 for x in damage if x <= level)
        if step > amount:
            break
        amount -= step
        level += 1
    for (k, h), x in zip(refs, damage, strict=True):
        servers[k].damage[h] = max(x, level)
    if amount <= 0:
        return
    at_level = [ref for ref in refs if servers[ref[0]].damage[ref[1]] == level]
    if owner == st.virtual_owner or len(at_level) == amount:
        for k, h in at_level[:amount]:
            servers[k].damage[h] += 1
        return
    board.decide(st, "place", owner, [("place", k, h) for k, h in sorted(at_level)], owner=owner, left=amount)


def _on_place(st: HackersState, decision: Decision, action: tuple) -> None:
    board.servers_changed(st)
    _, k, h = action
    st.servers[decision.data["owner"]][k].damage[h] += 1
    left = decision.data["left"] - 1
    rest = [a for a in decision.actions if a != action]
    if left > 0:
        board.decide(st, "place", decision.seat, rest, owner=decision.data["owner"], left=left)


# -- IV repair -------------------------------------------------------------------------------
def _job_repair(st: HackersState, seat: int) -> None:
    st.revealed[seat] = True
    paid = st.piles.count(st.board_pile[seat])
    board.discard_board(st, seat)
    budget = REPAIR_PER_CARD * paid
    damage = board.total_damage(st, seat)
    for card in sorted(st.piles.pile(st.tableau_pile[seat]), key=str):  # Incident Response, as needed
        if budget >= damage:
            break
        if st.catalogue.defence[card.card].effect == "incident_response" and card not in st.tapped:
            board.tap(st, card)
            st.outcome(seat, "Incident Response tapped: two more damage removed", card.card)
            budget += INCIDENT_REPAIR
    st.outcome(seat, f"repair paid {paid} card(s): up to {budget} of {damage} damage removed")
    board.push(st, ("fix", seat, budget))


# rulebook 002:212 「每支付一張卡片至棄牌堆，即可從自己的伺服器卡片上移」
# rulebook 002:214 「除３點傷害。」
def _job_fix(st: HackersState, seat: int, budget: int) -> None:
    """Remove `budget` damage from the seat's holes; the seat picks when it matters."""
    board.servers_changed(st)
    if budget <= 0:
        return
    if board.total_damage(st, seat) <= budget:
        for sv in st.servers[seat]:
            sv.damage = [0] * len(sv.damage)
        return
    acts = [("fix", k, h) for k, sv in enumerate(st.servers[seat]) for h, x in enumerate(sv.damage) if x > 0]
    board.decide(st, "fix", seat, acts, budget=budget)


def _on_fix(st: HackersState, decision: Decision, action: tuple) -> None:
    board.servers_changed(st)
    _, k, h = action
    st.servers[decision.seat][k].damage[h] -= 1
    board.push(st, ("fix", decision.seat, decision.data["budget"] - 1))


# -- end of a step, of a round, of the game --------------------------------------------------
def _job_step_end(st: HackersState) -> None:
    for seat in range(st.players):
        if st.piles.count(st.board_pile[seat]):
            raise RuleViolation(f"seat {seat} still has cards under its board after resolution")
        st.choice[seat] = None
        st.revealed[seat] = False
    st.action_no += 1
    board.push(st, ("select",))


# rulebook 002:225 「先發動所有回合結束效果，然後所有玩家」
# rulebook 002:312 「回合結束時，立即移除兩點任意傷害。」
def _job_round_end(st: HackersState) -> None:
    jobs: list[tuple] = [
        ("fix", s, AUTO_RECOVERY * board.count_effect(st, s, "auto_recovery")) for s in range(st.players)
    ]
    jobs.append(("round_score",))
    if st.round_no < ROUNDS:
        jobs += [("cleanup",), ("deal",), ("select",)]
    board.push(st, *jobs)


# rulebook 002:229 「每有一個未被傷害指示物覆蓋的漏洞，獲得１勝利點數。」
# rulebook 002:231 「獲得完全沒有傷害的乾淨伺服器卡片下方所列的勝利點」
# rulebook 002:316 「回合結束時，每擁有一個乾淨的伺服器獲」
def _job_round_score(st: HackersState) -> None:
    """Round-end effects (Certification Audit), clean holes and clean-server bonuses."""
    snapshot = []
    for seat in range(st.players):
        servers = st.servers[seat]
        clean = sum(1 for sv in servers if sv.clean)
        audits = board.count_effect(st, seat, "certification_audit")
        snapshot.append((tuple((tuple(sv.damage), sv.spec.bonus) for sv in servers), audits))
        holes = sum(1 for sv in servers for x in sv.damage if x == 0)
        bonus = sum(sv.spec.bonus for sv in servers if sv.clean)
        _round_points(
            st,
            seat,
            audits * clean + holes + bonus,
            f"round {st.round_no}: {holes} clean holes, "
            f"{clean} clean servers (bonus {bonus}, audits {audits})",
        )
    st.snapshots.append(snapshot)
    st.round(f"round {st.round_no} scored: VP {st.vp}")


def _round_points(st: HackersState, seat: int, vp: int, reason: str) -> None:
    """Round scoring moves the disc like any gain; `scores_from_rules` recomputes it from snapshots."""
    if vp > 0:
        st.vp[seat] += vp
        st._top_height += 1
        st.disc_height[seat] = st._top_height
        st.score(seat, vp, reason)


# rulebook 002:237 「將所有伺服器卡片上的傷害指示物全部移除。」
# rulebook 002:239 「將所有被橫置的卡片轉回直立向上。」
# rulebook 002:241 「將所有未被使用的手牌放入棄牌堆。」
def _job_cleanup(st: HackersState) -> None:
    board.servers_changed(st)
    for owner in st.servers:
        for sv in owner:
            sv.damage = [0] * len(sv.damage)
    board.untap_all(st)
    for seat in range(st.players):
        st.piles.move_all(st.hand_pile[seat], "discard")
    st.piles.move_all("supply", "box")
    st.round_no += 1
    st.action_no = 1
    st.piles.move_all(f"stock:{st.round_no}", "supply")
    st.round(f"round {st.round_no} begins: level {st.round_no} servers in the supply")
