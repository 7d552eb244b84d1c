#!/bin/sh
# The print tests on the lowest and the highest reportlab that pyproject.toml allows.
# reportlab_compat touches reportlab internals; run this before moving the pin.
# Usage: sh bench/reportlab_bounds.sh [LOW] [HIGH]   (defaults: the pin's ends as of this commit)
# Each version gets its own virtual environment under ${TMPDIR:-/tmp}; a private font cache is used.
set -eu
LOW=${1:-4.0.9}
HIGH=${2:-5.1.0}
REPO=$(cd "$(dirname "$0")/.." && pwd)
TESTS="tests/test_reportlab_contract.py tests/test_print_memory.py tests/test_print.py tests/test_shop.py"
status=0
for version in "$LOW" "$HIGH"; do
    env_dir="${TMPDIR:-/tmp}/pnp-reportlab-$version"
    python3 -m venv "$env_dir"
    "$env_dir/bin/pip" install -q -e "$REPO[dev]" "reportlab==$version"
    echo "== reportlab $version"
    if (cd "$REPO" && PNP_CACHE_DIR="$env_dir/cache" "$env_dir/bin/python" -m pytest -q -p no:cacheprovider $TESTS); then
        echo "== reportlab $version: passed"
    else
        echo "== reportlab $version: FAILED"
        status=1
    fi
done
exit $status
