"""Print the hostile-case table (tests/hostile_cases.py) with what happened in each case.

Run:  python bench/hostile.py [--messages] [--only TEXT]

Columns: case, command, exit code, no traceback, database unchanged (where
refused, and always for reads; '-' when no database file was involved), holds.
The last line counts the cases and how many hold.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "cli")]

from hostile_cases import all_cases  # noqa: E402
from hostile_run import make_template, run_case  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--messages", action="store_true", help="Show the first line of each error.")
    parser.add_argument("--only", default="", help="Only cases whose name contains this text.")
    args = parser.parse_args()
    cases = [c for c in all_cases() if args.only in c.name]
    held = 0
    with tempfile.TemporaryDirectory(prefix="pnp-hostile-") as tmp:
        template = make_template(Path(tmp))
        for i, case in enumerate(cases):
            work = Path(tmp) / f"case{i}"
            work.mkdir()
            out = run_case(case, template, work)
            held += out.ok
            unchanged = "-" if out.unchanged is None else ("yes" if out.unchanged else "NO")
            command = "pnp " + " ".join(a if len(a) < 30 else a[:27] + "…" for a in case.args)
            print(
                f"{case.name[:44]:<44}  {command[:60].encode('unicode_escape').decode():<60}  "
                f"{out.exit_code:>4}  {'yes' if not out.traceback else 'NO':<3}  {unchanged:<3}  "
                f"{'ok' if out.ok else 'FAIL'}"
            )
            if args.messages and out.stderr:
                print("      " + out.stderr.splitlines()[0][:150] if out.stderr.splitlines() else "")
    print(f"{len(cases)} cases, {held} hold, {len(cases) - held} do not")


if __name__ == "__main__":
    main()
