/*
 * cs/cs.h — the constraint system circuits are written against.
 *
 * One circuit function serves every use: it allocates variables, builds
 * linear combinations (cs/lc.h) and calls cz_cs_enforce(); what the cz_cs_t
 * does with that depends on its mode:
 *
 *   CZ_CS_PROVE   keeps the input and aux assignments and, per constraint,
 *                 appends a = <A,z>, b = <B,z>, c = <C,z> and sets the
 *                 density bits, exactly as bellperson's ProvingAssignment
 *                 (BP groth16/prover/mod.rs, FACTS 1). After cz_cs_omit_c
 *                 (what the provers use) c is neither evaluated nor stored.
 *   CZ_CS_KEYGEN  records the R1CS as three CSR matrices (for setup). Value
 *                 callbacks are never called.
 *   CZ_CS_SHAPE   counts constraints, inputs, aux and fills the density
 *                 bitmaps; never evaluates the witness and never calls a
 *                 value callback (fast enough for a 130M-constraint circuit).
 *                 Building the combinations still merges their constant
 *                 coefficients with field additions: a merged zero decides
 *                 density, so shape and prove densities are identical.
 *   CZ_CS_CHECK   keeps the assignments, evaluates a*b = c per constraint and
 *                 remembers the first unsatisfied one by its namespace path;
 *                 cz_cs_finish() then fails with CZ_EUNSAT, "unsatisfied
 *                 constraint 'ns/path/name' (#index)".
 *
 * Life cycle: cz_cs_new() allocates ONE as input 0 (value 1); optionally
 * cz_cs_reserve(); the circuit runs; cz_cs_finish() appends, for every input
 * i, the row `x_i * 0 = 0` (A = x_i, B = C = 0; BP prover and generator) so
 * rows = constraints + inputs, with those rows last; then the results are
 * read (or taken) and cz_cs_free() releases everything.
 *
 * Density (all modes): bit j of a_aux is set when aux j appears with a
 * non-zero (merged) coefficient in some A; b_input and b_aux likewise for B
 * (BP lc.rs eval_with_trackers; inputs are always dense in A, so there is no
 * a_input bitmap). Bitmaps are uint64 words, bit j = word j/64, bit j%64.
 *
 * Errors are sticky: once a call fails (out of memory, a value callback
 * error, a variable out of range, a call after finish) every later call on
 * the cs returns that same code without doing anything, and cz_cs_finish()
 * returns it too, so a circuit may check codes as it likes without losing
 * one. The message goes to the ctx given to cz_cs_new().
 *
 * Namespaces (cz_cs_push/pop) name constraints for CZ_CS_CHECK only; in the
 * other modes they are a counter and no string is built. Constraint names
 * are only formatted when a constraint is found unsatisfied.
 *
 * C-free proving: for a satisfying witness every row has c = a * b (the
 * input rows x_i * 0 = 0 too), so the prover does not need c: cz_cs_omit_c
 * saves a third of the a/b/c memory (4 GiB of 12.5 at a 32GiB PoRep
 * partition) and the C evaluations. The witness then has c == NULL, which
 * the prover and the backends read as c[i] = a[i] * b[i] (backend/backend.h).
 * An unsatisfying witness still gives a proof, one that fails verification,
 * as a c-ful one does; CHECK mode names the unsatisfied constraint.
 *
 * Direct emission (cs/emit.h): in PROVE without c and in SHAPE, gadgets
 * whose combinations are small (booleans, UInt32 words, MultiEq, Poseidon)
 * may write their rows by value instead of through cz_cs_enforce; the rows,
 * assignment and densities are the same bytes.
 *
 * Memory: assignments, a/b/c and bitmaps live in contiguous arrays that grow
 * by doubling; cz_cs_reserve() with the known shape allocates them once, so
 * proving performs no allocation per constraint or per variable. The first
 * allocation of each comes from the ctx's recycler when it keeps a warm
 * block (core/recycle.h).
 *
 * Thread-safety: a cz_cs_t is used by one thread at a time. Distinct
 * cz_cs_t's are independent.
 */
#ifndef CUZK_CS_CS_H
#define CUZK_CS_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/recycle.h"
#include "cs/lc.h"
#include "core/ctx.h"
#include "ff/fr.h"

typedef enum {
    CZ_CS_PROVE = 0,
    CZ_CS_KEYGEN = 1,
    CZ_CS_SHAPE = 2,
    CZ_CS_CHECK = 3,
} cz_cs_mode_t;

typedef enum {
    CZ_DENSITY_A_AUX = 0,
    CZ_DENSITY_B_INPUT = 1,
    CZ_DENSITY_B_AUX = 2,
} cz_density_t;

typedef enum { CZ_MATRIX_A = 0, CZ_MATRIX_B = 1, CZ_MATRIX_C = 2 } cz_matrix_t;

typedef struct cz_cs cz_cs_t;

/*
 * Produces a variable's value: writes *out and returns CZ_OK, or returns an
 * error code (bellpepper's AssignmentMissing is CZ_EINVAL), which becomes the
 * cs's sticky error. Called at most once, only in PROVE and CHECK modes.
 */
typedef int cz_cs_value_fn(cz_fr *out, void *arg);

/*
 * A sparse matrix in compressed sparse row form. Row r's entries are
 * [row_ptr[r], row_ptr[r+1]); columns ascend within a row. Columns index the
 * full assignment z = (inputs..., aux...): input i is column i, aux j is
 * column num_inputs + j. Entries with a zero (merged) coefficient are left
 * out: they contribute nothing, exactly as they contribute no density.
 */
typedef struct {
    size_t rows;
    size_t nnz;
    uint64_t *row_ptr; /* rows + 1 entries */
    uint32_t *cols;
    cz_fr *vals;
} cz_csr_t;

/* The results of a proving synthesis, owned by the caller once taken. */
typedef struct {
    size_t num_inputs, num_aux, num_rows;
    cz_fr *input, *aux;     /* assignments (input[0] = ONE) */
    cz_fr *a, *b, *c;       /* num_rows evaluations each; c NULL when omitted
                               * (cz_cs_omit_c): then c[i] = a[i] * b[i] */
    uint64_t *density[3];   /* indexed by cz_density_t */
    size_t density_bits[3]; /* num_aux, num_inputs, num_aux */
    size_t popcount[3];
} cz_cs_witness_t;

/*
 * New constraint system in |mode|, with ONE allocated as input 0.
 * |ctx| (borrowed, may be NULL) receives error messages.
 * Returns CZ_OK, CZ_EINVAL (bad mode) or CZ_ENOMEM; *out is NULL on error.
 */
int cz_cs_new(cz_cs_t **out, cz_ctx_t *ctx, cz_cs_mode_t mode);
/* Releases everything not taken. NULL is a harmless no-op. */
void cz_cs_free(cz_cs_t *cs);

/*
 * Allocate the arrays for a circuit of |constraints| constraints (not
 * counting the input rows), |aux| aux and |inputs| inputs (counting ONE), so
 * that synthesis does not reallocate. Exceeding them is allowed (the arrays
 * then grow). Only before the first enforce. CZ_ENOMEM on failure.
 */
int cz_cs_reserve(cz_cs_t *cs, size_t constraints, size_t aux, size_t inputs);

/*
 * Make room for |rows| more rows, |aux| more aux and |inputs| more inputs
 * than the cs has now (any time before finish; not on a fork), e.g. before
 * in-place forks take their slots. CZ_OK, CZ_EINVAL or CZ_ENOMEM (sticky).
 */
int cz_cs_room(cz_cs_t *cs, size_t rows, size_t aux, size_t inputs);

/*
 * PROVE mode: do not evaluate or store c from now on (see "C-free proving"
 * above); C is still range-checked, so errors are those of a full PROVE
 * synthesis. Forks made after this call inherit it. Call before the first
 * constraint (after cz_cs_reserve is fine: the reserved c is released);
 * later it fails with CZ_EINVAL (sticky). A harmless no-op in the other
 * modes: CHECK still evaluates and compares a*b with c, KEYGEN records C,
 * SHAPE counts it. Returns CZ_OK, the sticky error or CZ_EINVAL.
 */
int cz_cs_omit_c(cz_cs_t *cs);
/* True when c is omitted (PROVE after a successful cz_cs_omit_c). */
bool cz_cs_omits_c(const cz_cs_t *cs);

cz_cs_mode_t cz_cs_mode(const cz_cs_t *cs);
/* True in PROVE and CHECK modes: the circuit's values are wanted. */
bool cz_cs_needs_values(const cz_cs_t *cs);

/*
 * Allocate an aux (cz_cs_alloc*) or input (cz_cs_alloc_input*) variable.
 * The value is read (from |value|, or by calling |fn|) only in PROVE and
 * CHECK modes, where a NULL |value| fails with CZ_EINVAL; KEYGEN and SHAPE
 * accept NULL and never call |fn|. *var is set on success.
 */
int cz_cs_alloc(cz_cs_t *cs, cz_var_t *var, const cz_fr *value);
int cz_cs_alloc_fn(cz_cs_t *cs, cz_var_t *var, cz_cs_value_fn *fn, void *arg);
int cz_cs_alloc_input(cz_cs_t *cs, cz_var_t *var, const cz_fr *value);
int cz_cs_alloc_input_fn(cz_cs_t *cs, cz_var_t *var, cz_cs_value_fn *fn, void *arg);

/*
 * Value of an allocated variable (PROVE and CHECK modes); CZ_EUNAVAIL in the
 * other modes, CZ_EINVAL for a variable not allocated. Not sticky.
 */
int cz_cs_value(const cz_cs_t *cs, cz_var_t var, cz_fr *out);

/*
 * Add the constraint A * B = C. |name| (may be NULL) names it within the
 * current namespace; cz_cs_enforcef formats its name (printf) only when
 * the constraint is found unsatisfied in CHECK mode. The combinations are
 * only read. Fails (sticky) with CZ_EINVAL when a variable is not allocated
 * and CZ_ENOMEM when a combination carries an error or storage cannot grow.
 * An unsatisfied constraint is not an error here (see cz_cs_finish).
 */
int cz_cs_enforce(cz_cs_t *cs, const cz_lc_t *a, const cz_lc_t *b, const cz_lc_t *c,
                  const char *name);
int cz_cs_enforcef(cz_cs_t *cs, const cz_lc_t *a, const cz_lc_t *b, const cz_lc_t *c,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Enter / leave a namespace. cz_cs_pop without a push fails (CZ_EINVAL). */
int cz_cs_push(cz_cs_t *cs, const char *name);
int cz_cs_pushf(cz_cs_t *cs, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int cz_cs_pop(cz_cs_t *cs);

/*
 * End synthesis: append the input rows, compute popcounts, renumber KEYGEN
 * columns. Returns the sticky error if any; CZ_EINVAL if namespaces are
 * unbalanced; in CHECK mode CZ_EUNSAT naming the first unsatisfied
 * constraint; else CZ_OK. Calling it twice returns the first result.
 */
int cz_cs_finish(cz_cs_t *cs);

/* Counts. num_rows is constraints + inputs after finish, else constraints. */
size_t cz_cs_num_inputs(const cz_cs_t *cs);
size_t cz_cs_num_aux(const cz_cs_t *cs);
size_t cz_cs_num_constraints(const cz_cs_t *cs);
size_t cz_cs_num_rows(const cz_cs_t *cs);

/*
 * Density bitmap |which| (NULL when empty or taken); *nbits (may be NULL)
 * receives its length in bits, *popcount (may be NULL) the number of set
 * bits. Valid until the cs is freed, taken, or grows.
 */
const uint64_t *cz_cs_density(const cz_cs_t *cs, cz_density_t which, size_t *nbits,
                              size_t *popcount);

/* Assignments (PROVE, CHECK; NULL for a fork, whose values are partly its
 * parent's: use cz_cs_value) and evaluations (PROVE; C is NULL when
 * omitted); NULL otherwise. */
const cz_fr *cz_cs_inputs(const cz_cs_t *cs);
const cz_fr *cz_cs_aux(const cz_cs_t *cs);
const cz_fr *cz_cs_eval(const cz_cs_t *cs, cz_matrix_t which);

/* KEYGEN: the matrix |which| after finish; NULL otherwise. */
const cz_csr_t *cz_cs_matrix(const cz_cs_t *cs, cz_matrix_t which);

/*
 * CHECK: index of the first unsatisfied constraint and its path ("a/b/name"),
 * or false when every constraint held. The path is valid until cz_cs_free.
 */
bool cz_cs_unsatisfied(const cz_cs_t *cs, size_t *index, const char **path);

/*
 * Fault injection for tests: in PROVE and CHECK modes, when aux |index| is
 * allocated its stored value is the given value plus one, as if the witness
 * were corrupted; the circuit's own copy of the value is not affected, so
 * the constraints that use that aux see the wrong value. Call before that
 * aux is allocated; a later call replaces an earlier one. No effect in the
 * other modes.
 */
void cz_cs_corrupt_aux(cz_cs_t *cs, size_t index);

/*
 * PROVE, after a successful finish: move the assignments, evaluations and
 * bitmaps into *out (the cs keeps only its counts). Free with
 * cz_cs_witness_free. CZ_EINVAL in another mode or state.
 */
int cz_cs_take_witness(cz_cs_t *cs, cz_cs_witness_t *out);
/* NULL, or an already freed witness, is a harmless no-op. */
void cz_cs_witness_free(cz_cs_witness_t *w);
/* The same, giving the large arrays (a, b, c, aux) to |r| (core/recycle.h;
 * NULL: freed) for the next partition's cs to take. */
void cz_cs_witness_free_into(cz_cs_witness_t *w, cz_recycler_t *r);
/*
 * *out = a deep copy of |w|: the counts, bit lengths and popcounts, and a
 * fresh malloc'd copy of every array cz_cs_witness_free frees (input, aux,
 * a, b, c, the three density bitmaps; one NULL in |w| stays NULL, as c
 * after cz_cs_omit_c). The bytes are copied on |ctx|'s pool (cz_pool_memcpy;
 * |ctx| may be NULL: the calling thread). |out| owns its arrays (free with
 * cz_cs_witness_free), |w| is unchanged. CZ_OK or CZ_ENOMEM (message in
 * |ctx|), after which *out is freed and zeroed. Reentrant: |w| is only read,
 * so threads may copy one witness at once.
 */
int cz_cs_witness_copy(cz_ctx_t *ctx, const cz_cs_witness_t *w, cz_cs_witness_t *out);

/*
 * Forks, for synthesizing independent parts of a circuit on several threads
 * (src/cs/cs_fork.c). cz_cs_fork makes *out, a cs in |parent|'s mode that
 * has the parent's variables and no constraints: a part synthesized into
 * it may use the parent's variables and allocates its own after them.
 * In PROVE and CHECK the fork reads the parent's values in place (no copy:
 * a 32GiB PoRep parent holds gigabytes of them), so the parent must not
 * change — no allocation, constraint or extend — while a fork of it is
 * being synthesized; extending forks once all of them are synthesized is
 * fine (porep/parallel.c runs in such waves). A fork of a fork copies its
 * parent's values. |ctx| (may be NULL) receives the fork's messages, so
 * each thread can have its own. The parent is only read (several forks may
 * be made from it concurrently while nobody writes it). Never finish a fork
 * (cz_cs_take_witness refuses one).
 *
 * cz_cs_extend appends |fork|'s own variables and constraints to |cs|, its
 * parent, exactly as if the part had been synthesized into |cs| at this
 * point: values and a/b/c (a/b when c is omitted) are appended, density bits of the parent's
 * variables are OR-ed in and those of the fork's own variables shifted to
 * their new indices, KEYGEN columns renumbered, a CHECK failure kept with
 * its index in |cs| (when it is the first). Forks of one parent must not
 * use each other's variables; extend them in the order the sequential
 * synthesis would have run them. The fork is only read; free it after.
 * cz_cs_corrupt_aux is not inherited by forks.
 * Returns CZ_OK, the fork's error (sticky on |cs|), CZ_EINVAL (not a fork
 * of |cs|, or finished, or one of the two omits c and the other not),
 * CZ_ENOMEM.
 */
int cz_cs_fork(cz_cs_t **out, const cz_cs_t *parent, cz_ctx_t *ctx);
int cz_cs_extend(cz_cs_t *cs, cz_cs_t *fork);

/*
 * In-place forks (PROVE), for parts whose size is known beforehand (every
 * PoRep challenge of a partition has the same shape): the fork's own
 * variables and rows are written straight into |parent|'s arrays where
 * cz_cs_extend would have copied them, so extending copies nothing but
 * density bits (a copying fork of a 32GiB challenge moved ~0.7 GB twice
 * and faulted its pages twice). |at| says where, past the parent's
 * current ends, the fork's own inputs, aux and rows start, and exactly
 * how many it will have; the fork's variable ids are the final ones.
 * Forks of one parent take disjoint slots in the order they are extended
 * (slot k starts where slot k-1 ends); ids in another fork's slot are not
 * theirs to use. The parent must be a root cs (not a fork) with the room
 * reserved (cz_cs_reserve), and must not change while any of its forks is
 * being synthesized; extend them (or free them) once all are done.
 * cz_cs_extend of an in-place fork checks that it filled its slot exactly
 * and that the slots before it were extended (CZ_EINVAL otherwise); a fork
 * that outgrows its slot fails with CZ_EINTERNAL. A fork of an in-place
 * fork is an ordinary (copying) fork.
 * Returns CZ_OK, CZ_EINVAL (not PROVE, a fork or finished parent, no
 * room) or CZ_ENOMEM.
 */
typedef struct {
    size_t inputs, aux, rows;       /* where the slot starts, past the parent's ends */
    size_t n_inputs, n_aux, n_rows; /* the fork's own counts, exactly */
} cz_cs_slot_t;

int cz_cs_fork_at(cz_cs_t **out, cz_cs_t *parent, const cz_cs_slot_t *at, cz_ctx_t *ctx);

#endif /* CUZK_CS_CS_H */
