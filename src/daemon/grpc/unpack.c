/*
 * daemon/grpc/unpack.c — SubmitProofRequest / ProveRequest unpacked with
 * vanilla_proof borrowed from the message (see unpack.h).
 */
#include "daemon/grpc/unpack.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum { VANILLA_PROOF = 10, SUBMIT = 1, LEN = 2 /* length-delimited wire type */ };

/* A varint of at most |max| bytes (protobuf-c reads a key or a length in 5, a value in 10). */
static bool varint(const uint8_t *p, size_t n, size_t *i, uint64_t *v, unsigned max)
{
    uint64_t x = 0;
    for (unsigned s = 0; s < 7 * max && *i < n; s += 7) {
        uint8_t b = p[(*i)++];
        x |= (uint64_t)(b & 0x7f) << s;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

/* The record at p[*i] (*i moves past it): its field number and wire type and, when
 * length-delimited, its payload [*data, *data + *dlen). false: not wire format. */
static bool record(const uint8_t *p, size_t n, size_t *i, uint64_t *num, unsigned *wt, size_t *data,
                   size_t *dlen)
{
    uint64_t key, v;
    if (!varint(p, n, i, &key, 5))
        return false;
    *num = key >> 3;
    *wt = (unsigned)(key & 7);
    switch (*wt) {
    case 0: return varint(p, n, i, &v, 10);
    case 1:
    case 5: {
        size_t w = *wt == 1 ? 8 : 4;
        if (n - *i < w)
            return false;
        *i += w;
        return true;
    }
    case LEN:
        if (!varint(p, n, i, &v, 5) || v > n - *i)
            return false;
        *data = *i;
        *dlen = (size_t)v;
        *i += (size_t)v;
        return true;
    default: /* groups: protobuf-c refuses them too */ return false;
    }
}

/* A buffer written, or only measured when |b| is NULL. */
typedef struct {
    uint8_t *b;
    size_t n;
} out_t;

static void put(out_t *o, const void *p, size_t n)
{
    if (o->b)
        memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put_varint(out_t *o, uint64_t v)
{
    uint8_t t[10];
    size_t k = 0;
    do {
        t[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    put(o, t, k);
}

/* |p|'s records but vanilla_proof's into |o|; *vp the last vanilla_proof's payload. */
static bool strip_submit(const uint8_t *p, size_t n, out_t *o, ProtobufCBinaryData *vp)
{
    for (size_t i = 0; i < n;) {
        size_t start = i, d = 0, dl = 0;
        uint64_t num;
        unsigned wt;
        if (!record(p, n, &i, &num, &wt, &d, &dl))
            return false;
        if (num != VANILLA_PROOF) {
            put(o, p + start, i - start);
        } else if (wt != LEN) { /* protobuf-c refuses a bytes field of another type */
            return false;
        } else {
            vp->data = (uint8_t *)p + d;
            vp->len = dl;
        }
    }
    return true;
}

/* |p|'s records but submit's, then one submit: every submit's payload stripped, merged. */
static bool strip_prove(const uint8_t *p, size_t n, out_t *o, ProtobufCBinaryData *vp)
{
    size_t sub = 0; /* the merged submit's length */
    bool any = false;
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && any) { /* the merged submit's key and length */
            put_varint(o, (uint64_t)SUBMIT << 3 | LEN);
            put_varint(o, sub);
        }
        for (size_t i = 0; i < n;) {
            size_t start = i, d = 0, dl = 0;
            uint64_t num;
            unsigned wt;
            if (!record(p, n, &i, &num, &wt, &d, &dl))
                return false;
            if (num != SUBMIT) {
                if (pass == 0)
                    put(o, p + start, i - start);
                continue;
            }
            if (wt != LEN)
                return false;
            any = true;
            out_t m = { pass ? o->b : NULL, pass ? o->n : 0 };
            if (!strip_submit(p + d, dl, &m, vp))
                return false;
            if (pass == 0)
                sub += m.n;
            else
                o->n = m.n;
        }
    }
    return true;
}

typedef bool strip_fn(const uint8_t *p, size_t n, out_t *o, ProtobufCBinaryData *vp);

/* The message of |desc| from |in| but its vanilla_proof, which *vp then borrows from |in|. */
static ProtobufCMessage *unpack(const ProtobufCMessageDescriptor *desc, strip_fn *strip,
                                const uint8_t *in, size_t len, ProtobufCBinaryData *vp)
{
    out_t o = { NULL, 0 };
    *vp = (ProtobufCBinaryData){ 0, NULL };
    if (!strip(in, len, &o, vp))
        return NULL;
    if (!(o.b = malloc(o.n ? o.n : 1)))
        return NULL;
    o.n = 0;
    strip(in, len, &o, vp); /* the same records: it succeeds again */
    ProtobufCMessage *m = protobuf_c_message_unpack(desc, NULL, o.n, o.b);
    free(o.b);
    return m;
}

Cuzk__V1__SubmitProofRequest *cz__grpc_unpack_submit(const uint8_t *in, size_t len)
{
    ProtobufCBinaryData vp;
    Cuzk__V1__SubmitProofRequest *r = (Cuzk__V1__SubmitProofRequest *)
        unpack(&cuzk__v1__submit_proof_request__descriptor, strip_submit, in, len, &vp);
    if (r)
        r->vanilla_proof = vp;
    return r;
}

void cz__grpc_submit_free(Cuzk__V1__SubmitProofRequest *r)
{
    if (!r)
        return;
    r->vanilla_proof = (ProtobufCBinaryData){ 0, NULL }; /* borrowed */
    cuzk__v1__submit_proof_request__free_unpacked(r, NULL);
}

Cuzk__V1__ProveRequest *cz__grpc_unpack_prove(const uint8_t *in, size_t len)
{
    ProtobufCBinaryData vp;
    Cuzk__V1__ProveRequest *r = (Cuzk__V1__ProveRequest *)
        unpack(&cuzk__v1__prove_request__descriptor, strip_prove, in, len, &vp);
    if (r && r->submit)
        r->submit->vanilla_proof = vp;
    return r;
}

void cz__grpc_prove_free(Cuzk__V1__ProveRequest *r)
{
    if (!r)
        return;
    if (r->submit)
        r->submit->vanilla_proof = (ProtobufCBinaryData){ 0, NULL };
    cuzk__v1__prove_request__free_unpacked(r, NULL);
}
