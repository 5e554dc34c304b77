/*
 * ec/affine_ifma_kernel.h — the batched affine addition kernel of the IFMA
 * backend, written once for Fp (G1) and Fp2 (G2): a template included by
 * ec/affine_ifma.c after defining
 *
 *   K_FE            the field vector type (fv or fv2)
 *   K_PT            the stored point type ({ x, y } of K_FE's limbs)
 *   K_NAME(x)       x with the group's suffix
 *   K_GROUPS        8-lane groups per inversion
 *   K_MUL, K_SQR, K_ADD, K_SUB, K_CANON, K_CNEG, K_EQ   field operations
 *   K_ONE(r)        r = 1 in every lane
 *   K_INV(r, a)     r = 1/a lane by lane
 *   K_LOAD, K_STORE rows of 8 points <-> limb vectors
 *   K_DUMMY         two stored points with distinct x (unused lanes)
 *
 * Per 8-lane group, forward: load A and B (signs applied), d = x_B - x_A,
 * prefix products; one inversion; backward: 1/d_g, l, x3, y3, store. Pairs
 * with x_A == x_B get d = 1 and no store, then are doubled by a second call
 * in doubling mode (l = 3 x^2 / 2 y) or reported as the point at infinity.
 */

/* per group: the denominators, the prefix products, the operands */
typedef struct {
    K_FE d, pre, xa, ya, xb, yb;
} K_NAME(group_data);

typedef struct {
    K_NAME(group_data) g[K_GROUPS];
    uint64_t out[K_GROUPS][8];      /* lane destinations */
    __mmask8 wmask[K_GROUPS];       /* lanes to write */
    uint32_t exc[8 * K_GROUPS];     /* pairs with x_A == x_B */
    cz__aff_pair dbl[8 * K_GROUPS]; /* the doublings among them */
} K_NAME(scratch);

/*
 * n <= 8 * K_GROUPS pairs, inf[0..n) zero; sets inf[i] for the pairs that
 * cancel. |dbl|: every pair is A + A (only a is read, inf unused).
 */
static TGT void K_NAME(kernel)(const cz__aff_pair *pairs, size_t n, uint8_t *inf,
                               K_NAME(scratch) * s, bool dbl)
{
    size_t groups = (n + 7) / 8, nexc = 0;
    K_FE acc;
    K_ONE(&acc);
    for (size_t g = 0; g < groups; g++) {
        K_NAME(group_data) *gd = &s->g[g];
        uint64_t ra[8], rb[8];
        unsigned na = 0, nb = 0, valid = 0;
        for (size_t j = 0; j < 8; j++) {
            size_t i = 8 * g + j;
            if (i < n) {
                ra[j] = pairs[i].a & ~(uintptr_t)1;
                rb[j] = pairs[i].b & ~(uintptr_t)1;
                s->out[g][j] = (uintptr_t)pairs[i].out;
                na |= (unsigned)(pairs[i].a & 1) << j;
                nb |= (unsigned)(pairs[i].b & 1) << j;
                valid |= 1u << j;
            } else {
                ra[j] = (uintptr_t)&K_DUMMY[0];
                rb[j] = (uintptr_t)&K_DUMMY[1];
                s->out[g][j] = (uintptr_t)&K_DUMMY[0]; /* never written: masked */
            }
        }
        if (g + 2 < groups) { /* the rows two groups ahead */
            for (size_t i = 8 * (g + 2); i < 8 * (g + 3) && i < n; i++) {
                const char *pa = (const char *)(pairs[i].a & ~(uintptr_t)1);
                const char *pb = (const char *)(pairs[i].b & ~(uintptr_t)1);
                for (size_t off = 0; off < sizeof(K_PT); off += 64) {
                    _mm_prefetch(pa + off, _MM_HINT_T0);
                    _mm_prefetch(pb + off, _MM_HINT_T0);
                }
            }
        }
        __mmask8 eq = 0;
        K_LOAD(&gd->xa, &gd->ya, ra);
        K_CNEG(&gd->ya, (__mmask8)na);
        if (dbl) {
            gd->xb = gd->xa;
            gd->yb = gd->ya;
            K_ADD(&gd->d, &gd->ya, &gd->ya); /* 2y */
        } else {
            K_LOAD(&gd->xb, &gd->yb, rb);
            K_CNEG(&gd->yb, (__mmask8)nb);
            K_SUB(&gd->d, &gd->xb, &gd->xa, P52); /* xB - xA + p */
            eq = K_EQ(&gd->xa, &gd->xb) & (__mmask8)valid;
            if (eq) {
                K_FE one;
                K_ONE(&one);
                vec *dl = (vec *)&gd->d;
                const vec *ol = (const vec *)&one;
                for (size_t i = 0; i < sizeof(K_FE) / sizeof(vec); i++)
                    dl[i] = _mm512_mask_blend_epi64(eq, dl[i], ol[i]);
                for (unsigned j = 0; j < 8; j++)
                    if (eq >> j & 1)
                        s->exc[nexc++] = (uint32_t)(8 * g + j);
            }
        }
        gd->pre = acc;
        K_MUL(&acc, &acc, &gd->d);
        s->wmask[g] = (__mmask8)valid & (__mmask8)~eq;
    }
    K_FE inv;
    K_INV(&inv, &acc);
    for (size_t g = groups; g-- > 0;) {
        K_NAME(group_data) *gd = &s->g[g];
        K_FE id, num, l, x3, y3, t;
        K_MUL(&id, &inv, &gd->pre); /* 1/d_g */
        K_MUL(&inv, &inv, &gd->d);
        if (dbl) {
            K_SQR(&num, &gd->xa);
            K_ADD(&t, &num, &num);
            K_ADD(&num, &t, &num); /* 3x^2 < 6p */
        } else {
            K_SUB(&num, &gd->yb, &gd->ya, P52); /* yB - yA + p */
        }
        K_MUL(&l, &num, &id);
        K_SQR(&t, &l);
        K_SUB(&x3, &t, &gd->xa, P52);
        K_SUB(&x3, &x3, &gd->xb, P52); /* l^2 - xA - xB + 2p < 4p */
        K_CANON(&x3, &x3);
        K_SUB(&t, &gd->xa, &x3, P52); /* xA - x3 + p */
        K_MUL(&t, &t, &l);
        K_SUB(&y3, &t, &gd->ya, P52); /* l(xA - x3) - yA + p < 3p */
        K_CANON(&y3, &y3);
        K_STORE(s->out[g], &x3, &y3, s->wmask[g]);
    }
    if (dbl)
        return;
    size_t ndbl = 0;
    for (size_t e = 0; e < nexc; e++) {
        const cz__aff_pair *pr = &pairs[s->exc[e]];
        const K_PT *a = (const K_PT *)(pr->a & ~(uintptr_t)1);
        const K_PT *b = (const K_PT *)(pr->b & ~(uintptr_t)1);
        /* x equal, so y_A = +-y_B: A' == B' when that sign matches the refs' */
        bool same_y = memcmp(a->y, b->y, sizeof a->y) == 0;
        if (same_y == ((pr->a & 1) == (pr->b & 1)))
            s->dbl[ndbl++] = *pr;
        else
            inf[s->exc[e]] = 1;
    }
    if (ndbl)
        K_NAME(kernel)(s->dbl, ndbl, NULL, s, true);
}

static void K_NAME(add_pairs)(const cz__aff_pair *pairs, size_t n, uint8_t *inf, void *scratch)
{
    K_NAME(scratch) *s = (K_NAME(scratch) *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    for (size_t at = 0; at < n; at += 8 * K_GROUPS) {
        size_t m = n - at < 8 * K_GROUPS ? n - at : 8 * K_GROUPS;
        memset(inf + at, 0, m);
        K_NAME(kernel)(pairs + at, m, inf + at, s, false);
    }
}
