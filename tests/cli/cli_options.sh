#!/bin/sh
# tests/cli/cli_options.sh — black-box: every command's options come from one
# table (cli/options.h). Each form's --help exits 0 and passes the table's
# self-check (a synopsis naming an option the table lacks fails --help with
# "BUG"); the shared options give the same exact errors, exit 2, in every
# command that takes them; an unknown option is named; nothing is run.
# Usage: cli_options.sh CUZK
set -u
CUZK=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
passed=0
fail() { echo "FAIL: $*"; echo "--- stdout"; cat "$dir/out"; echo "--- stderr"; cat "$dir/err"; echo "$passed passed, 1 failed"; exit 1; }
cd "$dir"

run() {
    want=$1
    shift
    "$@" >"$dir/out" 2>"$dir/err" </dev/null
    rc=$?
    [ $rc -eq "$want" ] || fail "$*: exit $rc, want $want"
    passed=$((passed + 1))
}

have() { "$CUZK" "$@" --help >/dev/null 2>&1; }

# every form's help: exit 0, a synopsis, an options list, no BUG
helps="prove|verify|setup|hash poseidon|hash sha256|hash sha254|hash commd-zero|timeline analyze|timeline svg|export snarkjs|circuit shape|params check|bench pipeline|bench prove|bench msm|bench ntt|bench poseidon"
have porep gen-c1 && helps="$helps|porep gen-c1|porep check-c1|porep public-inputs|prove --kind porep-c2|setup --kind porep-c2|verify --kind porep-c2|verify --kind porep-c2 --registered-proof X|post gen-vanilla|prove --kind winning-post|prove --kind window-post|setup --kind winning-post|verify --kind window-post|snap gen-vanilla|prove --kind snap|setup --kind snap|verify --kind snap|bench synth"
have list && helps="$helps|submit|status|wait|cancel|proof|list|daemon-status"
have bench h && helps="$helps|bench h|bench pin"
IFS='|'
for form in $helps; do
    IFS=' '
    # shellcheck disable=SC2086
    run 0 "$CUZK" $form --help
    grep -q "^usage: cuzk " "$dir/out" || fail "$form --help: no synopsis"
    grep -q "^options:" "$dir/out" || fail "$form --help: no options list"
    grep -q "BUG" "$dir/out" "$dir/err" && fail "$form --help: the table's self-check failed"
    IFS='|'
done
IFS=' '
echo "ok: --help of every form"

# err_is TEXT: stderr's first line is exactly TEXT
err_is() { [ "$(head -1 "$dir/err")" = "$1" ] || fail "stderr: '$(head -1 "$dir/err")', want '$1'"; }

# the shared options: one message everywhere
for cmd in "prove --circuit bench:1024 --params p --proof x.bin" "bench prove"; do
    # shellcheck disable=SC2086
    run 2 "$CUZK" $cmd --device x; err_is "cuzk ${cmd%% --*}: --device: 'x' is not a number"
    # shellcheck disable=SC2086
    run 2 "$CUZK" $cmd --device 2000; err_is "cuzk ${cmd%% --*}: --device: '2000' is out of range (0..1024)"
    # shellcheck disable=SC2086
    run 2 "$CUZK" $cmd --backend opencl
    err_is "cuzk ${cmd%% --*}: --backend: 'opencl' is not one of auto, cpu or cuda"
    # shellcheck disable=SC2086
    run 2 "$CUZK" $cmd --threads 5000
    err_is "cuzk ${cmd%% --*}: --threads: '5000' is out of range (0..4096)"
    # shellcheck disable=SC2086
    run 2 "$CUZK" $cmd --frobnicate; err_is "cuzk ${cmd%% --*}: unknown option --frobnicate"
done
run 2 "$CUZK" bench ntt --threads -1; err_is "cuzk bench ntt: --threads: '-1' is not a number"
run 2 "$CUZK" bench pipeline --params a --random-params
err_is "cuzk bench pipeline: --params and --random-params exclude each other"
run 2 "$CUZK" bench prove --params a --random-params
err_is "cuzk bench prove: --params and --random-params exclude each other"
run 2 "$CUZK" verify --vk a --proof b; err_is "cuzk verify: missing --public FILE"
run 2 "$CUZK" verify --vk a --proof b --public c extra; err_is "cuzk verify: unexpected argument 'extra'"
run 2 "$CUZK" prove --kind frob; err_is "cuzk prove: kind: 'frob' is not a known kind (known: circuit, porep-c2, winning-post, window-post, snap)"
run 2 "$CUZK" circuit shape --kind porep-c2 --sector-size 3KiB
err_is "cuzk circuit shape: --sector-size: '3KiB' is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)"
run 2 "$CUZK" hash commd-zero; err_is "cuzk hash commd-zero: missing SIZE"
# the error is followed by the synopsis and where the whole help is
grep -q "^usage: cuzk hash commd-zero SIZE" "$dir/err" || fail "no synopsis after the error"
grep -q "cuzk hash commd-zero --help: every option" "$dir/err" || fail "no pointer to --help"
if have porep gen-c1; then
    for kind in porep-c2 winning-post snap; do
        extra=""
        [ $kind = porep-c2 ] && extra="--c1 c1.json --params-dir ."
        [ $kind = winning-post ] && extra="--input i.json --params-dir . --proof p.bin"
        [ $kind = snap ] && extra="--input i.json --params-dir . --proof p.bin"
        # shellcheck disable=SC2086
        run 2 "$CUZK" prove --kind $kind $extra --device x; err_is "cuzk prove: --device: 'x' is not a number"
        # shellcheck disable=SC2086
        run 2 "$CUZK" setup --kind $kind --sector-size 3KiB --params-dir new
        err_is "cuzk setup: --sector-size: '3KiB' is not a sector size (2KiB, 8MiB, 512MiB, 32GiB or 64GiB)"
        [ -e new ] && fail "setup --kind $kind with a bad size made --params-dir"
    done
    run 2 "$CUZK" prove --kind porep-c2 --c1 c1.json --random-params --params x.params
    err_is "cuzk prove: --random-params and --params exclude each other"
    run 2 "$CUZK" prove --kind porep-c2 --c1 c1.json --params x --params-dir d --proof p
    err_is "cuzk prove: --params and --params-dir exclude each other"
    run 2 "$CUZK" prove --kind porep-c2 --c1 c1.json --proof p
    err_is "cuzk prove: give --params P or --params-dir D (or --random-params)"
    run 2 "$CUZK" prove --kind porep-c2 --c1 c1.json --params x
    err_is "cuzk prove: missing --proof OUT (or --random-params)"
    run 2 "$CUZK" porep gen-c1 --sector-size 2KiB -o c1.json
    err_is "cuzk porep gen-c1: give --data FILE or --random SEED (or --sparse)"
    run 2 "$CUZK" verify --kind porep-c2 --vk v --proof p --comm-d 12
    err_is "cuzk verify: --comm-d: '12' is not 64 hex digits"
    # an output that cannot be written: named before any work, nothing made
    run 2 "$CUZK" post gen-vanilla --kind winning --sector-size 2KiB --random 1 -o /nonexistent/x.json
    grep -q "/nonexistent/x.json" "$dir/err" || fail "gen-vanilla -o: the path is not named"
fi
if have list; then
    run 2 "$CUZK" list --socket a --url b; err_is "cuzk list: --socket and --url exclude each other"
    run 2 "$CUZK" wait 0123456789abcdef --timeout soon; err_is "cuzk wait: --timeout: 'soon' is not a number"
fi
echo "$passed passed, 0 failed"
