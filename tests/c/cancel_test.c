/* Stopping a call through the C ABI, compiled with gcc and run by ffi/tests/cancel.rs.
 * Usage: cancel_test <home-dir> <project-a> <project-b>, where the home's config.toml
 * names the embedding model and each project has docs/ with enough sections to embed
 * for a while. cc_search_cancel is called from a SIGINT handler (project a) and from a
 * second thread (project b), each once the call reports its first embedded batch through
 * cc_search_call_with_progress; each call must stop with CC_SEARCH_ERR_CANCELLED within a
 * second, and the next run must finish what is left. Prints "ok <n> checks". */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cc_search.h"

#include "check.h"

static cc_search_engine *engine;
static atomic_int embedding = 0;
static int use_signal = 0;
static struct timespec asked;

static void on_sigint(int sig) {
    (void)sig;
    cc_search_cancel(engine); /* async-signal-safe */
}

static atomic_int cancel_sent = 0;

static void on_progress(const char *stage, uint64_t done, uint64_t total, void *user_data) {
    (void)total;
    int *reports = user_data;
    (*reports)++;
    if (strcmp(stage, "embed") == 0 && done > 0 && !atomic_exchange(&embedding, 1)) {
        if (use_signal) {
            clock_gettime(CLOCK_MONOTONIC, &asked);
            raise(SIGINT); /* the handler has run when raise returns */
        } else {
            /* The call goes on once the other thread has asked it to stop (at most 10 s
             * later): a loaded machine may run that thread late, never too late. */
            for (int waited = 0; !atomic_load(&cancel_sent) && waited < 10000; waited++) {
                struct timespec pause = {0, 1000000};
                nanosleep(&pause, NULL);
            }
            clock_gettime(CLOCK_MONOTONIC, &asked);
        }
    }
}

static void *canceller(void *arg) {
    (void)arg;
    while (!atomic_load(&embedding)) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    cc_search_cancel(engine);
    atomic_store(&cancel_sent, 1);
    return NULL;
}

static double since_asked(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - asked.tv_sec) + (double)(now.tv_nsec - asked.tv_nsec) / 1e9;
}

/* Index `project` and stop it while it embeds; then index it again to the end. */
static void stop_then_finish(const char *project) {
    char params[4096], *json = NULL;
    int reports = 0;
    snprintf(params, sizeof params, "{\"project_dir\":\"%s\"}", project);
    atomic_store(&embedding, 0);
    cc_search_status status = cc_search_call_with_progress(engine, "docs.index", params,
                                                           on_progress, &reports, &json);
    CHECK(status == CC_SEARCH_ERR_CANCELLED);
    CHECK(json == NULL);
    CHECK(reports > 1);
    CHECK(since_asked() < 1.0);
    char *error = cc_search_last_error(engine);
    CHECK(error != NULL && strstr(error, "cancelled") != NULL);
    cc_search_string_free(error);
    /* A call after the cancel runs to the end, embedding only what is left. */
    CHECK(cc_search_call(engine, "docs.index", params, &json) == CC_SEARCH_OK);
    CHECK(json != NULL && strstr(json, "\"pending_vectors\":0") != NULL);
    CHECK(json != NULL && strstr(json, "\"indexed\":0") != NULL);
    cc_search_string_free(json);
}

int main(int argc, char **argv) {
    if (argc != 4) return 2;
    char options[4096];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", argv[1]);
    CHECK(cc_search_engine_open(options, &engine) == CC_SEARCH_OK);
    if (engine == NULL) return check_report();
    CHECK(strcmp(cc_search_status_name(CC_SEARCH_ERR_CANCELLED), "CC_SEARCH_ERR_CANCELLED") == 0);
    CHECK(cc_search_cancel(NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);

    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_sigint;
    sigemptyset(&action.sa_mask);
    CHECK(sigaction(SIGINT, &action, NULL) == 0);
    use_signal = 1;
    stop_then_finish(argv[2]);

    use_signal = 0;
    /* Cleared before the thread starts: left set by the first run, it would let the
     * thread cancel before the second call begins, which then runs to the end. */
    atomic_store(&embedding, 0);
    atomic_store(&cancel_sent, 0);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, canceller, NULL) == 0);
    stop_then_finish(argv[3]);
    CHECK(pthread_join(thread, NULL) == 0);

    cc_search_engine_free(engine);
    return check_report();
}
