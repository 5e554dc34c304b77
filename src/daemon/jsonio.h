/*
 * daemon/jsonio.h — the JSON forms of the daemon core's structs
 * (daemon/server.h): a submit request as the HTTP API's body and the
 * journal's ID.job "request" hold it, a job's status as GET /v1/proofs/{id}
 * shows it, the public inputs as 0x-hex. The HTTP door (api.c), the journal
 * (jobs.c writes, replay.c reads) and the gRPC door's kind maps (their
 * output is a request object, kinds/kinds.h) go through these; the core
 * itself takes and returns C structs.
 *
 * A request object: {"kind", "params", "priority" (1..4 or "low",
 * "normal", "high", "critical"), "request_id", "input" (a string: its
 * bytes; another JSON value: its compact text) or "input_path", and the
 * kind's own fields as further keys}. Its checks, in this order, with the
 * messages the HTTP API has always given: kind, priority, request_id's
 * type, params' type, input / input_path; the core checks the rest
 * (request_id's length, the file, the kind's fields and input).
 *
 * Ownership: cz_submit_from_json borrows from |o| (the input string is not
 * copied) and owns only what it had to write (fields text, a non-string
 * input's text): |o| must outlive out->req; cz_submit_json_free frees what
 * it owns. Every json_t returned is a new reference. Pure functions;
 * thread-safe. Errors: CZ_EINVAL naming the field, CZ_ENOMEM.
 */
#ifndef CUZK_DAEMON_JSONIO_H
#define CUZK_DAEMON_JSONIO_H

#include <jansson.h>

#include "daemon/server.h"

typedef struct cz_submit_json {
    cz_submit_req_t req; /* borrows from the object and from the two below */
    char *fields;        /* owned: the kind's fields, canonical text; NULL none */
    char *input;         /* owned: a non-string input's compact text; NULL none */
} cz_submit_json_t;

/* The request object |o| (any JSON value: not an object is refused) into *out; |s| for
 * the "known kinds" of the kind's message. On error *out holds nothing to free. */
int cz_submit_from_json(cz_ctx_t *ctx, cz_server_t *s, const json_t *o, cz_submit_json_t *out);
void cz_submit_json_free(cz_submit_json_t *j);
/* The kind's fields of |o| (every key but the common ones) as canonical text (compact,
 * keys sorted) in *out (malloc'd; NULL when there are none). CZ_ENOMEM. */
int cz_submit_fields_text(const json_t *o, char **out);

/* The request object of |req| for the journal (priority as the number, the input as a
 * string). CZ_EINVAL when the input is not UTF-8 text (a JSON string cannot hold it). */
int cz_submit_to_json(cz_ctx_t *ctx, const cz_submit_req_t *req, json_t **out);

/* The status object of GET /v1/proofs/{id} (docs/API.md); NULL: no memory. */
json_t *cz_job_status_json(const cz_job_status_t *st);

/* Public inputs (Fr reprs, partition-major) as one array of 0x-hex strings per
 * partition, and back: CZ_EFORMAT when |pub| is not that shape. */
json_t *cz_public_inputs_json(const uint8_t *inputs, size_t per, size_t parts);
int cz_public_inputs_from_json(const json_t *pub, uint8_t **inputs, size_t *per, size_t *parts);

/*
 * The HTTP body's input, lifted out (daemon/lift.c): in the JSON object
 * text |body| (|len| bytes, rewritten in place), the top-level member
 * "input" whose value is a string is decoded into *out (malloc'd,
 * NUL-terminated, *out_len bytes; the caller frees) and its value in
 * |body| becomes "" and blanks, the same length. Returns true when lifted;
 * false leaves |body| as it was (no such member, not a string, or text
 * this decoder leaves to jansson: its parse then answers as always). The
 * one copy the HTTP door makes of a C1 after its read (server.h).
 */
bool cz_json_lift_input(char *body, size_t len, char **out, size_t *out_len);

/* GET /v1/status's body (daemon/metrics.c; docs/API.md); NULL: no memory. */
json_t *cz_server_status_json(cz_server_t *s);

#endif /* CUZK_DAEMON_JSONIO_H */
