/*
 * gemm_team: a GEMM-like bulk-synchronous team for the kernel oracle's guest, matching wl.gemm.
 * THREADS threads each compute CHUNK_US of busy work, then meet at a barrier, for DURATION_S
 * seconds. The barrier's wait policy is wl.gemm's: spin for SPIN_US, then sleep on a futex until
 * the last arriver wakes everyone (SPIN_US = 0 sleeps at once; a chunk as long as the run is a
 * pure spinner). Prints "metric chunks_per_s <value>" and "metric chunks <count>".
 *
 * usage: gemm_team THREADS CHUNK_US SPIN_US DURATION_S
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int threads;
static long chunk_us, spin_us;
static double duration_s;
static atomic_int arrived;
static atomic_int generation;
static atomic_int stop;
static atomic_long chunks;
static double start_s;

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void work_for(long us)
{
	/* CPU time, so that a preempted thread still does a whole chunk of work. */
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	double end = ts.tv_sec + ts.tv_nsec / 1e9 + us / 1e6;
	volatile uint64_t x = 1;
	for (;;) {
		for (int i = 0; i < 10000; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		if (ts.tv_sec + ts.tv_nsec / 1e9 >= end || atomic_load(&stop))
			return;
	}
}

static void barrier_wait(void)
{
	int gen = atomic_load(&generation);
	if (atomic_fetch_add(&arrived, 1) + 1 == threads) {
		atomic_store(&arrived, 0);
		atomic_fetch_add(&generation, 1);
		syscall(SYS_futex, &generation, FUTEX_WAKE_PRIVATE, threads, NULL, NULL, 0);
		return;
	}
	double spin_end = now_s() + spin_us / 1e6;
	while (atomic_load(&generation) == gen && now_s() < spin_end)
		;
	while (atomic_load(&generation) == gen)
		syscall(SYS_futex, &generation, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
}

static void *member(void *arg)
{
	(void)arg;
	while (!atomic_load(&stop)) {
		work_for(chunk_us);
		atomic_fetch_add(&chunks, 1);
		if (now_s() - start_s >= duration_s)
			atomic_store(&stop, 1);
		if (threads > 1)
			barrier_wait();
	}
	/* Release anyone still waiting for the last generation. */
	atomic_fetch_add(&generation, 1);
	syscall(SYS_futex, &generation, FUTEX_WAKE_PRIVATE, threads, NULL, NULL, 0);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: gemm_team THREADS CHUNK_US SPIN_US DURATION_S\n");
		return 2;
	}
	threads = atoi(argv[1]);
	chunk_us = atol(argv[2]);
	spin_us = atol(argv[3]);
	duration_s = atof(argv[4]);
	if (threads < 1 || chunk_us < 1 || spin_us < 0 || duration_s <= 0) {
		fprintf(stderr, "gemm_team: bad arguments\n");
		return 2;
	}
	pthread_t *t = calloc(threads, sizeof(*t));
	start_s = now_s();
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, member, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	double elapsed = now_s() - start_s;
	printf("metric chunks %ld\n", atomic_load(&chunks));
	printf("metric chunks_per_s %.3f\n", atomic_load(&chunks) / elapsed);
	printf("metric elapsed_s %.3f\n", elapsed);
	return 0;
}
