/*
 * tests/api/abi_dump.c — print the layout of the public API: the size and
 * alignment of every struct of include/cuzk.h, the offset and size of each
 * of its fields, and the value of every public constant, one fact a line.
 * tests/api/abi.sh adds libcuzk.so's exported symbols and compares the
 * whole with tests/api/abi.snapshot (docs/API.md, "ABI policy").
 *
 * It reads only the header (no library call), so it is the same program in
 * every build. It checks itself too: the fields listed for a struct must
 * cover it, in declaration order, with no more than padding between them,
 * so a field added to a struct but not here fails (exit 1, naming it)
 * instead of going unrecorded.
 */
#include <stddef.h>
#include <stdio.h>

#include "cuzk.h"

static int failed;
static const char *cur_struct;
static size_t cur_end, cur_size, cur_align;
static const char *prev_field;

static size_t round_up(size_t x, size_t a)
{
    return (x + a - 1) / a * a;
}

static void struct_begin(const char *name, size_t size, size_t align)
{
    cur_struct = name;
    cur_end = 0;
    cur_size = size;
    cur_align = align;
    prev_field = NULL;
    printf("struct %s size %zu align %zu\n", name, size, align);
}

/* One field, in declaration order: it must start where padding after the
 * previous one allows, else a field between them is missing here. */
static void field(const char *name, size_t off, size_t size, size_t align)
{
    if (off != round_up(cur_end, align)) {
        fprintf(stderr,
                "abi_dump: %s.%s at offset %zu, expected %zu: a field %s %s is not "
                "listed in tests/api/abi_dump.c (or the list is out of order)\n",
                cur_struct, name, off, round_up(cur_end, align), prev_field ? "after" : "before",
                prev_field ? prev_field : name);
        failed = 1;
    }
    printf("  field %s.%s offset %zu size %zu\n", cur_struct, name, off, size);
    cur_end = off + size;
    prev_field = name;
}

static void struct_end(void)
{
    if (round_up(cur_end, cur_align) != cur_size) {
        fprintf(stderr,
                "abi_dump: %s ends at %zu, size %zu: a field after %s is not listed "
                "in tests/api/abi_dump.c\n",
                cur_struct, cur_end, cur_size, prev_field ? prev_field : "(none)");
        failed = 1;
    }
}

#define S(T) struct_begin(#T, sizeof(T), _Alignof(T))
#define F(T, f) field(#f, offsetof(T, f), sizeof(((T *)0)->f), _Alignof(__typeof__(((T *)0)->f)))
#define END() struct_end()
#define K(name) printf("const %s %lld\n", #name, (long long)(name))

static void structs(void)
{
    S(cz_error_t);
    F(cz_error_t, code);
    F(cz_error_t, message);
    F(cz_error_t, reserved);
    END();

    S(cz_prover_config_t);
    F(cz_prover_config_t, backend);
    F(cz_prover_config_t, devices);
    F(cz_prover_config_t, first_device);
    F(cz_prover_config_t, workers_per_device);
    F(cz_prover_config_t, synth_workers);
    F(cz_prover_config_t, threads);
    F(cz_prover_config_t, device_queue_depth);
    F(cz_prover_config_t, max_retries);
    F(cz_prover_config_t, memory_budget);
    F(cz_prover_config_t, memory_margin);
    F(cz_prover_config_t, cuda_device_mem_limit);
    F(cz_prover_config_t, cuda_g2_on_cpu);
    F(cz_prover_config_t, params_dir);
    F(cz_prover_config_t, params_cache_bytes);
    F(cz_prover_config_t, params_allow_paths);
    F(cz_prover_config_t, max_partitions);
    F(cz_prover_config_t, no_verify);
    F(cz_prover_config_t, timeline);
    F(cz_prover_config_t, log);
    F(cz_prover_config_t, log_user);
    F(cz_prover_config_t, log_level);
    F(cz_prover_config_t, params_check);
    F(cz_prover_config_t, cuda_max_batch);
    F(cz_prover_config_t, reserved_pad);
    F(cz_prover_config_t, timeline_capture);
    F(cz_prover_config_t, cuda_no_pin_ab);
    F(cz_prover_config_t, reserved);
    END();

    S(cz_prover_info_t);
    F(cz_prover_info_t, backend);
    F(cz_prover_info_t, backend_detail);
    F(cz_prover_info_t, devices);
    F(cz_prover_info_t, threads);
    F(cz_prover_info_t, memory_budget);
    F(cz_prover_info_t, params_dir);
    F(cz_prover_info_t, reserved);
    END();

    S(cz_job_request_t);
    F(cz_job_request_t, kind);
    F(cz_job_request_t, input);
    F(cz_job_request_t, input_len);
    F(cz_job_request_t, fields);
    F(cz_job_request_t, params);
    F(cz_job_request_t, priority);
    F(cz_job_request_t, on_done);
    F(cz_job_request_t, user);
    F(cz_job_request_t, reserved);
    END();

    S(cz_timing_request_t);
    F(cz_timing_request_t, kind);
    F(cz_timing_request_t, input);
    F(cz_timing_request_t, input_len);
    F(cz_timing_request_t, fields);
    F(cz_timing_request_t, sector_size);
    F(cz_timing_request_t, seed);
    F(cz_timing_request_t, priority);
    F(cz_timing_request_t, reserved);
    END();

    S(cz_job_shape_t);
    F(cz_job_shape_t, partitions);
    F(cz_job_shape_t, constraints);
    F(cz_job_shape_t, rows);
    F(cz_job_shape_t, domain_size);
    F(cz_job_shape_t, num_inputs);
    F(cz_job_shape_t, num_aux);
    F(cz_job_shape_t, params_bytes);
    F(cz_job_shape_t, partition_bytes);
    F(cz_job_shape_t, reserved);
    END();

    S(cz_timeline_summary_t);
    F(cz_timeline_summary_t, devices);
    F(cz_timeline_summary_t, device_regions);
    F(cz_timeline_summary_t, device_held_ms);
    F(cz_timeline_summary_t, device_efficiency);
    F(cz_timeline_summary_t, dispatch_efficiency);
    F(cz_timeline_summary_t, overlap_violations);
    F(cz_timeline_summary_t, synthesis_spans);
    F(cz_timeline_summary_t, synthesis_mean_ms);
    F(cz_timeline_summary_t, synthesis_max_ms);
    F(cz_timeline_summary_t, reserved);
    END();

    S(cz_timeline_device_t);
    F(cz_timeline_device_t, device);
    F(cz_timeline_device_t, reserved_pad);
    F(cz_timeline_device_t, regions);
    F(cz_timeline_device_t, held_ms);
    F(cz_timeline_device_t, efficiency);
    F(cz_timeline_device_t, dispatch_efficiency);
    F(cz_timeline_device_t, reserved);
    END();

    S(cz_setup_request_t);
    F(cz_setup_request_t, kind);
    F(cz_setup_request_t, sector_size);
    F(cz_setup_request_t, circuit);
    F(cz_setup_request_t, params_path);
    F(cz_setup_request_t, vk_path);
    F(cz_setup_request_t, params_dir);
    F(cz_setup_request_t, seeded);
    F(cz_setup_request_t, seed);
    F(cz_setup_request_t, threads);
    F(cz_setup_request_t, progress);
    F(cz_setup_request_t, progress_user);
    F(cz_setup_request_t, reserved);
    END();

    S(cz_setup_info_t);
    F(cz_setup_info_t, circuit);
    F(cz_setup_info_t, params_path);
    F(cz_setup_info_t, vk_path);
    F(cz_setup_info_t, rows);
    F(cz_setup_info_t, domain_size);
    F(cz_setup_info_t, num_inputs);
    F(cz_setup_info_t, num_aux);
    F(cz_setup_info_t, a_aux_popcount);
    F(cz_setup_info_t, b_input_popcount);
    F(cz_setup_info_t, b_aux_popcount);
    F(cz_setup_info_t, n_h);
    F(cz_setup_info_t, n_l);
    F(cz_setup_info_t, n_a);
    F(cz_setup_info_t, n_b_g1);
    F(cz_setup_info_t, n_b_g2);
    F(cz_setup_info_t, n_ic);
    F(cz_setup_info_t, params_bytes);
    F(cz_setup_info_t, t_synthesis);
    F(cz_setup_info_t, t_setup);
    F(cz_setup_info_t, t_write);
    F(cz_setup_info_t, threads);
    F(cz_setup_info_t, reserved);
    END();

    S(cz_job_timings_t);
    F(cz_job_timings_t, queue_wait);
    F(cz_job_timings_t, params_load);
    F(cz_job_timings_t, synthesis);
    F(cz_job_timings_t, device);
    F(cz_job_timings_t, total);
    F(cz_job_timings_t, reserved);
    END();

    S(cz_job_info_t);
    F(cz_job_info_t, id);
    F(cz_job_info_t, state);
    F(cz_job_info_t, partitions);
    F(cz_job_info_t, partitions_done);
    F(cz_job_info_t, error);
    F(cz_job_info_t, message);
    F(cz_job_info_t, t);
    F(cz_job_info_t, in_stage);
    F(cz_job_info_t, loading_params);
    F(cz_job_info_t, summary);
    F(cz_job_info_t, started);
    F(cz_job_info_t, reserved);
    END();

    S(cz_prover_stats_t);
    F(cz_prover_stats_t, jobs);
    F(cz_prover_stats_t, partitions_proved);
    F(cz_prover_stats_t, jobs_staged);
    F(cz_prover_stats_t, partitions_queued);
    F(cz_prover_stats_t, device_queue);
    F(cz_prover_stats_t, engine_active_s);
    F(cz_prover_stats_t, budget_total);
    F(cz_prover_stats_t, budget_reserved);
    F(cz_prover_stats_t, budget_peak);
    F(cz_prover_stats_t, recycled_bytes);
    F(cz_prover_stats_t, recycle_hits);
    F(cz_prover_stats_t, recycle_takes);
    F(cz_prover_stats_t, params_entries);
    F(cz_prover_stats_t, params_bytes);
    F(cz_prover_stats_t, params_budget);
    F(cz_prover_stats_t, params_hits);
    F(cz_prover_stats_t, params_misses);
    F(cz_prover_stats_t, params_evictions);
    F(cz_prover_stats_t, params_load_errors);
    F(cz_prover_stats_t, shape_hits);
    F(cz_prover_stats_t, shape_lookups);
    F(cz_prover_stats_t, devices);
    F(cz_prover_stats_t, device_busy_s);
    F(cz_prover_stats_t, device_failed);
    F(cz_prover_stats_t, backend_host_bytes);
    F(cz_prover_stats_t, reserved);
    END();

    S(cz_device_memory_t);
    F(cz_device_memory_t, h2d_bytes);
    F(cz_device_memory_t, plan);
    F(cz_device_memory_t, regions);
    F(cz_device_memory_t, partitions);
    F(cz_device_memory_t, setup_ms);
    F(cz_device_memory_t, h_ms);
    F(cz_device_memory_t, msm_h_ms);
    F(cz_device_memory_t, prep_wait_ms);
    F(cz_device_memory_t, tails_ms);
    F(cz_device_memory_t, reserved);
    END();

    S(cz_params_item_t);
    F(cz_params_item_t, path);
    F(cz_params_item_t, bytes);
    F(cz_params_item_t, users);
    F(cz_params_item_t, loading);
    F(cz_params_item_t, load_ms);
    F(cz_params_item_t, hits);
    F(cz_params_item_t, reserved);
    END();

    S(cz_porep_public_t);
    F(cz_porep_public_t, sector_size);
    F(cz_porep_public_t, replica_id);
    F(cz_porep_public_t, comm_d);
    F(cz_porep_public_t, comm_r);
    F(cz_porep_public_t, seed);
    F(cz_porep_public_t, registered_proof);
    F(cz_porep_public_t, reserved);
    END();

    S(cz_kind_public_info_t);
    F(cz_kind_public_info_t, partitions);
    F(cz_kind_public_info_t, per_partition);
    F(cz_kind_public_info_t, vk_name);
    F(cz_kind_public_info_t, summary);
    F(cz_kind_public_info_t, reserved);
    END();

    /* the tools block */
    S(cz_params_manifest_entry_t);
    F(cz_params_manifest_entry_t, name);
    F(cz_params_manifest_entry_t, cid);
    F(cz_params_manifest_entry_t, digest);
    F(cz_params_manifest_entry_t, sector_size);
    F(cz_params_manifest_entry_t, reserved);
    END();

    S(cz_circuit_shape_t);
    F(cz_circuit_shape_t, circuit);
    F(cz_circuit_shape_t, constraints);
    F(cz_circuit_shape_t, rows);
    F(cz_circuit_shape_t, inputs);
    F(cz_circuit_shape_t, aux);
    F(cz_circuit_shape_t, a_aux_density);
    F(cz_circuit_shape_t, b_input_density);
    F(cz_circuit_shape_t, b_aux_density);
    F(cz_circuit_shape_t, seconds);
    F(cz_circuit_shape_t, reserved);
    END();
}

/* The constants a program compiles in. Not MINOR/PATCH: they move with every
 * release without touching the ABI (MAJOR is the SONAME, so it is here). */
static void constants(void)
{
    K(CZ_VERSION_MAJOR);
    K(CZ_ERROR_MESSAGE_MAX);
#define CZ__ABI_ERR(name, value, desc) K(CZ_E##name);
    CZ_ERRNO_MAP(CZ__ABI_ERR)
#undef CZ__ABI_ERR
    K(CZ_E_COUNT);
    K(CZ_LOG_LEVEL_DEBUG);
    K(CZ_LOG_LEVEL_INFO);
    K(CZ_LOG_LEVEL_WARN);
    K(CZ_LOG_LEVEL_ERROR);
    K(CZ_JOB_QUEUED);
    K(CZ_JOB_RUNNING);
    K(CZ_JOB_VERIFYING);
    K(CZ_JOB_DONE);
    K(CZ_JOB_FAILED);
    K(CZ_JOB_CANCELED);
    K(CZ_PART_QUEUED);
    K(CZ_PART_SYNTHESIS);
    K(CZ_PART_DEVICE_WAIT);
    K(CZ_PART_DEVICE);
    K(CZ_PART_EPILOGUE);
    K(CZ_PART_NSTAGES);
    printf("enum-size cz_job_state_t %zu\n", sizeof(cz_job_state_t));
    printf("enum-size cz_part_stage_t %zu\n", sizeof(cz_part_stage_t));

    /* the tools block */
    K(CZ_VK_ALPHA_G1);
    K(CZ_VK_BETA_G1);
    K(CZ_VK_BETA_G2);
    K(CZ_VK_GAMMA_G2);
    K(CZ_VK_DELTA_G1);
    K(CZ_VK_DELTA_G2);
    K(CZ_VK_IC);
    K(CZ_G1_UNCOMPRESSED_BYTES);
    K(CZ_G2_UNCOMPRESSED_BYTES);
    K(CZ_GROTH16_PROOF_BYTES);
    K(CZ_GROTH16_PROOF_UNCOMPRESSED_BYTES);
    printf("enum-size cz_groth16_vk_point_id_t %zu\n", sizeof(cz_groth16_vk_point_id_t));
}

int main(void)
{
    structs();
    constants();
    return failed;
}
