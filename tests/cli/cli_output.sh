#!/bin/sh
# tests/cli/cli_output.sh — black-box: every command that writes checks its
# output locations BEFORE the expensive work (issue 15, item 1). Each bad
# location fails at once (exit 2, well under 2 s, where the work itself takes
# seconds to minutes) with a message naming the path; `setup --params-dir D`
# creates D before it starts.
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; echo "0 passed, 1 failed"; exit 1; }
cd "$dir"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# expect_fast NAME PATH CMD...: exit 2 within 2 s, stderr names PATH
expect_fast() {
    name=$1 path=$2
    shift 2
    t0=$(now_ms)
    "$@" >out.txt 2>err.txt </dev/null; rc=$?
    ms=$(( $(now_ms) - t0 ))
    [ $rc -eq 2 ] || { cat err.txt; fail "$name: exit $rc, want 2"; }
    [ $ms -lt 2000 ] || fail "$name: took $ms ms, want < 2000 (checked after the work?)"
    grep -qF -- "$path" err.txt || { cat err.txt; fail "$name: the message does not name $path"; }
    echo "ok: $name ($ms ms): $(head -1 err.txt)"
}

"$CUZK" setup --circuit bench:1024 --params p.params --vk p.vk --seed 5 >/dev/null || fail "setup"
mkdir adir

# setup's progress: phase, percent and ETA on a TTY (util-linux `script`
# gives it one), nothing of it when stderr is not a TTY
"$CUZK" setup --circuit bench:2^13 --params q.params --vk q.vk --seed 2 >/dev/null 2>plain.txt \
    || fail "setup bench:2^13"
grep -q "ETA" plain.txt && fail "setup drew progress on a non-TTY stderr"
if command -v script >/dev/null 2>&1 && script -qc true /dev/null >/dev/null 2>&1; then
    script -qc "'$CUZK' setup --circuit bench:2^13 --params q.params --vk q.vk --seed 2" \
        /dev/null >tty.txt 2>&1 </dev/null || fail "setup on a TTY"
    tr '\r' '\n' <tty.txt >tty-lines.txt
    grep -Eq "^setup: G1 points +[0-9]+\.[0-9]%  elapsed +[0-9.]+s  ETA [0-9]+s" tty-lines.txt \
        || fail "setup on a TTY shows no phase/percent/ETA: $(head -c 300 tty-lines.txt)"
    grep -q "^setup: G2 points  *100.0%" tty-lines.txt || fail "setup on a TTY never reached 100%"
    echo "ok: setup progress on a TTY ($(grep -c '^setup: ' tty-lines.txt) redraws)"
fi

expect_fast "setup --params into a missing directory" /nonexist \
    "$CUZK" setup --circuit bench:2^16 --params /nonexist/x.params --vk x.vk --seed 1
expect_fast "setup --vk into a missing directory" /nonexist \
    "$CUZK" setup --circuit bench:2^16 --params x.params --vk /nonexist/x.vk --seed 1
[ -e x.params ] && fail "setup wrote --params although --vk cannot be written"
expect_fast "setup --params is a directory" adir \
    "$CUZK" setup --circuit bench:2^16 --params adir --vk x.vk --seed 1
expect_fast "prove --proof into a missing directory" /nonexistdir/p.bin \
    "$CUZK" prove --circuit bench:1024 --params p.params --proof /nonexistdir/p.bin
expect_fast "prove --public into a missing directory" /nonexistdir/pub.txt \
    "$CUZK" prove --circuit bench:1024 --params p.params --proof ok.bin --public /nonexistdir/pub.txt
[ -e ok.bin ] && fail "prove wrote --proof although --public cannot be written"
expect_fast "prove --proof is a directory" adir \
    "$CUZK" prove --circuit bench:1024 --params p.params --proof adir/
"$CUZK" prove --circuit bench:1024 --params p.params --proof proof.bin --public pub.txt >/dev/null \
    || fail "prove"
expect_fast "export --dir under a file" proof.bin/js \
    "$CUZK" export snarkjs --vk p.vk --proof proof.bin --public pub.txt --dir proof.bin/js
"$CUZK" export snarkjs --vk p.vk --proof proof.bin --public pub.txt --dir new/js >/dev/null \
    || fail "export into a new nested directory"
[ -s new/js/proof.json ] || fail "export did not create new/js"

expect_fast "bench pipeline --svg into a missing directory" /nonexist/b.svg \
    "$CUZK" bench pipeline --circuit bench:2^14 --jobs 4 --svg /nonexist/b.svg
expect_fast "bench pipeline --timeline into a missing directory" /nonexist/b.log \
    "$CUZK" bench pipeline --circuit bench:2^14 --jobs 4 --timeline /nonexist/b.log

printf 'TIMELINE,0.000,SUBMIT,1,partitions=1\n' >t.log
expect_fast "timeline analyze --svg into a missing directory" /nonexist/t.svg \
    "$CUZK" timeline analyze t.log --svg /nonexist/t.svg

if "$CUZK" proof --help >/dev/null 2>&1; then
    expect_fast "proof --out into a missing directory" /nonexist/p.bin \
        "$CUZK" proof 0123456789abcdef --out /nonexist/p.bin --socket "$dir/none.sock"
    expect_fast "prove --daemon --proof into a missing directory" /nonexist/p.bin \
        "$CUZK" prove --daemon --circuit bench:1024 --params p.params --proof /nonexist/p.bin \
        --socket "$dir/none.sock"
fi

if "$CUZK" setup --kind porep-c2 --help >/dev/null 2>&1; then
    # the three: a 5-minute setup and a prove that failed at their end
    expect_fast "setup porep-c2 --vk into a missing directory" /nonexist/x.vk \
        "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params x --vk /nonexist/x.vk
    expect_fast "prove porep-c2 --proof into a missing directory" /nonexistdir/p.bin \
        "$CUZK" prove --kind porep-c2 --c1 c1.json --params-dir . --proof /nonexistdir/p.bin
    expect_fast "porep gen-c1 -o into a missing directory" /nonexist/c1.json \
        "$CUZK" porep gen-c1 --sector-size 2KiB --random 1 -o /nonexist/c1.json
    expect_fast "setup --params-dir under a file" proof.bin/params \
        "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir proof.bin/params --seed 7
    # --params-dir newdir: created at once, before minutes of setup (which
    # this test does not wait for)
    "$CUZK" setup --kind porep-c2 --sector-size 2KiB --params-dir newdir/params --seed 7 \
        >setup.txt 2>&1 &
    pid=$!
    i=0
    while [ ! -d newdir/params ] && [ $i -lt 20 ]; do sleep 0.1; i=$((i + 1)); done
    kill "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ -d newdir/params ] || { cat setup.txt; fail "setup --params-dir newdir/params: not created within 2 s"; }
    echo "ok: setup --params-dir newdir/params created it in about $((i * 100)) ms"
fi
echo "1 passed, 0 failed"
