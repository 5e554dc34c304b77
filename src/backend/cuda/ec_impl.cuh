/*
 * backend/cuda/ec_impl.cuh — short-Weierstrass (a = 0) point formulas, written
 * once for G1 (over Fp) and G2 (over Fp2). A "template by inclusion" (no
 * include guard): ec.cuh defines
 *   CZ_EF        the coordinate field type (cz_dfp or cz_dfp2)
 *   CZ_EFN(x)    its function prefix (cz_dfp_##x)
 *   CZ_EP(x)     the point prefix (cz_g1_##x)
 * Types declared: CZ_EP(aff) {X, Y} (blst_p1_affine bytes; (0,0) is the
 * point at infinity, as in blst), CZ_EP(jac) {X, Y, Z} (blst_p1 bytes,
 * x = X/Z^2, y = Y/Z^3, Z = 0 at infinity), CZ_EP(xyzz) {X, Y, ZZ, ZZZ}
 * (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2, ZZ = 0 at infinity).
 *
 * Formulas: the Explicit-Formulas Database (hyperelliptic.org/EFD, g1p,
 * "shortw-jacobian-0" and "shortw-xyzz"); costs in M (mul) and S (square).
 * The special cases (infinity, P == Q, P == -Q) are handled by branches,
 * so these are not constant time: public data only.
 */

typedef struct { CZ_EF X, Y; } CZ_EP(aff);
typedef struct { CZ_EF X, Y, Z; } CZ_EP(jac);
typedef struct { CZ_EF X, Y, ZZ, ZZZ; } CZ_EP(xyzz);

#define F_(x) CZ_EFN(x)

CZ__DI bool CZ_EP(aff_is_inf)(const CZ_EP(aff) p) { return F_(is_zero)(p.X) && F_(is_zero)(p.Y); }

CZ__DI CZ_EP(jac) CZ_EP(jac_inf)(void)
{ CZ_EP(jac) r = { F_(one)(), F_(one)(), F_(zero)() }; return r; }

CZ__DI CZ_EP(xyzz) CZ_EP(xyzz_inf)(void)
{ CZ_EP(xyzz) r = { F_(one)(), F_(one)(), F_(zero)(), F_(zero)() }; return r; }

CZ__DI CZ_EP(jac) CZ_EP(jac_from_aff)(const CZ_EP(aff) p)
{
    if (CZ_EP(aff_is_inf)(p)) return CZ_EP(jac_inf)();
    CZ_EP(jac) r = { p.X, p.Y, F_(one)() };
    return r;
}

CZ__DI CZ_EP(xyzz) CZ_EP(xyzz_from_aff)(const CZ_EP(aff) p)
{
    if (CZ_EP(aff_is_inf)(p)) return CZ_EP(xyzz_inf)();
    CZ_EP(xyzz) r = { p.X, p.Y, F_(one)(), F_(one)() };
    return r;
}

/* ---- Jacobian ------------------------------------------------------------ */

/* dbl-2009-l, 2M + 5S. */
CZ__DI CZ_EP(jac) CZ_EP(jac_dbl)(const CZ_EP(jac) p)
{
    CZ_EF A = F_(sqr)(p.X);                                    /* A = X1^2 */
    CZ_EF B = F_(sqr)(p.Y);                                    /* B = Y1^2 */
    CZ_EF C = F_(sqr)(B);                                      /* C = B^2 */
    CZ_EF D = F_(sub)(F_(sub)(F_(sqr)(F_(add)(p.X, B)), A), C);
    D = F_(dbl)(D);                                            /* D = 2((X1+B)^2-A-C) */
    CZ_EF E = F_(add)(F_(dbl)(A), A);                          /* E = 3A */
    CZ_EF Fv = F_(sqr)(E);                                     /* F = E^2 */
    CZ_EP(jac) r;
    r.X = F_(sub)(Fv, F_(dbl)(D));                             /* X3 = F-2D */
    CZ_EF C8 = F_(dbl)(F_(dbl)(F_(dbl)(C)));
    r.Y = F_(sub)(F_(mul)(E, F_(sub)(D, r.X)), C8);            /* Y3 = E(D-X3)-8C */
    r.Z = F_(dbl)(F_(mul)(p.Y, p.Z));                          /* Z3 = 2 Y1 Z1 */
    return r;
}

/* add-2007-bl, 11M + 5S; complete (infinity, doubling, P + -P). */
CZ__DI CZ_EP(jac) CZ_EP(jac_add)(const CZ_EP(jac) p, const CZ_EP(jac) q)
{
    if (F_(is_zero)(p.Z)) return q;
    if (F_(is_zero)(q.Z)) return p;
    CZ_EF Z1Z1 = F_(sqr)(p.Z);
    CZ_EF Z2Z2 = F_(sqr)(q.Z);
    CZ_EF U1 = F_(mul)(p.X, Z2Z2);
    CZ_EF U2 = F_(mul)(q.X, Z1Z1);
    CZ_EF S1 = F_(mul)(F_(mul)(p.Y, q.Z), Z2Z2);
    CZ_EF S2 = F_(mul)(F_(mul)(q.Y, p.Z), Z1Z1);
    CZ_EF H = F_(sub)(U2, U1);
    CZ_EF rr = F_(dbl)(F_(sub)(S2, S1));
    if (F_(is_zero)(H))
        return F_(is_zero)(rr) ? CZ_EP(jac_dbl)(p) : CZ_EP(jac_inf)();
    CZ_EF I = F_(sqr)(F_(dbl)(H));                             /* I = (2H)^2 */
    CZ_EF J = F_(mul)(H, I);
    CZ_EF V = F_(mul)(U1, I);
    CZ_EP(jac) r;
    r.X = F_(sub)(F_(sub)(F_(sqr)(rr), J), F_(dbl)(V));        /* X3 = r^2-J-2V */
    r.Y = F_(sub)(F_(mul)(rr, F_(sub)(V, r.X)), F_(dbl)(F_(mul)(S1, J)));
    CZ_EF Z = F_(sub)(F_(sub)(F_(sqr)(F_(add)(p.Z, q.Z)), Z1Z1), Z2Z2);
    r.Z = F_(mul)(Z, H);                                       /* Z3 = ((Z1+Z2)^2-Z1Z1-Z2Z2)H */
    return r;
}

/* madd-2007-bl, 7M + 4S: p + q with q affine. */
CZ__DI CZ_EP(jac) CZ_EP(jac_madd)(const CZ_EP(jac) p, const CZ_EP(aff) q)
{
    if (CZ_EP(aff_is_inf)(q)) return p;
    if (F_(is_zero)(p.Z)) return CZ_EP(jac_from_aff)(q);
    CZ_EF Z1Z1 = F_(sqr)(p.Z);
    CZ_EF U2 = F_(mul)(q.X, Z1Z1);
    CZ_EF S2 = F_(mul)(F_(mul)(q.Y, p.Z), Z1Z1);
    CZ_EF H = F_(sub)(U2, p.X);
    CZ_EF rr = F_(dbl)(F_(sub)(S2, p.Y));
    if (F_(is_zero)(H))
        return F_(is_zero)(rr) ? CZ_EP(jac_dbl)(p) : CZ_EP(jac_inf)();
    CZ_EF HH = F_(sqr)(H);
    CZ_EF I = F_(dbl)(F_(dbl)(HH));                            /* I = 4 HH */
    CZ_EF J = F_(mul)(H, I);
    CZ_EF V = F_(mul)(p.X, I);
    CZ_EP(jac) r;
    r.X = F_(sub)(F_(sub)(F_(sqr)(rr), J), F_(dbl)(V));
    r.Y = F_(sub)(F_(mul)(rr, F_(sub)(V, r.X)), F_(dbl)(F_(mul)(p.Y, J)));
    r.Z = F_(sub)(F_(sub)(F_(sqr)(F_(add)(p.Z, H)), Z1Z1), HH);  /* Z3 = (Z1+H)^2-Z1Z1-HH */
    return r;
}

/* ---- XYZZ ---------------------------------------------------------------- */

/* dbl-2008-s-1, 6M + 4S. */
CZ__DI CZ_EP(xyzz) CZ_EP(xyzz_dbl)(const CZ_EP(xyzz) p)
{
    CZ_EF U = F_(dbl)(p.Y);                                    /* U = 2Y1 */
    CZ_EF V = F_(sqr)(U);                                      /* V = U^2 */
    CZ_EF W = F_(mul)(U, V);                                   /* W = U V */
    CZ_EF S = F_(mul)(p.X, V);                                 /* S = X1 V */
    CZ_EF X2 = F_(sqr)(p.X);
    CZ_EF M = F_(add)(F_(dbl)(X2), X2);                        /* M = 3 X1^2 */
    CZ_EP(xyzz) r;
    r.X = F_(sub)(F_(sqr)(M), F_(dbl)(S));                     /* X3 = M^2-2S */
    r.Y = F_(sub)(F_(mul)(M, F_(sub)(S, r.X)), F_(mul)(W, p.Y)); /* Y3 = M(S-X3)-W Y1 */
    r.ZZ = F_(mul)(V, p.ZZ);
    r.ZZZ = F_(mul)(W, p.ZZZ);
    return r;
}

/* add-2008-s, 12M + 2S; complete. */
CZ__DI CZ_EP(xyzz) CZ_EP(xyzz_add)(const CZ_EP(xyzz) p, const CZ_EP(xyzz) q)
{
    if (F_(is_zero)(p.ZZ)) return q;
    if (F_(is_zero)(q.ZZ)) return p;
    CZ_EF U1 = F_(mul)(p.X, q.ZZ);
    CZ_EF U2 = F_(mul)(q.X, p.ZZ);
    CZ_EF S1 = F_(mul)(p.Y, q.ZZZ);
    CZ_EF S2 = F_(mul)(q.Y, p.ZZZ);
    CZ_EF P = F_(sub)(U2, U1);
    CZ_EF R = F_(sub)(S2, S1);
    if (F_(is_zero)(P))
        return F_(is_zero)(R) ? CZ_EP(xyzz_dbl)(p) : CZ_EP(xyzz_inf)();
    CZ_EF PP = F_(sqr)(P);
    CZ_EF PPP = F_(mul)(P, PP);
    CZ_EF Q = F_(mul)(U1, PP);
    CZ_EP(xyzz) r;
    r.X = F_(sub)(F_(sub)(F_(sqr)(R), PPP), F_(dbl)(Q));       /* X3 = R^2-PPP-2Q */
    r.Y = F_(sub)(F_(mul)(R, F_(sub)(Q, r.X)), F_(mul)(S1, PPP));
    r.ZZ = F_(mul)(F_(mul)(p.ZZ, q.ZZ), PP);
    r.ZZZ = F_(mul)(F_(mul)(p.ZZZ, q.ZZZ), PPP);
    return r;
}

/*
 * madd-2008-s, 8M + 2S: p + q with q affine; complete. Written once over
 * the field operations it is given: xyzz_madd on reduced coordinates, and
 * xyzz_madd_lz on lazy ones (in [0, 2p), the _lz field operations): p lazy,
 * q fully reduced, the result lazy, reduced by xyzz_canon. The G1 MSM's
 * hot loops chain the lazy one and reduce once a bucket.
 */
#define CZ__XYZZ_MADD(NAME, MUL, SQR, SUB, DBL, IS_ZERO, MUL2SUB)                \
    CZ__DI CZ_EP(xyzz) NAME(const CZ_EP(xyzz) p, const CZ_EP(aff) q)             \
    {                                                                          \
        if (CZ_EP(aff_is_inf)(q)) return p;                                    \
        if (IS_ZERO(p.ZZ)) return CZ_EP(xyzz_from_aff)(q);                     \
        CZ_EF U2 = MUL(q.X, p.ZZ);                                             \
        CZ_EF S2 = MUL(q.Y, p.ZZZ);                                            \
        CZ_EF P = SUB(U2, p.X);                                                \
        CZ_EF R = SUB(S2, p.Y);                                                \
        if (IS_ZERO(P))                                                        \
            return IS_ZERO(R) ? CZ_EP(xyzz_dbl)(CZ_EP(xyzz_from_aff)(q)) : CZ_EP(xyzz_inf)(); \
        CZ_EF PP = SQR(P);                                                     \
        CZ_EF PPP = MUL(P, PP);                                                \
        CZ_EF Q = MUL(p.X, PP);                                                \
        CZ_EP(xyzz) r;                                                         \
        r.X = SUB(SUB(SQR(R), PPP), DBL(Q));                                   \
        r.Y = MUL2SUB(R, SUB(Q, r.X), p.Y, PPP);         /* R(Q-X3) - Y1 PPP */ \
        r.ZZ = MUL(p.ZZ, PP);                                                  \
        r.ZZZ = MUL(p.ZZZ, PPP);                                               \
        return r;                                                              \
    }

/*
 * a b - c d: two reductions over the reduced operations; over the lazy ones
 * one reduction for both products where the field has it (Fp: mul2_sub_lz,
 * mont_impl.cuh). For Fp2 the same sharing inside Karatsuba was measured
 * slower (register pressure; docs/PERFORMANCE.md), so G2 keeps two.
 */
#define CZ__MUL2SUB(a, b, c, d) F_(sub)(F_(mul)(a, b), F_(mul)(c, d))
#ifdef CZ_EF_HAS_MUL2SUB
#define CZ__MUL2SUB_LZ(a, b, c, d) F_(mul2_sub_lz)(a, b, c, d)
#else
#define CZ__MUL2SUB_LZ(a, b, c, d) F_(sub_lz)(F_(mul_lz)(a, b), F_(mul_lz)(c, d))
#endif
CZ__XYZZ_MADD(CZ_EP(xyzz_madd), F_(mul), F_(sqr), F_(sub), F_(dbl), F_(is_zero), CZ__MUL2SUB)
CZ__XYZZ_MADD(CZ_EP(xyzz_madd_lz), F_(mul_lz), F_(sqr_lz), F_(sub_lz), F_(dbl_lz), F_(is_zero_lz),
              CZ__MUL2SUB_LZ)
#undef CZ__XYZZ_MADD
#undef CZ__MUL2SUB
#undef CZ__MUL2SUB_LZ

CZ__DI CZ_EP(xyzz) CZ_EP(xyzz_canon)(const CZ_EP(xyzz) p)
{
    CZ_EP(xyzz) r = { F_(canon)(p.X), F_(canon)(p.Y), F_(canon)(p.ZZ), F_(canon)(p.ZZZ) };
    return r;
}

/* ---- affine ---------------------------------------------------------------- */

/*
 * p + q in affine coordinates given inv = (xq - xp)^-1, or (2 yp)^-1 when
 * p == q: the step of a batch addition, where one inversion is shared by
 * many sums (Montgomery's trick). lambda = (yq-yp)*inv or 3xp^2*inv;
 * x3 = lambda^2 - xp - xq, y3 = lambda (xp - x3) - yp. 1M + 1S (+2M doubling).
 * The caller handles infinity and p == -q (no inverse exists there).
 */
CZ__DI CZ_EP(aff) CZ_EP(aff_add_inv)(const CZ_EP(aff) p, const CZ_EP(aff) q, const CZ_EF inv)
{
    CZ_EF lambda;
    if (F_(eq)(p.X, q.X)) {
        CZ_EF x2 = F_(sqr)(p.X);
        lambda = F_(mul)(F_(add)(F_(dbl)(x2), x2), inv);
    } else {
        lambda = F_(mul)(F_(sub)(q.Y, p.Y), inv);
    }
    CZ_EP(aff) r;
    r.X = F_(sub)(F_(sub)(F_(sqr)(lambda), p.X), q.X);
    r.Y = F_(sub)(F_(mul)(lambda, F_(sub)(p.X, r.X)), p.Y);
    return r;
}

/* p + q in affine coordinates with its own inversion; complete. */
CZ__DI CZ_EP(aff) CZ_EP(aff_add)(const CZ_EP(aff) p, const CZ_EP(aff) q)
{
    if (CZ_EP(aff_is_inf)(p)) return q;
    if (CZ_EP(aff_is_inf)(q)) return p;
    CZ_EF d;
    if (F_(eq)(p.X, q.X)) {
        if (!F_(eq)(p.Y, q.Y) || F_(is_zero)(p.Y)) {
            CZ_EP(aff) inf = { F_(zero)(), F_(zero)() };
            return inf;
        }
        d = F_(dbl)(p.Y);
    } else {
        d = F_(sub)(q.X, p.X);
    }
    return CZ_EP(aff_add_inv)(p, q, F_(inverse)(d));
}

#undef F_
