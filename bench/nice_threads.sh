#!/bin/bash
# bench/nice_threads.sh ARGS... — runs $CUZK_BIN (default: cuzk on PATH) with
# ARGS, its shared pool's and synthesis workers' threads (cz-pool, cz-synthN;
# core/thread_name.h) at nice $CUZK_NICE (default 10), the device workers' and
# prep threads left at 0. The question it answers: does a device worker's
# thread wait for a CPU, between its region's kernels, while synthesis holds
# every core? (At 22 GiB free the H MSM took 1000-1100 ms a partition in the
# engine against 915 alone, docs/PERFORMANCE.md 2026-12-07.) As CUZK of
# small_cards.sh, with CUZK_BASE the same cuzk, it gives the A/B in one run.
# Threads are reniced as they appear (every 0.3 s); Linux (/proc, renice).
set -u
me=$$
level=${CUZK_NICE:-10}
(
    while kill -0 "$me" 2>/dev/null; do
        for t in /proc/"$me"/task/*; do
            case $(cat "$t/comm" 2>/dev/null) in
            cz-pool | cz-synth*) renice -n "$level" -p "${t##*/}" >/dev/null 2>&1 ;;
            esac
        done
        sleep 0.3
    done
) >/dev/null 2>&1 &
exec "${CUZK_BIN:-cuzk}" "$@"
