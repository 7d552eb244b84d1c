#!/usr/bin/env bash
# Open pnpforge's outputs in the tools designers and print shops use, where they are installed:
#   LibreOffice  `pnp export` CSV -> LibreOffice -> `;`-separated CSV and XLSX -> `pnp import`:
#                nothing edited must import as no change; one edited cell as exactly one change.
#   Ghostscript  every PDF kind through the nullpage device, stopping on any warning; the
#                DriveThruCards PDFs redistilled as PDF/X.
#   MuPDF        `mutool info` and `mutool draw` on every PDF kind.
#   Inkscape     the first cut SVG of each machine exported to PNG (look at it).
#
# Usage: bench/real_tools.sh [GAME …]            (default: enforcer hackers; needs `pnp` on PATH)
#        FIXTURES=tests/fixtures/libreoffice bench/real_tools.sh   also refreshes the test fixtures
# Works on a copy of the database ($PNP_DB or ./cards.db); writes under $OUT (default a temp dir).
# A tool that is missing is skipped and said so. Exit 1 when any check fails.
set -u -o pipefail

GAMES=("$@")
[ ${#GAMES[@]} -eq 0 ] && GAMES=(enforcer hackers)
OUT=${OUT:-$(mktemp -d /tmp/pnp-real-tools.XXXXXX)}
DB_SOURCE=${PNP_DB:-cards.db}
mkdir -p "$OUT"
cp "$DB_SOURCE" "$OUT/cards.db"
export PNP_DB="$OUT/cards.db"
failed=0
fail() { echo "FAIL: $*"; failed=1; }
have() { command -v "$1" >/dev/null 2>&1; }

echo "== versions"
pnp --version
have soffice && soffice --version | head -1 || echo "LibreOffice: not installed (skipped)"
have gs && echo "Ghostscript $(gs --version)" || echo "Ghostscript: not installed (skipped)"
have mutool && mutool -v 2>&1 | head -1 || echo "MuPDF: not installed (skipped)"
have inkscape && inkscape --version 2>/dev/null | head -1 || echo "Inkscape: not installed (skipped)"

# The changes `pnp import --dry-run FILE` reports: "would add A, would update U, unchanged N".
dry_run_updates() { pnp import "$1" "$2" --dry-run 2>&1 | tail -1; }

# One cell of a CSV changed in place: column $3 of the row whose id is $2 set to $4.
edit_cell() {
    python3 - "$1" "$2" "$3" "$4" <<'PY'
import csv, sys
path, card, column, value = sys.argv[1:]
with open(path, newline="", encoding="utf-8") as f:
    rows = list(csv.reader(f))
col = rows[0].index(column)
hits = [r for r in rows[1:] if r[0] == card]
assert len(hits) == 1, f"no single row {card}"
hits[0][col] = value
with open(path, "w", newline="", encoding="utf-8") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
PY
}

if have soffice; then
    echo "== LibreOffice round trip"
    lo="$OUT/libreoffice"
    mkdir -p "$lo/semi" "$lo/xlsx"
    for game in "${GAMES[@]}"; do
        pnp export "$game" -o "$lo/$game.csv" >/dev/null || fail "export $game"
    done
    # the edited sheet: one cell of the hackers server S-10 (cost 2 -> 3), as a designer would
    if [ -f "$lo/hackers.csv" ]; then
        cp "$lo/hackers.csv" "$lo/hackers-edited.csv"
        edit_cell "$lo/hackers-edited.csv" S-10 cost 3
    fi
    # comma-separated UTF-8 in; `;`-separated UTF-8 CSV (59 = ';') and XLSX out
    (cd "$lo" && soffice --headless --infilter="CSV:44,34,76,1" \
        --convert-to 'csv:Text - txt - csv (StarCalc):59,34,76,1' --outdir semi ./*.csv >/dev/null 2>&1)
    (cd "$lo" && soffice --headless --infilter="CSV:44,34,76,1" --convert-to xlsx --outdir xlsx ./*.csv \
        >/dev/null 2>&1)
    for game in "${GAMES[@]}"; do
        head -c 60 "$lo/semi/$game.csv" | grep -q ';' || fail "$game: LibreOffice wrote no ';'-separated CSV"
        for made in "$lo/semi/$game.csv" "$lo/xlsx/$game.xlsx"; do
            said=$(dry_run_updates "$game" "$made")
            echo "$game ${made#"$lo"/}: $said"
            case "$said" in *"would add 0, would update 0,"*) ;; *) fail "$made: expected no change" ;; esac
        done
    done
    if [ -f "$lo/hackers-edited.csv" ]; then
        for made in "$lo/semi/hackers-edited.csv" "$lo/xlsx/hackers-edited.xlsx"; do
            said=$(pnp import hackers "$made" --dry-run 2>&1)
            echo "hackers ${made#"$lo"/}: $(echo "$said" | tail -1)"
            echo "$said" | grep -q "would add 0, would update 1," || fail "$made: expected one change"
            echo "$said" | grep -q "fields.cost: 2 → 3" || fail "$made: expected S-10 cost 2 → 3"
        done
    fi
    if [ -n "${FIXTURES:-}" ]; then
        mkdir -p "$FIXTURES"
        for game in "${GAMES[@]}"; do
            cp "$lo/$game.csv" "$FIXTURES/$game-pnp.csv"
            cp "$lo/semi/$game.csv" "$FIXTURES/$game-semicolon.csv"
            cp "$lo/xlsx/$game.xlsx" "$FIXTURES/$game.xlsx"
        done
        if [ -f "$lo/hackers-edited.csv" ]; then
            cp "$lo/semi/hackers-edited.csv" "$FIXTURES/hackers-edited-semicolon.csv"
            cp "$lo/xlsx/hackers-edited.xlsx" "$FIXTURES/hackers-edited.xlsx"
        fi
        echo "fixtures refreshed in $FIXTURES"
    fi
fi

echo "== PDFs"
pdfs="$OUT/pdf"
mkdir -p "$pdfs"
pnp print calibration -o "$pdfs/calibration.pdf" >/dev/null || fail "print calibration"
for game in "${GAMES[@]}"; do
    d="$pdfs/$game"
    mkdir -p "$d"
    pnp print "$game" -o "$d/print" >/dev/null 2>&1 || fail "print $game"
    pnp helpers "$game" -o "$d/helpers" >/dev/null 2>&1 || fail "helpers $game"
    pnp rules "$game" -o "$d/rules.pdf" >/dev/null 2>&1 || fail "rules $game"
    if ! said=$(pnp shop "$game" -p drivethru -o "$d/shop" 2>&1); then
        # a deck whose card sizes the shop does not print stops at preflight: not a file to check
        case "$said" in *"Preflight of"*) echo "shop $game: $(echo "$said" | tail -1)" ;; *) fail "shop $game" ;; esac
    fi
    for machine in silhouette cricut; do
        pnp cut "$game" -m "$machine" -o "$d/cut/$machine" >/dev/null 2>&1 || fail "cut $game $machine"
    done
    pnp proof "$game" -o "$d/proof" >/dev/null 2>&1 || fail "proof $game"
done
mapfile -t all_pdfs < <(find "$pdfs" -name '*.pdf' | sort)
echo "${#all_pdfs[@]} PDFs"
for f in "${all_pdfs[@]}"; do
    name=${f#"$pdfs"/}
    if have gs; then
        said=$(gs -q -dNOPAUSE -dBATCH -dPDFSTOPONWARNING -dPDFSTOPONERROR -o /dev/null -sDEVICE=nullpage "$f" 2>&1)
        [ $? -eq 0 ] && [ -z "$said" ] || fail "gs on $name: $said"
    fi
    if have mutool; then
        # "ICC support is not available" is this MuPDF build (no lcms2), said of any PDF
        said=$( (mutool info "$f" >/dev/null; mutool draw -q -o /dev/null "$f") 2>&1 \
            | grep -v "ICC support is not available")
        [ -z "$said" ] || fail "mutool on $name: $said"
    fi
done
if have gs; then
    for f in $(find "$pdfs" -path '*/shop/*.pdf' | sort); do
        said=$(gs -q -dPDFX=true -dBATCH -dNOPAUSE -sDEVICE=pdfwrite -sColorConversionStrategy=CMYK \
            -sOutputFile="$OUT/pdfx-check.pdf" "$f" 2>&1)
        [ -z "$said" ] || fail "gs PDF/X redistill of ${f#"$pdfs"/}: $said"
    done
fi
for proof in $(find "$pdfs" -name '*-proof.png' | sort); do  # the proof is a PNG contact sheet
    have mutool && { mutool draw -q -o /dev/null "$proof" 2>/dev/null || fail "mutool cannot open $proof"; }
done

if have inkscape; then
    echo "== Inkscape"
    for svg in $(find "$pdfs" -name '*-01.svg' | sort); do
        png="${svg%.svg}.inkscape.png"
        inkscape "$svg" --export-type=png --export-filename="$png" --export-dpi=100 \
            --export-background=white >/dev/null 2>&1 || fail "inkscape on $svg"
        [ -s "$png" ] && echo "look at: $png" || fail "inkscape wrote no PNG for $svg"
    done
fi

echo "outputs in $OUT"
[ $failed -eq 0 ] && echo "all checks passed" || echo "some checks FAILED"
exit $failed
