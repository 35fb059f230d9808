/*
 * schbench: schbench-like message and worker threads for the kernel oracle's guest, matching
 * wl.schbench. Each of MESSAGE_THREADS message threads serves WORKERS workers. A worker posts
 * itself to its message thread (waking it if it sleeps) and waits on its own futex; the message
 * thread wakes every posted worker, stamping the time, then sleeps until a worker posts again. A
 * woken worker records its wakeup latency (stamp to running), sleeps SLEEP_US, runs REQUEST_US of
 * CPU time and records its request latency (start of the sleep to the end of the work), then posts
 * again. Latencies before WARMUP_S are not counted. Prints "metric p99_wakeup_latency <us>" (the
 * unit wl.schbench reports), the p50/p99/p99.9 of both latencies in us and "metric
 * requests_per_s <rate>".
 *
 * usage: schbench MESSAGE_THREADS WORKERS REQUEST_US SLEEP_US SECONDS [WARMUP_S]
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Latency histogram: 1 us buckets up to 100 ms, one overflow bucket. */
#define BUCKETS 100001

struct histogram {
	atomic_long count[BUCKETS];
	atomic_long total;
};

struct message {
	pthread_mutex_t lock;
	int *posted;      /* worker indexes posted since the last wake */
	int nposted;
	atomic_int sleeping;  /* futex word: 1 while the message thread waits */
};

struct worker {
	int message;
	atomic_int waiting;   /* futex word: 1 while the worker waits to be woken */
	long woken_ns;
};

static int nmessages, nworkers;
static long request_us, sleep_us;
static double seconds, warmup_s;
static struct message *messages;
static struct worker *workers;
static struct histogram wakeup_hist, request_hist;
static atomic_long requests;
static atomic_int stop;
static long start_ns;

static long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000L + t.tv_nsec;
}

static void futex_wait(atomic_int *word, int value)
{
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, NULL, NULL, 0);
}

/* A message thread's wait, bounded so that it sees the end of the run even if it raced it. */
static void futex_wait_bounded(atomic_int *word, int value)
{
	struct timespec limit = {0, 100000000};
	syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, value, &limit, NULL, 0);
}

static void futex_wake(atomic_int *word)
{
	syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void record(struct histogram *h, long now, long latency_ns)
{
	if (now - start_ns < (long)(warmup_s * 1e9))
		return;
	long us = latency_ns < 0 ? 0 : latency_ns / 1000;
	atomic_fetch_add(&h->count[us < BUCKETS - 1 ? us : BUCKETS - 1], 1);
	atomic_fetch_add(&h->total, 1);
}

static double percentile(struct histogram *h, double p)
{
	long total = atomic_load(&h->total), want = (long)(total * p / 100.0 + 0.999999), seen = 0;
	if (total == 0)
		return 0;
	for (int i = 0; i < BUCKETS; i++) {
		seen += atomic_load(&h->count[i]);
		if (seen >= want)
			return i;
	}
	return BUCKETS - 1;
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

static void *message_thread(void *arg)
{
	struct message *m = &messages[(long)arg];
	int *woken = calloc(nworkers, sizeof(int));
	while (!atomic_load(&stop)) {
		pthread_mutex_lock(&m->lock);
		int n = m->nposted;
		memcpy(woken, m->posted, n * sizeof(int));
		m->nposted = 0;
		if (n == 0)
			atomic_store(&m->sleeping, 1);
		pthread_mutex_unlock(&m->lock);
		if (n == 0) {
			futex_wait_bounded(&m->sleeping, 1);
			continue;
		}
		long now = now_ns();
		for (int i = 0; i < n; i++) {
			struct worker *w = &workers[woken[i]];
			w->woken_ns = now;
			atomic_store(&w->waiting, 0);
			futex_wake(&w->waiting);
		}
	}
	return NULL;
}

static void post(int index)
{
	struct worker *w = &workers[index];
	struct message *m = &messages[w->message];
	atomic_store(&w->waiting, 1);
	pthread_mutex_lock(&m->lock);
	m->posted[m->nposted++] = index;
	int wake = atomic_exchange(&m->sleeping, 0);
	pthread_mutex_unlock(&m->lock);
	if (wake)
		futex_wake(&m->sleeping);
	while (atomic_load(&w->waiting) && !atomic_load(&stop))
		futex_wait(&w->waiting, 1);
}

static void *worker_thread(void *arg)
{
	int index = (int)(long)arg;
	struct worker *w = &workers[index];
	while (!atomic_load(&stop)) {
		post(index);
		if (atomic_load(&stop))
			break;
		long woken = now_ns();
		record(&wakeup_hist, woken, woken - w->woken_ns);
		if (sleep_us > 0) {
			struct timespec t = {sleep_us / 1000000, (sleep_us % 1000000) * 1000};
			nanosleep(&t, NULL);
		}
		burn(request_us);
		long done = now_ns();
		record(&request_hist, done, done - woken);
		if (done - start_ns >= (long)(warmup_s * 1e9))
			atomic_fetch_add(&requests, 1);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: schbench MESSAGE_THREADS WORKERS REQUEST_US SLEEP_US SECONDS"
			" [WARMUP_S]\n");
		return 2;
	}
	nmessages = atoi(argv[1]);
	nworkers = atoi(argv[2]);
	request_us = atol(argv[3]);
	sleep_us = atol(argv[4]);
	seconds = atof(argv[5]);
	warmup_s = argc == 7 ? atof(argv[6]) : 0;
	if (nmessages < 1 || nworkers < 1 || request_us < 0 || sleep_us < 0 || seconds <= 0
	    || warmup_s < 0 || warmup_s >= seconds) {
		fprintf(stderr, "schbench: threads and workers must be positive, times >= 0,"
			" warm-up shorter than the run\n");
		return 2;
	}
	messages = calloc(nmessages, sizeof(*messages));
	workers = calloc((size_t)nmessages * nworkers, sizeof(*workers));
	pthread_t *threads = calloc((size_t)nmessages * (nworkers + 1), sizeof(pthread_t));
	start_ns = now_ns();
	int t = 0;
	for (long m = 0; m < nmessages; m++) {
		pthread_mutex_init(&messages[m].lock, NULL);
		messages[m].posted = calloc(nworkers, sizeof(int));
		pthread_create(&threads[t++], NULL, message_thread, (void *)m);
		for (int i = 0; i < nworkers; i++) {
			long index = m * nworkers + i;
			workers[index].message = m;
			pthread_create(&threads[t++], NULL, worker_thread, (void *)index);
		}
	}
	struct timespec run = {(long)seconds, (long)((seconds - (long)seconds) * 1e9)};
	nanosleep(&run, NULL);
	double measured = (now_ns() - start_ns) / 1e9 - warmup_s;
	atomic_store(&stop, 1);
	for (long m = 0; m < nmessages; m++) {
		atomic_store(&messages[m].sleeping, 0);
		syscall(SYS_futex, &messages[m].sleeping, FUTEX_WAKE_PRIVATE, 1 << 30, NULL, NULL, 0);
	}
	for (long i = 0; i < (long)nmessages * nworkers; i++) {
		atomic_store(&workers[i].waiting, 0);
		futex_wake(&workers[i].waiting);
	}
	for (int i = 0; i < t; i++)
		pthread_join(threads[i], NULL);
	printf("metric p99_wakeup_latency %.0f\n", percentile(&wakeup_hist, 99));
	printf("metric wakeup_p50_us %.0f\n", percentile(&wakeup_hist, 50));
	printf("metric wakeup_p99_us %.0f\n", percentile(&wakeup_hist, 99));
	printf("metric wakeup_p999_us %.0f\n", percentile(&wakeup_hist, 99.9));
	printf("metric request_p50_us %.0f\n", percentile(&request_hist, 50));
	printf("metric request_p99_us %.0f\n", percentile(&request_hist, 99));
	printf("metric request_p999_us %.0f\n", percentile(&request_hist, 99.9));
	printf("metric requests_per_s %.1f\n", atomic_load(&requests) / measured);
	printf("metric wakeups %ld\n", atomic_load(&wakeup_hist.total));
	return 0;
}
