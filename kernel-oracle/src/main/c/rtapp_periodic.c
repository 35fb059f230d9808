/*
 * rtapp_periodic: periodic rt-app-like workers for the kernel oracle's guest, matching wl.rtapp
 * with one task of THREADS instances whose only phase is "run" RUN_US then a unique absolute
 * "timer" of PERIOD_US (the JSON KernelOracle writes for the simulator). Each thread, from its
 * start, runs RUN_US of its own CPU time, then sleeps until the period's end (t_next += period,
 * clock_nanosleep TIMER_ABSTIME; a late thread does not sleep and keeps its schedule, as rt-app's
 * absolute timer does). Prints what wl.rtapp reports: "metric throughput <loops/s>" (passes of all
 * threads per second), timer_periods, timer_late_fraction, timer_slack_mean_us (to the period's
 * end when the timer was reached; negative: late) and timer_wakeup_latency_mean_us/_max_us
 * (period end to running again).
 *
 * usage: rtapp_periodic THREADS PERIOD_US RUN_US SECONDS
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct stats {
	long loops, periods, late;
	double slack_ns, latency_ns, latency_max_ns;
};

static long period_ns, run_us;
static double seconds;
static struct timespec start;

static long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000L + t->tv_nsec;
}

static struct timespec ts(long n)
{
	struct timespec t = {n / 1000000000L, n % 1000000000L};
	return t;
}

/* Runs for us microseconds of this thread's CPU time. */
static void burn(long us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 200; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < us);
}

static void *worker(void *arg)
{
	struct stats *s = arg;
	long end = ns(&start) + (long)(seconds * 1e9);
	long next = ns(&start);
	struct timespec now;
	for (;;) {
		burn(run_us);
		next += period_ns;
		clock_gettime(CLOCK_MONOTONIC, &now);
		long slack = next - ns(&now);
		s->periods++;
		s->slack_ns += slack;
		if (slack <= 0) {
			s->late++;
		} else {
			struct timespec t = ts(next);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL);
			clock_gettime(CLOCK_MONOTONIC, &now);
			double latency = ns(&now) - next;
			s->latency_ns += latency;
			if (latency > s->latency_max_ns)
				s->latency_max_ns = latency;
		}
		s->loops++;
		if (ns(&now) >= end)
			return NULL;
	}
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: rtapp_periodic THREADS PERIOD_US RUN_US SECONDS\n");
		return 2;
	}
	int threads = atoi(argv[1]);
	period_ns = atol(argv[2]) * 1000;
	run_us = atol(argv[3]);
	seconds = atof(argv[4]);
	if (threads < 1 || period_ns <= 0 || run_us < 0 || seconds <= 0) {
		fprintf(stderr, "rtapp_periodic: THREADS and PERIOD_US must be positive, RUN_US >= 0,"
			" SECONDS > 0\n");
		return 2;
	}
	struct stats *stats = calloc(threads, sizeof(*stats));
	pthread_t *tid = calloc(threads, sizeof(*tid));
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (int i = 0; i < threads; i++)
		pthread_create(&tid[i], NULL, worker, &stats[i]);
	struct stats all = {0};
	for (int i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		all.loops += stats[i].loops;
		all.periods += stats[i].periods;
		all.late += stats[i].late;
		all.slack_ns += stats[i].slack_ns;
		all.latency_ns += stats[i].latency_ns;
		if (stats[i].latency_max_ns > all.latency_max_ns)
			all.latency_max_ns = stats[i].latency_max_ns;
	}
	struct timespec stop;
	clock_gettime(CLOCK_MONOTONIC, &stop);
	double elapsed = (ns(&stop) - ns(&start)) / 1e9;
	long woken = all.periods - all.late;
	printf("metric throughput %.3f\n", all.loops / elapsed);
	printf("metric timer_periods %ld\n", all.periods);
	printf("metric timer_late_fraction %.4f\n", all.periods ? (double)all.late / all.periods : 0);
	printf("metric timer_slack_mean_us %.1f\n", all.periods ? all.slack_ns / 1e3 / all.periods : 0);
	printf("metric timer_wakeup_latency_mean_us %.1f\n", woken ? all.latency_ns / 1e3 / woken : 0);
	printf("metric timer_wakeup_latency_max_us %.1f\n", all.latency_max_ns / 1e3);
	return 0;
}
