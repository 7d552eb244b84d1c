"""Where the batches of a plan run: this process, a local process pool, or Ray tasks.

Every executor returns the batches' games in plan order, so the report never depends on which
one ran them nor on how many workers it had.  Ray is optional (`pip install 'pnpforge[cluster]'`)
and imported only when asked for: with `address` it joins an existing cluster, otherwise it
starts a local one.  The deck travels as bytes (once per worker, or once into Ray's object
store), so cluster nodes need pnpforge installed but no copy of the database.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from pnpforge.balance.plan import Batch
from pnpforge.balance.worker import Played, play_batch, remember_deck
from pnpforge.errors import PnpError

EXECUTORS = ("local", "ray")
MAX_JOBS = 64


@dataclass(frozen=True)
class ExecutorChoice:
    """`--executor`, `--jobs` and `--address` as given."""

    name: str = "local"
    jobs: int = 0  # local pool: worker processes, 0 = one per core
    address: str | None = None  # ray: an existing cluster, e.g. ray://head:10001 or 'auto'

    def check(self) -> None:
        if self.name not in EXECUTORS:
            raise PnpError(f"--executor '{self.name}': allowed {', '.join(EXECUTORS)}")
        if not 0 <= self.jobs <= MAX_JOBS:
            raise PnpError(f"--jobs {self.jobs} is outside 0..{MAX_JOBS} (0: one per CPU core)")
        if self.address is not None and self.name != "ray":
            raise PnpError("--address is for --executor ray")

    def workers(self, batches: int) -> int:
        return max(1, min(self.parallelism(), batches))

    def parallelism(self) -> int:
        """How many tasks run at once: the pool's workers, a local Ray's CPUs; for a cluster at
        `address` (whose size is known only once joined) as many as `MAX_JOBS`."""
        if self.name == "ray" and self.address:
            return self.jobs or MAX_JOBS
        return self.jobs or (os.cpu_count() or 1)


def run_batches(choice: ExecutorChoice, digest: str, data: bytes, batches: Sequence[Batch]) -> list[Played]:
    """Every game of `batches`, in plan order."""
    choice.check()
    if choice.name == "ray":
        return _flatten(_ray(choice, data, batches))
    workers = choice.workers(len(batches))
    if workers == 1:
        remember_deck(digest, data)
        return _flatten(play_batch(b) for b in batches)
    with ProcessPoolExecutor(max_workers=workers, initializer=remember_deck, initargs=(digest, data)) as pool:
        return _flatten(pool.map(play_batch, batches))


def _flatten(parts: Iterator[list[Played]] | list[list[Played]] | Any) -> list[Played]:
    return [played for part in parts for played in part]


def _ray(choice: ExecutorChoice, data: bytes, batches: Sequence[Batch]) -> list[list[Played]]:
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise PnpError(
            "--executor ray needs Ray: pip install 'pnpforge[cluster]' (or use the default local pool)"
        ) from None
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if choice.address:
            ray.init(address=choice.address, **kwargs)
        else:
            ray.init(num_cpus=choice.jobs or None, **kwargs)
    task: Any = ray.remote(play_batch)
    deck = ray.put(data)  # once into the object store; each task reads it without a copy per batch
    return list(ray.get([task.remote(b, deck) for b in batches]))
