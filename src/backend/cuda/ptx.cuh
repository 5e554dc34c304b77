/*
 * backend/cuda/ptx.cuh — 32-bit carry-chain primitives as inline PTX.
 *
 * Each wrapper is one PTX instruction. The ".cc" forms write the carry flag
 * and the "c" forms read it, so a chain of these calls written back to back
 * is one multi-word addition. The statements are `volatile` so the compiler
 * keeps their order; nothing else that touches the flag may sit inside a chain.
 * (PTX ISA, "Extended-Precision Integer Arithmetic Instructions".)
 */
#ifndef CUZK_BACKEND_CUDA_PTX_CUH
#define CUZK_BACKEND_CUDA_PTX_CUH

#include <stdint.h>

#define CZ__DI static __device__ __forceinline__

CZ__DI uint32_t cz__add_cc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
CZ__DI uint32_t cz__addc_cc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
CZ__DI uint32_t cz__addc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
CZ__DI uint32_t cz__sub_cc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
CZ__DI uint32_t cz__subc_cc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }
CZ__DI uint32_t cz__subc(uint32_t a, uint32_t b)
{ uint32_t r; asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b)); return r; }

/* r = lo(a*b) + c (+ carry) */
CZ__DI uint32_t cz__madlo_cc(uint32_t a, uint32_t b, uint32_t c)
{ uint32_t r; asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
CZ__DI uint32_t cz__madclo_cc(uint32_t a, uint32_t b, uint32_t c)
{ uint32_t r; asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
/* r = hi(a*b) + c (+ carry) */
CZ__DI uint32_t cz__madhi_cc(uint32_t a, uint32_t b, uint32_t c)
{ uint32_t r; asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
CZ__DI uint32_t cz__madchi_cc(uint32_t a, uint32_t b, uint32_t c)
{ uint32_t r; asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }
CZ__DI uint32_t cz__madchi(uint32_t a, uint32_t b, uint32_t c)
{ uint32_t r; asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); return r; }

#endif /* CUZK_BACKEND_CUDA_PTX_CUH */
