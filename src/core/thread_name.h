/*
 * core/thread_name.h — names for the library's threads, as `top -H`, `ps -L`,
 * gdb and perf show them (cz-pool, cz-synth3, cz-dev0.1, cz-prep0.1, ...),
 * so that an operator can see which of cuzk's threads holds the CPU.
 *
 * Names the calling thread: printf-style, cut at 15 bytes (the kernel's
 * limit). Best effort: where the platform has no thread names, or the call
 * fails, nothing changes and nothing is reported (a name never decides
 * anything). Thread-safety: any thread, for itself.
 */
#ifndef CUZK_CORE_THREAD_NAME_H
#define CUZK_CORE_THREAD_NAME_H

#define CZ_THREAD_NAME_MAX 15 /* bytes, without the terminating NUL */

void cz_thread_name(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* CUZK_CORE_THREAD_NAME_H */
