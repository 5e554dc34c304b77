/*
 * circuits/post/post_int.h — private to src/circuits/post: the pieces the
 * sequential (fallback.c) and the parallel (parallel.c) synthesis share.
 */
#ifndef CUZK_CIRCUITS_POST_POST_INT_H
#define CUZK_CIRCUITS_POST_POST_INT_H

#include "circuits/post/fallback.h"
#include "gadgets/num.h"
#include "gadgets/por.h"

/* Return the code of |expr| when it is not CZ_OK. */
/* laid out by hand: */
/* clang-format off */
#define CZ__QTRY(expr)                                                        \
    do {                                                                      \
        int cz__rc_ = (expr);                                                 \
        if (cz__rc_)                                                          \
            return cz__rc_;                                                   \
    } while (0)
/* clang-format on */

/* The tree_r_last shape of |p|; CZ_EINVAL when |p| is not a configuration. */
int cz__post_shape(cz_por_shape_t *out, const cz_post_params_t *p);

/* Check params and witness (shape into *s); a NULL |w| only outside the
 * value modes. CZ_OK or CZ_EINVAL. */
int cz__post_validate(cz_cs_t *cs, const cz_post_params_t *p, const cz_post_witness_t *w,
                      cz_por_shape_t *s);

/* Sector::synthesize of circuit sector |i| within "sector_i"; |sec| may be
 * NULL in SHAPE/KEYGEN. */
int cz__post_sector(cz_cs_t *cs, const cz_post_params_t *p, const cz_por_shape_t *s, unsigned i,
                    const cz_post_sector_t *sec);

/* The root a path leads to: |leaf| at |index| hashed up with |siblings|. */
int cz__post_path_root(cz_fr *root, const cz_por_shape_t *s, uint64_t index, const cz_fr *leaf,
                       const cz_fr *siblings);

#endif /* CUZK_CIRCUITS_POST_POST_INT_H */
