/*
 * daemon/grpc/unpack.h — cuzk.v1 SubmitProofRequest / ProveRequest
 * unpacked without protobuf-c copying vanilla_proof (field 10, PoRep's C1
 * wrapper: tens of MB). protobuf-c copies every bytes field it unpacks; so
 * the message's wire records are scanned first, the other records (a few
 * hundred bytes) unpacked by protobuf-c, and vanilla_proof set to point
 * into the message buffer itself (protobuf's rule kept: the last field 10
 * wins; several `submit` records of a ProveRequest merge, as protobuf
 * merges them). The request's bytes are then copied once between gRPC's
 * slices and the kind's parser, by the kind's Curio map (daemon/server.h
 * THE INPUT'S COPIES); gRPC's slices into one buffer is the other.
 *
 * Ownership: the message returned borrows |in| for vanilla_proof: |in| must
 * outlive it; free it with the matching _free below (never protobuf-c's
 * free_unpacked, which would free |in|'s bytes). NULL when |in| does not
 * parse as the message (whatever protobuf-c refuses, and a key or length
 * it would read truncated to 32 bits) or no memory.
 * Pure functions; thread-safe.
 */
#ifndef CUZK_DAEMON_GRPC_UNPACK_H
#define CUZK_DAEMON_GRPC_UNPACK_H

#include <stddef.h>
#include <stdint.h>

#include "proving.pb-c.h"

Cuzk__V1__SubmitProofRequest *cz__grpc_unpack_submit(const uint8_t *in, size_t len);
void cz__grpc_submit_free(Cuzk__V1__SubmitProofRequest *r);

Cuzk__V1__ProveRequest *cz__grpc_unpack_prove(const uint8_t *in, size_t len);
void cz__grpc_prove_free(Cuzk__V1__ProveRequest *r);

#endif /* CUZK_DAEMON_GRPC_UNPACK_H */
