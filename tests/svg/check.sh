#!/usr/bin/env bash
# The SVG pictures of `dlxc run --svg`, checked as a browser shows them: each shipped
# model below is drawn, headless Chromium takes a screenshot, and check_png.py checks
# its pixels against the SVG and the text solution (cells' colors, background, one color
# per piece). Needs chromium (Debian: `apt-get install chromium`) and python3.
#
#   tests/svg/check.sh              # build dlxc (release) and check
#   DLXC=path/to/dlxc tests/svg/check.sh
#
# Exit 0: all pictures check; 1: a check failed; 77: no chromium (nothing checked).
set -euo pipefail
cd "$(dirname "$0")/../.."

browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
    echo "tests/svg/check.sh: no chromium here (apt-get install chromium); nothing checked" >&2
    exit 77
fi
if [ -z "${DLXC:-}" ]; then
    cargo build --release --quiet
    DLXC=target/release/dlxc
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# name | model and flags (the text solution and the picture come from the same run)
cases=(
    "pentomino|examples/pentomino.dlx"
    "pearl|examples/pearl.dlx"
    "sudoku|examples/sudoku.dlx"
    "queens|examples/queens.dlx"
    "soma|examples/soma.dlx"
    "tetrahexes|examples/tetrahexes.dlx --cells hex"
    "triamonds|tests/svg/triamonds.dlx"
    "jigsaw|examples/jigsaw.dlx"
    "star-battle|examples/star-battle.dlx"
    "kakuro|examples/kakuro.dlx"
    "killer|examples/killer_sudoku.dlx"
    "killer-janko|examples/killer_janko.dlx"
    "sudoku16|examples/sudoku.dlx -p n=4 -p alphabet=ABCDEFGHIJKLMNOP --data examples/data/sudoku16-spoj.txt"
)
# Extra checks of a case: sudoku grids have their box lines exactly between boxes.
extra_of() {
    case "$1" in
        sudoku|killer) echo "--boxes=3" ;;
        sudoku16) echo "--boxes=4" ;;
    esac
}

shot() { # svg png
    local w h
    read -r w h < <(sed -n 's/^<svg [^>]*width="\([0-9]*\)" height="\([0-9]*\)".*/\1 \2/p' "$1")
    # A window smaller than about 300 pixels is sometimes shot before the picture is
    # drawn, so the window is at least 640x480 (the rest of the page is white).
    local size="$(( w > 640 ? w : 640 )),$(( h > 480 ? h : 480 ))"
    # Its own profile; sRGB and scale 1 so that pixels are the SVG's colors.
    timeout 60 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
        --force-device-scale-factor=1 --force-color-profile=srgb \
        --user-data-dir="$out/profile" --window-size="$size" \
        --screenshot="$2" "file://$(realpath "$1")" >/dev/null 2>&1
    [ -s "$2" ] || { echo "FAIL: $browser made no screenshot of $1" >&2; return 1; }
}

passed=0
failed=0
for case in "${cases[@]}"; do
    name=${case%%|*}
    read -r -a args <<<"${case#*|}"
    for mode in plain labels; do
        flag=(--svg-plain)
        check=()
        if [ "$mode" = labels ]; then flag=(); check=(--labels); fi
        svg="$out/$name-$mode.svg"
        "$DLXC" run "${args[@]}" --svg "$svg" "${flag[@]}" >"$out/$name.txt"
        read -r -a extra <<<"$(extra_of "$name")"
        if shot "$svg" "$out/$name-$mode.png" &&
            python3 tests/svg/check_png.py "$svg" "$out/$name-$mode.png" "$out/$name.txt" \
                "${check[@]}" "${extra[@]}"; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    done
done

# --svg-dir: one picture per solution shown.
"$DLXC" run examples/soma.dlx --limit 3 --svg-dir "$out/dir" >/dev/null
n=$(find "$out/dir" -name 'solution-*.svg' | wc -l)
if [ "$n" -ne 3 ]; then
    echo "FAIL --svg-dir: $n pictures for 3 solutions"
    failed=$((failed + 1))
else
    echo "ok   --svg-dir: 3 pictures for 3 solutions"
    passed=$((passed + 1))
fi

echo "pictures: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
