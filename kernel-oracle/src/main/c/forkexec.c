/*
 * forkexec: a fork/exec/exit mix for the kernel oracle's trace recordings (sched_process_fork,
 * sched_process_exec, sched_process_exit and sched_wakeup_new with the switches around them).
 * WORKERS processes are forked; each forks ITERATIONS children in turn and waits for each. A
 * child execs this program again as "forkexec leaf RUN_US", which runs RUN_US microseconds of
 * CPU time and exits, so every child is a fork, an exec, a short run and an exit. Prints
 * "metric children <count>" and "metric children_per_s <rate>".
 *
 * usage: forkexec WORKERS ITERATIONS RUN_US
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Runs for run_us of this thread's CPU time, so that a slow vCPU still runs the whole amount. */
static void leaf(long run_us)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 1000; i++)
			x += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000L + (b.tv_nsec - a.tv_nsec) / 1000 < run_us);
	_exit(0);
}

static void worker(int iterations, const char *run_us)
{
	for (int i = 0; i < iterations; i++) {
		pid_t pid = fork();
		if (pid < 0)
			_exit(1);
		if (pid == 0) {
			execl("/proc/self/exe", "forkexec", "leaf", run_us, (char *)NULL);
			_exit(127);
		}
		int status;
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
			_exit(1);
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "leaf") == 0)
		leaf(atol(argv[2]));
	if (argc != 4) {
		fprintf(stderr, "usage: forkexec WORKERS ITERATIONS RUN_US\n");
		return 2;
	}
	int workers = atoi(argv[1]), iterations = atoi(argv[2]);
	if (workers < 1 || iterations < 1 || atol(argv[3]) < 0) {
		fprintf(stderr, "forkexec: WORKERS and ITERATIONS must be positive, RUN_US >= 0\n");
		return 2;
	}
	double start = now_s();
	for (int w = 0; w < workers; w++) {
		pid_t pid = fork();
		if (pid < 0)
			return 1;
		if (pid == 0)
			worker(iterations, argv[3]);
	}
	int failed = 0, status;
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	double elapsed = now_s() - start;
	long children = (long)workers * iterations;
	printf("metric children %ld\n", children);
	printf("metric children_per_s %.3f\n", children / elapsed);
	return failed;
}
