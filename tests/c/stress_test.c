/* One engine handle shared by many threads, every operation kind and every misuse the
 * header allows, many times over: run as it is, under valgrind and with AddressSanitizer
 * (ffi/tests/sanitizers.rs), which must report no error and no leak.
 *
 *   stress_test <home> <project-dir> <sessions-projects-dir>
 *
 * Each thread repeats a mix of calls: refresh and suggest (the file index, written and
 * read at once), grep, sessions search over a small transcript folder, docs query, the
 * MCP handler, and requests that must fail cleanly (invalid JSON, unknown operations,
 * NULL arguments, an oversized request); every returned string is checked and freed.
 * A last phase opens and frees further engines on several threads at once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"
#include "check.h"

#define THREADS 6
#define ROUNDS 6

static cc_search_engine *shared;
static const char *project_dir, *sessions_dir, *home_dir;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* CHECK from many threads: the counters are shared. */
#define TCHECK(cond)               \
    do {                           \
        pthread_mutex_lock(&lock); \
        CHECK(cond);               \
        pthread_mutex_unlock(&lock); \
    } while (0)

/* Call `op` with `params`; expect `want` and, on success, `needle` in the result. */
static void call(const char *op, const char *params, cc_search_status want, const char *needle) {
    char *out = NULL;
    cc_search_status status = cc_search_call(shared, op, params, &out);
    TCHECK(status == want);
    if (status == CC_SEARCH_OK) {
        TCHECK(out != NULL && (needle == NULL || strstr(out, needle) != NULL));
        if (out != NULL && needle != NULL && strstr(out, needle) == NULL)
            fprintf(stderr, "%s: %.300s\n", op, out);
    } else {
        TCHECK(out == NULL);
        char *message = cc_search_last_error(NULL);
        TCHECK(message != NULL && message[0] != '\0');
        cc_search_string_free(message);
    }
    cc_search_string_free(out);
}

static void *worker(void *arg) {
    long id = (long)arg;
    char params[4096];
    for (int round = 0; round < ROUNDS; round++) {
        snprintf(params, sizeof params, "{\"root\":\"%s\"}", project_dir);
        call("files.refresh", params, CC_SEARCH_OK, "\"files\":");
        snprintf(params, sizeof params, "{\"query\":\"main\",\"project_dir\":\"%s\"}", project_dir);
        call("files.suggest", params, CC_SEARCH_OK, "src/main.rs");
        snprintf(params, sizeof params,
                 "{\"search\":\"needle_%ld\",\"dir\":[\"%s\"],\"recursive\":true}", id % 2,
                 project_dir);
        call("grep.search", params, CC_SEARCH_OK, "\"matches_found\":1");
        snprintf(params, sizeof params,
                 "{\"query\":\"flamingo proxy\",\"projects_dir\":\"%s\",\"mode\":\"keyword\"}",
                 sessions_dir);
        call("sessions.search", params, CC_SEARCH_OK, "flamingo");
        snprintf(params, sizeof params,
                 "{\"query\":\"install\",\"project_dir\":\"%s\",\"mode\":\"keyword\"}",
                 project_dir);
        call("docs.query", params, CC_SEARCH_OK, "\"results\":");

        /* Failures that must be clean. */
        call("files.suggest", "{not json", CC_SEARCH_ERR_INVALID_REQUEST, NULL);
        call("files.suggest", "[1,2]", CC_SEARCH_ERR_INVALID_REQUEST, NULL);
        call("files.suggest", "{\"query\":\"x\",\"bogus\":1}", CC_SEARCH_ERR_INVALID_REQUEST, NULL);
        call("no.such.op", "{}", CC_SEARCH_ERR_UNKNOWN_OPERATION, NULL);
        call("sessions.search", "{\"query\":\"   \"}", CC_SEARCH_ERR_INVALID_REQUEST, NULL);
        char *out = (char *)0x1;
        TCHECK(cc_search_call(shared, NULL, "{}", &out) == CC_SEARCH_ERR_NULL_ARGUMENT);
        TCHECK(out == NULL);
        TCHECK(cc_search_call(shared, "files.suggest", "{}", NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
        TCHECK(cc_search_call(NULL, "files.suggest", "{}", &out) == CC_SEARCH_ERR_NULL_ARGUMENT);
        cc_search_string_free(NULL);

        /* The MCP handler on the same handle. */
        char *reply = NULL;
        TCHECK(cc_search_mcp_handle(shared,
                                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
                                    &reply) == CC_SEARCH_OK);
        TCHECK(reply != NULL && strstr(reply, "files_suggest") != NULL);
        cc_search_string_free(reply);
        reply = NULL;
        TCHECK(cc_search_mcp_handle(shared, "{\"jsonrpc\":", &reply) == CC_SEARCH_OK);
        TCHECK(reply != NULL && strstr(reply, "-32700") != NULL);
        cc_search_string_free(reply);
    }
    return NULL;
}

static void *open_and_free(void *arg) {
    (void)arg;
    char options[2048];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", home_dir);
    for (int i = 0; i < 4; i++) {
        cc_search_engine *engine = NULL;
        TCHECK(cc_search_engine_open(options, &engine) == CC_SEARCH_OK && engine != NULL);
        char *out = NULL;
        TCHECK(cc_search_call(engine, "sessions.status", "", &out) == CC_SEARCH_OK);
        cc_search_string_free(out);
        char *warnings = NULL;
        TCHECK(cc_search_engine_warnings(engine, &warnings) == CC_SEARCH_OK);
        cc_search_string_free(warnings);
        cc_search_engine_free(engine);
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: %s <home> <project-dir> <sessions-projects-dir>\n", argv[0]);
        return 2;
    }
    home_dir = argv[1];
    project_dir = argv[2];
    sessions_dir = argv[3];
    char options[2048];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", home_dir);
    CHECK(cc_search_engine_open(options, &shared) == CC_SEARCH_OK);
    if (shared == NULL) return check_report();

    /* An oversized request is refused, not read. */
    size_t big = (64u << 20) + 16;
    char *huge = malloc(big + 1);
    if (huge != NULL) {
        memset(huge, ' ', big);
        huge[0] = '{';
        huge[big - 1] = '}';
        huge[big] = '\0';
        call("files.suggest", huge, CC_SEARCH_ERR_INVALID_REQUEST, NULL);
        free(huge);
    }

    /* Index the docs and sessions once, then everyone reads while some refresh. */
    char params[4096];
    snprintf(params, sizeof params, "{\"project_dir\":\"%s\"}", project_dir);
    call("docs.index", params, CC_SEARCH_OK, "\"files\":1");
    snprintf(params, sizeof params, "{\"projects_dir\":\"%s\"}", sessions_dir);
    call("sessions.index", params, CC_SEARCH_OK, "\"sessions\":1");

    pthread_t threads[THREADS];
    for (long i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, (void *)i);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);

    pthread_t openers[3];
    for (int i = 0; i < 3; i++) pthread_create(&openers[i], NULL, open_and_free, NULL);
    for (int i = 0; i < 3; i++) pthread_join(openers[i], NULL);

    cc_search_engine_free(shared);
    cc_search_engine_free(NULL);
    return check_report();
}
