/* An SD card's fsync, for bench/pi_bench.py: loaded with LD_PRELOAD into the server, it waits
 * SLOW_FSYNC_MS milliseconds (an integer; 0 when unset) before each fsync and fdatasync, then
 * lets the real one run, so each flush costs what it costs on a Raspberry Pi's card on top of
 * this disk's own. It counts the flushes it slowed in the file SLOW_FSYNC_COUNT names, if any,
 * one byte a flush, so the harness can tell how many a run asked for (none, for a durability
 * that answers before the disk).
 *
 * Bench code, built at bench time with the machine's cc; never part of the server. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

typedef int (*flush_fn)(int);

static void as_a_card(void) {
    static long delay_ms = -1;
    static int counted = -2;
    if (delay_ms < 0) {
        const char *given = getenv("SLOW_FSYNC_MS");
        delay_ms = given ? atol(given) : 0;
    }
    if (counted == -2) {
        const char *where = getenv("SLOW_FSYNC_COUNT");
        counted = where ? open(where, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
    }
    if (counted >= 0) {
        (void)!write(counted, ".", 1);
    }
    struct timespec left = {delay_ms / 1000, (delay_ms % 1000) * 1000000L};
    while (nanosleep(&left, &left) == -1) {
    }
}

int fsync(int fd) {
    static flush_fn real;
    if (!real) {
        real = (flush_fn)dlsym(RTLD_NEXT, "fsync");
    }
    as_a_card();
    return real(fd);
}

int fdatasync(int fd) {
    static flush_fn real;
    if (!real) {
        real = (flush_fn)dlsym(RTLD_NEXT, "fdatasync");
    }
    as_a_card();
    return real(fd);
}
