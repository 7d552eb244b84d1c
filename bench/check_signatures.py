"""Fingerprints of seeded sample games, to show a change to the checker left every game the same.

Run one code tree, then another (PYTHONPATH picks the tree), on the same database:

    PYTHONPATH=/old/tree/cli python bench/check_signatures.py write before.json --db copy.db
    python bench/check_signatures.py write after.json --db copy.db
    python bench/check_signatures.py compare before.json after.json

Each game (seeds 1..N through the runner, random and greedy agents, every game's
configuration as `bench_check.py` plays them) is recorded as: completed, failure,
steps, returns, winners, cards used, and a hash of every action applied in order.
`compare` lists the games that differ and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from bench_check import CONFIGS, plan  # type: ignore[import-not-found]
from pnpforge.rules.runner import play_game
from pnpforge.store.db import open_db

ROOT = Path(__file__).resolve().parent.parent


def _recorded(rules: Any, actions: list[str]) -> Any:
    """`rules.new_initial_state` that records every action its states apply, as repr text."""
    make = type(rules).new_initial_state

    def new_initial_state(players: int, rng: Any) -> Any:
        state = make(rules, players, rng)
        apply = state.apply

        def recording_apply(action: Any) -> None:
            actions.append(repr(action))
            apply(action)

        state.apply = recording_apply
        return state

    return new_initial_state


def fingerprints(db_path: str, games: int, only: list[str] | None) -> dict[str, list[Any]]:
    db = open_db(db_path, readonly=True)
    out: dict[str, list[Any]] = {}
    for label, slug, options in CONFIGS:
        if only and label not in only:
            continue
        for agent in ("random", "greedy"):
            rows = []
            for rules, players, seed, agents, game_options in plan(db, slug, options, agent, games):
                actions: list[str] = []
                rules.new_initial_state = _recorded(rules, actions)
                try:
                    result = play_game(rules, players, seed, agents, options=game_options)
                finally:
                    del rules.new_initial_state
                digest = hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16]
                rows.append(
                    [seed, players, result.completed, result.failure, result.steps, result.returns,
                     result.winners, dict(sorted(result.used.items())), digest]
                )  # fmt: skip
            out[f"{label}/{agent}"] = rows
    return out


def compare(before: dict[str, list[Any]], after: dict[str, list[Any]]) -> int:
    """Print what differs; the number of differing games (a configuration missing counts as all)."""
    differing = 0
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        changed = [b[0] for a, b in zip(old, new, strict=False) if a != b] + (
            ["(missing)"] if len(old) != len(new) else []
        )
        differing += len(changed)
        state = "identical" if not changed else f"DIFFERENT at seeds {changed[:10]}"
        print(f"{key:<28} {len(new):>3} games  {state}")
    print(f"{differing} differing game(s)")
    return differing


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    write = sub.add_parser("write", help="play the games and write their fingerprints")
    write.add_argument("out")
    write.add_argument("--db", default=str(ROOT / "cards.db"))
    write.add_argument("--games", type=int, default=60)
    write.add_argument("--only", nargs="*")
    cmp = sub.add_parser("compare", help="compare two fingerprint files")
    cmp.add_argument("before")
    cmp.add_argument("after")
    args = ap.parse_args()
    if args.command == "write":
        Path(args.out).write_text(
            json.dumps(fingerprints(args.db, args.games, args.only), ensure_ascii=False)
        )
        print(f"wrote {args.out}")
        return
    before = json.loads(Path(args.before).read_text())
    after = json.loads(Path(args.after).read_text())
    sys.exit(1 if compare(before, after) else 0)


if __name__ == "__main__":
    main()
