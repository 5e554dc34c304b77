/*
 * circuits/update/update_int.h — private to src/circuits/update.
 */
#ifndef CUZK_CIRCUITS_UPDATE_UPDATE_INT_H
#define CUZK_CIRCUITS_UPDATE_UPDATE_INT_H

#include "circuits/update/update.h"
#include "gadgets/por.h"

/* Return the code of |expr| when it is not CZ_OK. */
#define CZ__UTRY(expr)                                                        \
    do {                                                                      \
        int cz__rc_ = (expr);                                                 \
        if (cz__rc_)                                                          \
            return cz__rc_;                                                   \
    } while (0)

/* The TreeR and TreeD (whole, below the apex, partition) shapes of |p|. */
typedef struct {
    cz_por_shape_t r, d, d_apex, d_partition;
} cz__update_shapes_t;

int cz__update_shapes(cz__update_shapes_t *out, const cz_update_params_t *p);

#endif /* CUZK_CIRCUITS_UPDATE_UPDATE_INT_H */
