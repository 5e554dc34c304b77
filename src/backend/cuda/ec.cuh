/*
 * backend/cuda/ec.cuh — G1 (over Fp) and G2 (over Fp2) point arithmetic on
 * the device: cz_g1_{aff,jac,xyzz} and cz_g2_{aff,jac,xyzz} with
 * jac_dbl/jac_add/jac_madd, xyzz_dbl/xyzz_add/xyzz_madd, aff_add(_inv).
 * The formulas are in ec_impl.cuh, instantiated here once per group. The
 * byte layouts of aff and jac equal blst_p1_affine/blst_p1 (and _p2).
 */
#ifndef CUZK_BACKEND_CUDA_EC_CUH
#define CUZK_BACKEND_CUDA_EC_CUH

#include "backend/cuda/field.cuh"

#define CZ_EF cz_dfp
#define CZ_EFN(x) cz_dfp_##x
#define CZ_EP(x) cz_g1_##x
#define CZ_EF_HAS_MUL2SUB 1      /* cz_dfp_mul2_sub_lz (mont_impl.cuh) */
#include "backend/cuda/ec_impl.cuh"
#undef CZ_EF_HAS_MUL2SUB
#undef CZ_EF
#undef CZ_EFN
#undef CZ_EP

#define CZ_EF cz_dfp2
#define CZ_EFN(x) cz_dfp2_##x
#define CZ_EP(x) cz_g2_##x
#include "backend/cuda/ec_impl.cuh"
#undef CZ_EF
#undef CZ_EFN
#undef CZ_EP

#endif /* CUZK_BACKEND_CUDA_EC_CUH */
