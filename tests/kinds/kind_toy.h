/*
 * tests/kinds/kind_toy.h — "toy-proof", a test's job kind (kind_toy.c):
 * registered at run time by test_kinds.c to show every door takes a kind
 * from the table. Input: the seed as decimal text; params "toy".
 */
#ifndef CUZK_TESTS_KIND_TOY_H
#define CUZK_TESTS_KIND_TOY_H

#include "kinds/kinds.h"

extern const cz_job_kind_t cz_test_kind_toy;

#endif /* CUZK_TESTS_KIND_TOY_H */
