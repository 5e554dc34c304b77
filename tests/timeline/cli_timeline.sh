#!/bin/sh
# tests/timeline/cli_timeline.sh CUZK — `cuzk timeline analyze` end to end:
# a clean log exits 0 with the documented JSON keys and writes an SVG; a log
# with a planted overlap exits 1; a missing log or bad usage exits 2;
# `timeline svg --from --to` draws only the spans of its window, titled and
# labelled with job and partition.
set -u
CUZK=$1
DIR=$(mktemp -d /tmp/cuzk_cli_tl.XXXXXX)
trap 'rm -rf "$DIR"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$DIR/ok.log" <<'LOG'
daemon: listening
TIMELINE,10,SYNTH_START,1,partition=0,synth_worker=0
TIMELINE,900,SYNTH_END,1,partition=0
TIMELINE,995,LOCK_WAIT,1,device=0,worker=0,partition=0
TIMELINE,1000,LOCK_ACQ,1,device=0,worker=0,partition=0
TIMELINE,1100,LOCK_REL,1,device=0,worker=0,partition=0
TIMELINE,1100,EPI_START,1,device=0,worker=0,partition=0
TIMELINE,1180,EPI_END,1,device=0,worker=0,partition=0
TIMELINE,1110,LOCK_ACQ,1,device=0,worker=1,partition=1
TIMELINE,1210,LOCK_REL,1,device=0,worker=1,partition=1
LOG
sed 's/^TIMELINE,1110,LOCK_ACQ/TIMELINE,1050,LOCK_ACQ/' "$DIR/ok.log" > "$DIR/overlap.log"

"$CUZK" timeline analyze "$DIR/ok.log" --json --svg "$DIR/ok.svg" > "$DIR/ok.json"
rc=$?; [ $rc -eq 0 ] || fail "clean log exit $rc"
for key in device regions held_ms gap_ms gaps_lt_50ms gaps_50_500ms gaps_gt_500ms \
           efficiency dispatch_efficiency overlap_violations stages; do
    grep -q "\"$key\"" "$DIR/ok.json" || fail "JSON lacks $key"
done
grep -q '"efficiency": 0.952381' "$DIR/ok.json" || fail "efficiency: $(grep efficiency "$DIR/ok.json")"
head -c 4 "$DIR/ok.svg" | grep -q '<svg' || fail "no SVG"
grep -q '>dev0/w1<' "$DIR/ok.svg" || fail "SVG lacks lane dev0/w1"

"$CUZK" timeline analyze "$DIR/ok.log" > "$DIR/ok.txt" || fail "text report"
grep -q "device efficiency (lock held): 95.24 %" "$DIR/ok.txt" || fail "text: $(cat "$DIR/ok.txt")"

"$CUZK" timeline analyze "$DIR/overlap.log" > "$DIR/ov.txt"
rc=$?; [ $rc -eq 1 ] || fail "overlap log exit $rc"
grep -q "OVERLAPS" "$DIR/ov.txt" || fail "overlap not reported"

"$CUZK" timeline analyze "$DIR/missing.log" 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "missing log exit $rc"
"$CUZK" timeline analyze 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "no LOG exit $rc"
"$CUZK" timeline frobnicate 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "bad subcommand exit $rc"
# `timeline svg` with a window: only the spans in 1.0-1.2 s (two device
# regions and an epilogue; synthesis and the lock wait end by 1.000 s)
"$CUZK" timeline svg "$DIR/ok.log" -o "$DIR/w.svg" --from 1.0 --to 1.2 >"$DIR/w.txt" \
    || fail "timeline svg --from --to"
grep -q "3 bars" "$DIR/w.txt" || fail "window: $(cat "$DIR/w.txt")"
[ "$(grep -c '<title>job ' "$DIR/w.svg")" -eq 3 ] || fail "window: $(grep -c '<title>job ' "$DIR/w.svg") bars, want 3"
grep -q 'synthesis' "$DIR/w.svg" && grep -q '<title>job 1 partition 0 synthesis' "$DIR/w.svg" \
    && fail "window: a synthesis span outside it was drawn"
grep -q '<title>job 1 partition 1 device' "$DIR/w.svg" || fail "window: titles lack job/partition"
grep -q '>j1 p1</text>' "$DIR/w.svg" || fail "window: no visible job/partition label"
"$CUZK" timeline svg "$DIR/ok.log" -o "$DIR/all.svg" >/dev/null || fail "timeline svg"
[ "$(grep -c '<title>job ' "$DIR/all.svg")" -eq 5 ] || fail "whole log: want 5 bars"
"$CUZK" timeline svg "$DIR/ok.log" -o "$DIR/x.svg" --from 2 --to 1 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "reversed window exit $rc"
"$CUZK" timeline svg "$DIR/ok.log" -o "$DIR/x.svg" --from 1 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "half a window exit $rc"
"$CUZK" timeline svg "$DIR/ok.log" 2>/dev/null
rc=$?; [ $rc -eq 2 ] || fail "svg without -o exit $rc"
"$CUZK" timeline svg --help >/dev/null || fail "timeline svg --help"
echo "cli_timeline: ok"
