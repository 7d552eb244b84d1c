"""Check that every rulebook quote beside an engine's rules is the rulebook's own words.

Run:  python bench/check_quotes.py [--seeds DIR]

An engine quotes the rulebook it implements in a comment above the rule's function:

    # rulebook 001:110 「玩家手中最多可持有 7 张货币卡。」

(the seed file's number, the line, the words as the OCR gives them).  This finds every such
quote under `cli/pnpforge/rules/games/` and in the example engine, and checks the words stand
on that line of that seed file (the OCR'd rulebooks, indexed in the seeds folder's README);
it lists quotes per engine and exits 1 if any quote is not found there.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUOTE = re.compile(r"# rulebook (\d{3}):(\d+) 「([^」]+)」")


def quotes(root: Path) -> list[tuple[Path, int, str, int, str]]:
    """(file, line in file, seed number, seed line, words) of every quote in the engines."""
    files = sorted((root / "cli/pnpforge/rules/games").glob("*/*.py"))
    files += sorted((root / "tests/fixtures").glob("*/engines/*/*.py"))
    found = []
    for path in files:
        for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            for match in QUOTE.finditer(text):
                found.append((path, number, match[1], int(match[2]), match[3]))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seeds", default="/work/shared/seeds", help="folder of the OCR'd rulebooks")
    args = ap.parse_args()
    seeds = {
        path.name[:3]: path.read_text(encoding="utf-8").splitlines()
        for path in Path(args.seeds).glob("*.txt")
    }
    wrong = 0
    per_engine: Counter[str] = Counter()
    for path, number, seed, line, words in quotes(ROOT):
        where = f"{path.relative_to(ROOT)}:{number}"
        per_engine[path.parent.name] += 1
        lines = seeds.get(seed)
        if lines is None or not 1 <= line <= len(lines) or words not in lines[line - 1]:
            print(f"{where}: not on line {line} of seed {seed}: 「{words}」")
            wrong += 1
    for engine, count in sorted(per_engine.items()):
        print(f"{engine:<15} {count:>3} quotes")
    print(f"{sum(per_engine.values())} quotes, {wrong} not found in the rulebooks")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
