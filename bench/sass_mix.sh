#!/bin/bash
# bench/sass_mix.sh BINARY [KERNEL_REGEX] — the instruction mix of the hot
# device kernels in BINARY (cuzk, or a test binary that links the CUDA
# backend), from `cuobjdump -sass`: per kernel whose name matches
# KERNEL_REGEX (default: the MSM accumulations and bit sums, the NTT
# passes), its instruction count, the count of each common opcode family
# and of each IMAD form (issue "arithmetic": which products and carries the
# IMAD pipe issues). A static count: no timing. Needs cuobjdump (CUDA
# toolkit; /usr/local/cuda/bin is tried).
set -u
BIN=${1:?usage: bench/sass_mix.sh BINARY [KERNEL_REGEX]}
RE=${2:-accumulate|dif_kernel|dit_kernel|batch_partial}
command -v cuobjdump >/dev/null || PATH=$PATH:/usr/local/cuda/bin
command -v cuobjdump >/dev/null || { echo "sass_mix: no cuobjdump" >&2; exit 1; }
cuobjdump -sass "$BIN" | awk -v re="$RE" '
/Function :/ { fn = $3; next }
fn ~ re && /^[ \t]+\/\*[0-9a-f]+\*\// {
    line = $0
    sub(/^[ \t]+\/\*[0-9a-f]+\*\/[ \t]+/, "", line)   # the address
    sub(/^@!?U?P[0-9T] +/, "", line)                  # a predicate guard
    split(line, tok, /[ ;]/)
    op = tok[1]; family = op; sub(/\..*/, "", family)
    count[fn]++; fam[fn, family]++
    if (op ~ /^IMAD/) form[fn, op]++
}
END {
    n = split("IMAD IADD3 LOP3 SEL ISETP SHF MOV LDG LDS STG", show, " ")
    for (f in count) {
        printf "%s: %d instructions;", f, count[f]
        for (i = 1; i <= n; i++) if (fam[f, show[i]]) printf " %s %d", show[i], fam[f, show[i]]
        printf "\n  IMAD forms:"
        for (k in form) { split(k, p, SUBSEP); if (p[1] == f) printf " %s %d", p[2], form[k] }
        printf "\n"
    }
}'
