/*
 * hackbench: hackbench-like groups for the kernel oracle's guest, matching wl.hackbench. GROUPS
 * groups of FDS senders and FDS receivers; every sender writes LOOPS messages of DATASIZE bytes to
 * each receiver of its group over a UNIX socket pair (or a pipe with "pipe"). All tasks are forked
 * first, wait for a start signal, and the clock runs from that signal to the last receiver's end,
 * as hackbench does. Prints "metric time_s <seconds>".
 *
 * usage: hackbench GROUPS FDS LOOPS DATASIZE socket|pipe
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fds, loops, datasize;

static void ready_and_wait(int ready, int start)
{
	char c = 'r';
	if (write(ready, &c, 1) != 1 || read(start, &c, 1) != 1)
		_exit(1);
}

static void sender(int *out, int ready, int start)
{
	char *buf = calloc(1, datasize);
	ready_and_wait(ready, start);
	for (int l = 0; l < loops; l++)
		for (int r = 0; r < fds; r++) {
			int done = 0;
			while (done < datasize) {
				int n = write(out[r], buf + done, datasize - done);
				if (n <= 0)
					_exit(1);
				done += n;
			}
		}
	_exit(0);
}

static void receiver(int in, int ready, int start)
{
	char *buf = calloc(1, datasize);
	long want = (long)fds * loops * datasize;
	ready_and_wait(ready, start);
	while (want > 0) {
		int n = read(in, buf, datasize);
		if (n <= 0)
			_exit(1);
		want -= n;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: hackbench GROUPS FDS LOOPS DATASIZE socket|pipe\n");
		return 2;
	}
	int groups = atoi(argv[1]);
	fds = atoi(argv[2]);
	loops = atoi(argv[3]);
	datasize = atoi(argv[4]);
	int use_pipe = strcmp(argv[5], "pipe") == 0;
	int ready[2], start[2];
	if (groups < 1 || fds < 1 || loops < 1 || datasize < 1 || pipe(ready) || pipe(start))
		return 2;
	int tasks = 0;
	for (int g = 0; g < groups; g++) {
		int *out = calloc(fds, sizeof(int));
		for (int r = 0; r < fds; r++) {
			int p[2];
			if (use_pipe ? pipe(p) : socketpair(AF_UNIX, SOCK_STREAM, 0, p))
				return 2;
			if (fork() == 0) {
				close(p[1]);
				receiver(p[0], ready[1], start[0]);
			}
			close(p[0]);
			out[r] = p[1];
			tasks++;
		}
		for (int s = 0; s < fds; s++) {
			if (fork() == 0)
				sender(out, ready[1], start[0]);
			tasks++;
		}
		for (int r = 0; r < fds; r++)
			close(out[r]);
		free(out);
	}
	char c;
	for (int i = 0; i < tasks; i++)
		if (read(ready[0], &c, 1) != 1)
			return 1;
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	char *go = calloc(1, tasks);
	if (write(start[1], go, tasks) != tasks)
		return 1;
	int status, failed = 0;
	while (wait(&status) > 0)
		failed |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("metric time_s %.3f\n", (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
	return failed;
}
