/*
 * tests/core/test_hex.c — hex round trip, either case accepted, bad digits
 * and short input refused.
 */
#include "core/hex.h"
#include "cz_test.h"

CZ_TEST(round_trip_and_case)
{
    const uint8_t in[5] = { 0x00, 0x0f, 0xa5, 0xff, 0x10 };
    char hex[11];
    cz_hex_encode(hex, in, sizeof in);
    CHECK_EQ_STR(hex, "000fa5ff10");
    uint8_t out[5];
    CHECK(cz_hex_decode(out, hex, sizeof out));
    CHECK_MEM_EQ(out, in, sizeof in);
    CHECK(cz_hex_decode(out, "000FA5FF10", sizeof out));
    CHECK_MEM_EQ(out, in, sizeof in);
}

CZ_TEST(bad_digits_and_short_input_refused)
{
    uint8_t out[2];
    CHECK(!cz_hex_decode(out, "0g12", 2));
    CHECK(!cz_hex_decode(out, "12", 2)); /* the NUL is not a digit */
    CHECK(!cz_hex_decode(out, "1 23", 2));
    CHECK(cz_hex_decode(out, "", 0));
}

CZ_TEST_MAIN()
