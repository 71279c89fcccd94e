/* Misuse and concurrency checks of the C ABI, compiled with gcc and run by
 * ffi/tests/c_abi.rs. Usage: abi_test <home-dir> <project-dir>. Exits 0 when every
 * check holds, printing "ok <n> checks"; otherwise prints each failed check. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"

#include "check.h"

static cc_search_engine *engine;
static char project_json[4096];

/* The last error on this thread contains `needle`. */
static int thread_error_has(const char *needle) {
    char *message = cc_search_last_error(NULL);
    int ok = message != NULL && strstr(message, needle) != NULL;
    if (!ok) fprintf(stderr, "  last error: %s (wanted %s)\n", message ? message : "(null)", needle);
    cc_search_string_free(message);
    return ok;
}

static cc_search_status suggest(const char *query_json, char **out) {
    size_t cap = strlen(project_json) + strlen(query_json) + 64;
    char *params = malloc(cap);
    snprintf(params, cap, "{\"project_dir\":%s,\"query\":%s}", project_json, query_json);
    cc_search_status status = cc_search_call(engine, "files.suggest", params, out);
    free(params);
    return status;
}

static void *worker(void *arg) {
    (void)arg;
    for (int i = 0; i < 50; i++) {
        char *json = NULL;
        if (suggest("\"button\"", &json) != CC_SEARCH_OK || strstr(json, "Button.tsx") == NULL) {
            cc_search_string_free(json);
            return (void *)1;
        }
        cc_search_string_free(json);
        /* A failure on this thread is reported to this thread. */
        if (cc_search_call(engine, "no.such.op", NULL, &json) != CC_SEARCH_ERR_UNKNOWN_OPERATION ||
            !thread_error_has("no.such.op"))
            return (void *)1;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    char options[4096];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", argv[1]);
    snprintf(project_json, sizeof project_json, "\"%s\"", argv[2]);

    /* Version macros agree with the library. */
    char version[64];
    snprintf(version, sizeof version, "%d.%d.%d", CC_SEARCH_VERSION_MAJOR, CC_SEARCH_VERSION_MINOR,
             CC_SEARCH_VERSION_PATCH);
    CHECK(strcmp(version, cc_search_version()) == 0);

    /* NULL arguments. */
    CHECK(cc_search_engine_open(NULL, NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(thread_error_has("out"));
    char *json = (char *)1;
    CHECK(cc_search_call(NULL, "files.suggest", "{}", &json) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(json == NULL);
    CHECK(thread_error_has("engine"));
    cc_search_engine_free(NULL);
    cc_search_string_free(NULL);
    CHECK(cc_search_operations(NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);

    /* Bad engine options. */
    cc_search_engine *bad = (cc_search_engine *)1;
    CHECK(cc_search_engine_open("{not json", &bad) == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(bad == NULL);
    CHECK(cc_search_engine_open("{\"homme\":\"/tmp\"}", &bad) == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(thread_error_has("homme"));
    CHECK(cc_search_engine_open("{\"home\":\"\xff\xfe\"}", &bad) == CC_SEARCH_ERR_INVALID_UTF8);

    CHECK(cc_search_engine_open(options, &engine) == CC_SEARCH_OK);
    CHECK(engine != NULL);
    CHECK(cc_search_last_error(engine) == NULL);

    CHECK(cc_search_call(engine, NULL, "{}", &json) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(cc_search_call(engine, "files.suggest", "{}", NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(cc_search_call(engine, "files.\xc3\x28", "{}", &json) == CC_SEARCH_ERR_INVALID_UTF8);
    CHECK(cc_search_call(engine, "files.suggest", "{\"query\":\"\xff\"}", &json) ==
          CC_SEARCH_ERR_INVALID_UTF8);
    CHECK(cc_search_call(engine, "files.suggest", "{\"query\":", &json) ==
          CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(cc_search_call(engine, "files.suggest", "[1,2]", &json) == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(cc_search_call(engine, "files.suggest", "{\"qurey\":\"x\"}", &json) ==
          CC_SEARCH_ERR_INVALID_REQUEST);
    {
        char *message = cc_search_last_error(engine);
        CHECK(message != NULL && strstr(message, "qurey") != NULL);
        cc_search_string_free(message);
    }
    CHECK(cc_search_call(engine, "drop.tables", "{}", &json) == CC_SEARCH_ERR_UNKNOWN_OPERATION);
    CHECK(thread_error_has("files.suggest"));
    CHECK(cc_search_call(engine, "files.refresh", "{\"root\":\"/nonexistent/cc-search\"}", &json) ==
          CC_SEARCH_ERR_IO);
    CHECK(thread_error_has("/nonexistent/cc-search"));

    /* Index, then hostile queries are answers, not errors. */
    char params[8192];
    snprintf(params, sizeof params, "{\"root\":%s}", project_json);
    CHECK(cc_search_call(engine, "files.refresh", params, &json) == CC_SEARCH_OK);
    CHECK(json != NULL && strstr(json, "\"files\":3") != NULL);
    cc_search_string_free(json);

    const char *hostile[] = {"\"\"", "\"\\\"\"", "\"-foo\"", "\"NEAR(\"", "\"*\"", "\"AND\"",
                             "\"a OR b NOT c\"", "\"\\u0000\""};
    for (size_t i = 0; i < sizeof hostile / sizeof *hostile; i++) {
        json = NULL;
        CHECK(suggest(hostile[i], &json) == CC_SEARCH_OK);
        CHECK(json != NULL && strstr(json, "\"paths\":[") != NULL);
        cc_search_string_free(json);
    }
    char *long_query = malloc(200000);
    long_query[0] = '"';
    for (int i = 1; i < 199998; i++) long_query[i] = "ab/ "[i % 4];
    long_query[199998] = '"';
    long_query[199999] = '\0';
    CHECK(suggest(long_query, &json) == CC_SEARCH_OK);
    cc_search_string_free(json);
    free(long_query);

    CHECK(suggest("\"src/comp\"", &json) == CC_SEARCH_OK);
    CHECK(json != NULL &&
          strstr(json, "\"paths\":[\"src/components/Modal.tsx\",\"src/components/Button.tsx\"]") != NULL);
    cc_search_string_free(json);

    CHECK(cc_search_operations(&json) == CC_SEARCH_OK);
    CHECK(strstr(json, "\"files.suggest\"") != NULL && strstr(json, "\"files.refresh\"") != NULL);
    cc_search_string_free(json);
    CHECK(cc_search_engine_warnings(engine, &json) == CC_SEARCH_OK);
    CHECK(strcmp(json, "[]") == 0);
    cc_search_string_free(json);

    /* One handle, many threads. */
    pthread_t threads[8];
    for (int i = 0; i < 8; i++) pthread_create(&threads[i], NULL, worker, NULL);
    for (int i = 0; i < 8; i++) {
        void *result = NULL;
        pthread_join(threads[i], &result);
        CHECK(result == NULL);
    }

    cc_search_engine_free(engine);
    return check_report();
}
