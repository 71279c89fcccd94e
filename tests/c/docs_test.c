/* docs.* and notes.* through the C ABI (cc_search_call), compiled with gcc and run by
 * ffi/tests/docs.rs. Usage: docs_test <home-dir> <project-dir>, where the project has
 * docs/guide.md with an "## Errors" section about exponential backoff. Exits 0 when
 * every check holds, printing "ok <n> checks"; otherwise prints each failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"

#include "check.h"

static cc_search_engine *engine;

/* Call `operation` with `params`; true when the status is `expected` and the JSON
 * reply (or, on failure, the last error) contains `needle`. */
static int call_has(const char *operation, const char *params, cc_search_status expected,
                    const char *needle) {
    char *json = NULL;
    cc_search_status status = cc_search_call(engine, operation, params, &json);
    char *text = status == CC_SEARCH_OK ? json : cc_search_last_error(engine);
    int ok = status == expected && text != NULL && strstr(text, needle) != NULL;
    if (!ok)
        fprintf(stderr, "  %s -> status %d: %s (wanted %s)\n", operation, (int)status,
                text ? text : "(null)", needle);
    if (text != json) cc_search_string_free(text);
    cc_search_string_free(json);
    return ok;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    char options[4096], params[8192];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", argv[1]);
    CHECK(cc_search_engine_open(options, &engine) == CC_SEARCH_OK);
    if (engine == NULL) return check_report();

    /* A query never indexes: nothing yet, and a warning that says what to run. */
    snprintf(params, sizeof params,
             "{\"project_dir\":\"%s\",\"query\":\"exponential backoff\",\"mode\":\"keyword\"}",
             argv[2]);
    CHECK(call_has("docs.query", params, CC_SEARCH_OK, "\"results\":[]"));
    CHECK(call_has("docs.query", params, CC_SEARCH_OK, "cc-search docs index"));

    snprintf(params, sizeof params, "{\"project_dir\":\"%s\",\"lock_wait_secs\":5}", argv[2]);
    CHECK(call_has("docs.index", params, CC_SEARCH_OK, "\"indexed\":1"));
    CHECK(call_has("docs.index", params, CC_SEARCH_OK, "\"unchanged\":1"));

    snprintf(params, sizeof params,
             "{\"project_dir\":\"%s\",\"query\":\"exponential backoff\",\"mode\":\"keyword\"}",
             argv[2]);
    CHECK(call_has("docs.query", params, CC_SEARCH_OK, "\"section\":\"Errors\""));
    CHECK(call_has("docs.query", params, CC_SEARCH_OK, "\"file\":\"docs/guide.md\""));

    /* Invalid requests are statuses with a message. */
    snprintf(params, sizeof params,
             "{\"project_dir\":\"%s\",\"query\":\"x\",\"after\":\"2026-02-31\"}", argv[2]);
    CHECK(call_has("notes.query", params, CC_SEARCH_ERR_INVALID_REQUEST,
                   "February 2026 has 28 days"));
    CHECK(call_has("docs.query", "{\"query\":\"x\",\"limit\":0}", CC_SEARCH_ERR_INVALID_REQUEST,
                   "limit"));
    CHECK(call_has("docs.index", "{\"globs\":[\"[\"]}", CC_SEARCH_ERR_INVALID_REQUEST, "glob"));

    cc_search_engine_free(engine);
    return check_report();
}
