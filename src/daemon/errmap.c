/*
 * daemon/errmap.c — the API error table and the CZ_E* mapping (see
 * daemon/errmap.h).
 */
#include "daemon/errmap.h"

#include "cuzk/error.h"

static const cz_api_err_info_t ERRORS[CZ_API_E__COUNT] = {
#define CZ__API_ERR_ROW(id, http, name, grpc, when) [CZ_API_E_##id] = { http, name, grpc, when },
    CZ_API_ERRORS(CZ__API_ERR_ROW)
#undef CZ__API_ERR_ROW
};

const cz_api_err_info_t *cz_api_err_info(cz_api_err_t e)
{
    return (unsigned)e < CZ_API_E__COUNT ? &ERRORS[e] : &ERRORS[CZ_API_E_INTERNAL];
}

cz_api_err_t cz_errmap_of(int rc, cz_errmap_ctx_t where)
{
    switch (rc) {
#define CZ__ERRMAP_CASE(code, request, params) \
    case CZ_E##code: return where == CZ_ERRMAP_PARAMS ? CZ_API_E_##params : CZ_API_E_##request;
        CZ_ERRMAP_CODES(CZ__ERRMAP_CASE)
#undef CZ__ERRMAP_CASE
    }
    return CZ_API_E_INTERNAL;
}

int cz_errmap_grpc(int rc, cz_errmap_ctx_t where)
{
    return cz_api_err_info(cz_errmap_of(rc, where))->grpc;
}

const char *cz_grpc_code_name(int code)
{
    switch (code) {
    case CZ_GRPC_CANCELLED: return "CANCELLED";
    case CZ_GRPC_INVALID_ARGUMENT: return "INVALID_ARGUMENT";
    case CZ_GRPC_NOT_FOUND: return "NOT_FOUND";
    case CZ_GRPC_ALREADY_EXISTS: return "ALREADY_EXISTS";
    case CZ_GRPC_RESOURCE_EXHAUSTED: return "RESOURCE_EXHAUSTED";
    case CZ_GRPC_FAILED_PRECONDITION: return "FAILED_PRECONDITION";
    case CZ_GRPC_ABORTED: return "ABORTED";
    case CZ_GRPC_UNIMPLEMENTED: return "UNIMPLEMENTED";
    case CZ_GRPC_INTERNAL: return "INTERNAL";
    case CZ_GRPC_UNAVAILABLE: return "UNAVAILABLE";
    case CZ_GRPC_DATA_LOSS: return "DATA_LOSS";
    case CZ_GRPC_UNAUTHENTICATED: return "UNAUTHENTICATED";
    }
    return "UNKNOWN";
}

/* Every CZ_E* code but CZ_OK has its row in CZ_ERRMAP_CODES. */
#define CZ__COUNT_ROW(...) +1
_Static_assert(0 CZ_ERRMAP_CODES(CZ__COUNT_ROW) == 0 CZ_ERRNO_MAP(CZ__COUNT_ROW) - 1,
               "CZ_ERRMAP_CODES must map every CZ_E* code");
#undef CZ__COUNT_ROW
