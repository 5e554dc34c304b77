/*
 * tests/backend/test_devplan.c — the device-memory planner (backend/devplan.h)
 * over card sizes, without a GPU.
 *
 * The shape is a 32GiB PoRep partition's: the params vectors' lengths of
 * bench:130278869 (docs/PERFORMANCE.md: h 134217727, l 130278852, a
 * 129887331, b_g1 = b_g2 33083703 points; 96-byte G1, 192-byte G2 affine
 * points), the H context at 2^27 (three 4 GiB buffers + 3.5 MiB of tables,
 * cuda.h), MSM workspaces for chunks of 2^24, 2^22 and 2^20 terms (5.7,
 * 2.3 and 1.4 GiB: keys and values 256 B a term, the staging, the partials)
 * and 8 GiB staging slots. Checked: what each card class gets (80, 24, 16,
 * 12 GB and less; the H context with two buffers where three do not fit, the H in turn
 * with the MSMs where only it fits); that a plan never holds more than its budget; that more
 * memory never gives a lower level or fewer resident bytes; that every
 * vector on the device's path is resident or streamed, never both.
 */
#include <string.h>

#include "backend/devplan.h"
#include "cz_test.h"

#define GIB ((size_t)1 << 30)
#define MIB ((size_t)1 << 20)
#define FULL_CARD (77 * GIB + 600 * MIB) /* an 80 GB card's free memory */
/* G1 buckets at c = 20: 13 windows of 2^19 192-byte XYZZ points (msm.cu) */
#define C20_BUCKETS (13 * ((size_t)1 << 19) * 192)

static cz_devplan_in porep32(size_t budget)
{
    cz_devplan_in in = {
        .budget = budget,
        .vec_bytes = { 134217727ull * 96, 130278852ull * 96, 129887331ull * 96, 33083703ull * 96,
                       33083703ull * 192 },
        .h_bytes = 3 * (4 * GIB) + 3 * MIB + MIB / 2,
        .h_buffer_bytes = 4 * GIB,
        .h2_bytes = 2 * (4 * GIB) + 3 * MIB + MIB / 2 + 128 * MIB,
        .h2_window_bytes = 2 * GIB,
        .msm_bytes = { 5837 * MIB, 2320 * MIB, 1441 * MIB },
        .bucket_full = 5 * GIB,
        .bucket_least = 512 * MIB,
        .slot_bytes = 8 * GIB,
        .max_slots = 2,
        .own_stream_bytes = 512 * MIB,
    };
    return in;
}

static size_t resident_bytes(const cz_devplan_in *in, const cz_devplan *p)
{
    size_t sum = 0;
    for (int k = 0; k < CZ_BASES_COUNT; k++)
        if (p->resident >> k & 1)
            sum += in->vec_bytes[k];
    return sum;
}

/* An 80 GB card (77.6 GiB usable): the whole set resident, as before the planner. */
CZ_TEST(full_card_keeps_everything_resident)
{
    cz_devplan_in in = porep32(FULL_CARD);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_RESIDENT);
    CHECK_EQ_INT(p.resident, CZ_BASES_ALL);
    CHECK_EQ_INT(p.streamed, 0);
    CHECK_EQ_INT(p.msm_size, 0);
    CHECK_EQ_U64(p.bucket_cap, 5 * GIB);
    CHECK_EQ_INT(p.slots, 1); /* 66.8 GiB + one 8 GiB slot; a second does not fit */
    CHECK(p.total <= in.budget);
}

/* A 24 GB card with 21 GiB usable: the H on the device, b_g1 resident, the rest streamed. */
CZ_TEST(card_24gb_streams_through_the_h_buffers)
{
    cz_devplan_in in = porep32(21 * GIB);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM);
    CHECK(p.h_on_device);
    CHECK_EQ_INT(p.h_buffers, 3);
    CHECK(!p.own_stream_buffers);
    CHECK_EQ_U64(p.stream_bytes, 4 * GIB);
    CHECK(p.resident & (1u << CZ_BASES_B1));
    CHECK(p.streamed & (1u << CZ_BASES_H)); /* H's dense MSM hides its copy: it streams first */
    CHECK_EQ_INT(p.resident | p.streamed, CZ_BASES_ALL);
    CHECK_EQ_INT(p.slots, 0);
    /* the 2.2 GiB the plan leaves go to the buckets: room for the H window's c = 20 */
    CHECK(p.bucket_cap >= C20_BUCKETS);
    CHECK_EQ_U64(p.total, in.budget);
}

/* 16 GB (13 GiB usable): the H context in two buffers, every vector streamed through halves
 * of its idle one. */
CZ_TEST(card_16gb_makes_the_h_in_two_buffers)
{
    cz_devplan_in in = porep32(13 * GIB);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM);
    CHECK(p.h_on_device);
    CHECK_EQ_INT(p.h_buffers, 2);
    CHECK(!p.own_stream_buffers);
    CHECK_EQ_U64(p.stream_bytes, 2 * GIB);
    CHECK_EQ_INT(p.streamed, CZ_BASES_ALL);
    CHECK(p.bucket_cap >= C20_BUCKETS); /* c = 20 over a 2 GiB window */
    CHECK_EQ_U64(p.total, in.budget);
}

/* 12 GB (9 GiB usable): the H context does not fit beside the MSM workspace and the windows,
 * but alone it does: the H on the device in turn with the MSMs, every vector streamed
 * through windows of the plan's own. */
CZ_TEST(card_12gb_makes_the_h_on_the_device_in_turn)
{
    cz_devplan_in in = porep32(9 * GIB);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM_HOST_H);
    CHECK(!p.h_on_device);
    CHECK(p.h_in_turn);
    CHECK_EQ_INT(p.h_buffers, 2);
    CHECK(p.own_stream_buffers);
    CHECK_EQ_U64(p.stream_bytes, 512 * MIB);
    CHECK_EQ_INT(p.streamed, CZ_BASES_ALL); /* a resident vector would sit beside the H */
    CHECK_EQ_INT(p.resident, 0);
    CHECK_EQ_U64(p.total, in.h2_bytes); /* the larger turn */
    CHECK(p.total <= in.budget);
    char line[320];
    cz_devplan_format(&p, &in, line, sizeof line);
    CHECK(strstr(line, "H on the device in turn with the MSMs (two buffers") != NULL);
}

/* Less than the two-buffer H context alone (8 GiB usable), or the tests' knob: the H on the
 * CPU, the windows the same. */
CZ_TEST(less_than_the_h_context_makes_the_h_on_the_cpu)
{
    cz_devplan_in small = porep32(8 * GIB), knob = porep32(9 * GIB);
    knob.no_h_in_turn = true;
    const cz_devplan_in *ins[2] = { &small, &knob };
    for (int i = 0; i < 2; i++) {
        cz_devplan p;
        cz_devplan_make(ins[i], &p);
        CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM_HOST_H);
        CHECK(!p.h_on_device);
        CHECK(!p.h_in_turn);
        CHECK_EQ_INT(p.h_buffers, 0);
        CHECK(p.own_stream_buffers);
        CHECK(p.streamed & (1u << CZ_BASES_H));
        CHECK(p.total <= ins[i]->budget);
    }
}

CZ_TEST(no_room_at_all_is_the_cpu_level_not_a_failure)
{
    cz_devplan_in in = porep32(2 * GIB);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_CPU);
    CHECK_EQ_INT(p.msm_size, -1);
    CHECK_EQ_INT(p.resident, 0);
    CHECK_EQ_U64(p.total, 0);
}

/* B2 left to the CPU (g2_on_cpu): vec_bytes 0, never planned. */
CZ_TEST(a_vector_off_the_device_path_is_neither_resident_nor_streamed)
{
    cz_devplan_in in = porep32(21 * GIB);
    in.vec_bytes[CZ_BASES_B2] = 0;
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT((p.resident | p.streamed) >> CZ_BASES_B2 & 1, 0);
}

/* Every budget from 0 to 96 GiB in 256 MiB steps. */
CZ_TEST(more_memory_never_plans_worse_and_never_overcommits)
{
    cz_devplan prev = { .level = CZ_DEVPLAN_CPU };
    size_t prev_res = 0;
    for (size_t b = 0; b <= 96 * GIB; b += 256 * MIB) {
        cz_devplan_in in = porep32(b);
        cz_devplan p;
        cz_devplan_make(&in, &p);
        CHECK(p.total <= b);
        CHECK(p.level <= prev.level);
        CHECK_EQ_INT(p.resident & p.streamed, 0);
        if (p.level != CZ_DEVPLAN_CPU)
            CHECK_EQ_INT(p.resident | p.streamed, CZ_BASES_ALL);
        /* (three H buffers instead of two may leave less resident: the c round trip through
         * the host that they save costs more than a small vector's copy) */
        if (p.level == prev.level && p.h_buffers == prev.h_buffers)
            CHECK(resident_bytes(&in, &p) >= prev_res);
        if (p.level == prev.level)
            CHECK(p.h_buffers >= prev.h_buffers);
        if (p.level == CZ_DEVPLAN_STREAM && p.streamed)
            CHECK(p.stream_bytes > 0);
        if (p.level == CZ_DEVPLAN_STREAM) /* nothing left unused that larger buckets could take */
            CHECK(p.total == b || p.bucket_cap == in.bucket_full);
        prev = p;
        prev_res = resident_bytes(&in, &p);
    }
    CHECK_EQ_INT(prev.level, CZ_DEVPLAN_RESIDENT);
}

CZ_TEST(the_plan_prints_in_one_line)
{
    cz_devplan_in in = porep32(21 * GIB);
    cz_devplan p;
    cz_devplan_make(&in, &p);
    char line[512];
    int n = cz_devplan_format(&p, &in, line, sizeof line);
    CHECK(n > 0 && (size_t)n < sizeof line);
    CHECK(strchr(line, '\n') == NULL);
    CHECK(strstr(line, "plan stream") != NULL);
    CHECK(strstr(line, "resident [b_g1") != NULL);
    CHECK(strstr(line, "streamed [h,") != NULL);
    CHECK(strstr(line, "through two 4.00 GiB windows (the H's buffers)") != NULL);
}

/*
 * A small circuit whose H buffers are too small for a window (the plan's own buffers then
 * carry the windows): where every vector fits beside the H and the workspace, they are all
 * resident and no window buffer is held (the buffers were counted before the residency:
 * found in review, every vector streamed).
 */
CZ_TEST(own_window_buffers_are_held_only_where_something_streams)
{
    cz_devplan_in in = { .budget = 2000 * MIB,
                         .vec_bytes = { 100 * MIB, 100 * MIB, 100 * MIB, 100 * MIB, 100 * MIB },
                         .h_bytes = 300 * MIB,
                         .h_buffer_bytes = 100 * MIB,
                         .msm_bytes = { 1000 * MIB },
                         .bucket_full = 1000 * MIB,
                         .bucket_least = 100 * MIB,
                         .own_stream_bytes = 256 * MIB,
                         .min_window_bytes = 200 * MIB };
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM);
    CHECK_EQ_INT(p.resident, CZ_BASES_ALL);
    CHECK_EQ_INT(p.streamed, 0);
    CHECK(!p.own_stream_buffers && p.stream_bytes == 0);
    CHECK(p.total <= in.budget);
    in.budget = 1950 * MIB; /* one must stream: the buffers then leave room for none */
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_STREAM);
    CHECK_EQ_INT(p.streamed, CZ_BASES_ALL);
    CHECK(p.own_stream_buffers);
    CHECK_EQ_U64(p.stream_bytes, 256 * MIB);
    CHECK(p.total <= in.budget);
}

/* The full card's plan forced down to |level|: that level, every vector streamed, within
 * the budget. */
static cz_devplan forced_plan(cz_devplan_level level)
{
    cz_devplan_in in = porep32(FULL_CARD);
    in.min_level = level;
    cz_devplan p;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, level);
    CHECK_EQ_INT(p.resident, 0);
    CHECK_EQ_INT(p.streamed, CZ_BASES_ALL);
    CHECK(p.total <= in.budget);
    return p;
}

/*
 * Forced plans (min_level: the GPU tests' small plans on a large card): no level above the
 * one asked for, and below RESIDENT every vector streams (the forced plan's point), each
 * within the budget.
 */
CZ_TEST(a_forced_level_is_never_exceeded_and_streams_every_vector)
{
    cz_devplan p = forced_plan(CZ_DEVPLAN_STREAM);
    CHECK(p.h_on_device && p.h_buffers == 3);
    p = forced_plan(CZ_DEVPLAN_STREAM_HOST_H);
    CHECK(!p.h_on_device && p.own_stream_buffers);
    cz_devplan_in in = porep32(FULL_CARD);
    in.min_level = CZ_DEVPLAN_CPU;
    cz_devplan_make(&in, &p);
    CHECK_EQ_INT(p.level, CZ_DEVPLAN_CPU);
    CHECK_EQ_INT(p.resident | p.streamed, 0);
}

CZ_TEST_MAIN()
