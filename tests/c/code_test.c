/* code.* through the C ABI (cc_search_call), compiled with gcc and run by
 * ffi/tests/code.rs. Usage: code_test <home-dir> <repo-dir>, where the repository has
 * src/service.ts (class UserService, method getUserById calling helper) and
 * src/helpers.ts (function helper), src/pets.ts (two classes with `speak`, and `talk`
 * calling `pet.speak()`). Exits 0 when every check holds, printing
 * "ok <n> checks"; otherwise prints each failed check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"

#include "check.h"

static cc_search_engine *engine;

/* Call `operation` with `params`: the status, and the JSON reply (or, on failure, the
 * last error) in `*text`, to be freed with cc_search_string_free. */
static cc_search_status call(const char *operation, const char *params, char **text) {
    char *json = NULL;
    cc_search_status status = cc_search_call(engine, operation, params, &json);
    *text = status == CC_SEARCH_OK ? json : cc_search_last_error(engine);
    if (*text == NULL) fprintf(stderr, "  %s -> status %d, no text\n", operation, (int)status);
    return status;
}

/* True when `text` contains `needle`; says what it got otherwise. */
static int has(const char *text, const char *needle) {
    int ok = text != NULL && strstr(text, needle) != NULL;
    if (!ok) fprintf(stderr, "  wanted %s in: %s\n", needle, text ? text : "(null)");
    return ok;
}

/* The number after the first `"<key>":` in `json`, or -1. */
static long number_after(const char *json, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":", key);
    const char *at = json ? strstr(json, pattern) : NULL;
    return at ? strtol(at + strlen(pattern), NULL, 10) : -1;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    char options[4096], params[8192];
    char *text = NULL;
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", argv[1]);
    CHECK(cc_search_engine_open(options, &engine) == CC_SEARCH_OK);
    if (engine == NULL) return check_report();

    /* Index: both files are new; again, both are unchanged. */
    snprintf(params, sizeof params, "{\"path\":\"%s\"}", argv[2]);
    CHECK(call("code.index_repository", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "\"status\":\"ok\""));
    CHECK(has(text, "\"files\":3"));
    CHECK(has(text, "\"new\":3"));
    cc_search_string_free(text);
    CHECK(call("code.index_repository", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "\"unchanged\":3"));
    cc_search_string_free(text);

    /* Search by subword: `user by id` finds the method, in compact keys. */
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"query\":\"user by id\",\"kind\":\"method\"}",
             argv[2]);
    CHECK(call("code.search_symbols", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "\"name\":\"getUserById\""));
    CHECK(has(text, "\"kind\":\"method\""));
    CHECK(has(text, "\"path\":\"src/service.ts\""));
    long id = number_after(text, "id");
    CHECK(id > 0);
    cc_search_string_free(text);

    /* The detail: full signature and doc, parent, and the call resolved to helper. */
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"id\":%ld}", argv[2], id);
    CHECK(call("code.get_symbol_detail", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "\"name\":\"getUserById\""));
    CHECK(has(text, "\"signature\":\"getUserById(id: number): User\""));
    CHECK(has(text, "\"doc\":\"Get one user by id.\""));
    CHECK(has(text, "\"parent\":{"));
    CHECK(has(text, "\"name\":\"UserService\""));
    CHECK(has(text, "\"calls\":[{\"name\":\"helper\",\"id\":"));
    long helper = number_after(text ? strstr(text, "\"calls\":") : NULL, "id");
    CHECK(helper > 0 && helper != id);
    cc_search_string_free(text);

    /* The callee's detail names its caller. */
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"id\":%ld}", argv[2], helper);
    CHECK(call("code.get_symbol_detail", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "\"path\":\"src/helpers.ts\""));
    CHECK(has(text, "\"from_name\":\"getUserById\""));
    cc_search_string_free(text);

    /* A method of a value of unknown type (src/pets.ts: `pet.speak()`, two classes
     * define `speak`): ambiguous, with its candidates, linked to neither. */
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"query\":\"talk\"}", argv[2]);
    CHECK(call("code.search_symbols", params, &text) == CC_SEARCH_OK);
    long talk = number_after(text, "id");
    cc_search_string_free(text);
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"id\":%ld}", argv[2], talk);
    CHECK(call("code.get_dependencies", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "{\"to_name\":\"speak\",\"kind\":\"call\",\"ambiguous\":true,\"candidates\":["));
    cc_search_string_free(text);

    /* code.find: a description to the file and definition it is about. */
    snprintf(params, sizeof params,
             "{\"path\":\"%s\",\"query\":\"getUserById() loads the wrong user\",\"limit\":2}",
             argv[2]);
    CHECK(call("code.find", params, &text) == CC_SEARCH_OK);
    CHECK(has(text, "{\"files\":[{\"path\":\"src/service.ts\",\"score\":"));
    /* The definitions to change, best first: the method it names comes first. */
    const char *hits = strstr(text, "\"hits\":[{\"path\":\"src/service.ts\",");
    CHECK(hits != NULL);
    const char *first = hits ? strstr(hits, "\"name\":\"") : NULL;
    const char *expected = "\"name\":\"getUserById\"";
    CHECK(first != NULL && strncmp(first, expected, strlen(expected)) == 0);
    CHECK(has(text, "\"used\":[\"keyword\",\"structure\""));
    cc_search_string_free(text);
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"query\":\"?!\"}", argv[2]);
    CHECK(call("code.find", params, &text) == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(has(text, "no words"));
    cc_search_string_free(text);

    /* Invalid requests are statuses with a message. */
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"id\":987654}", argv[2]);
    CHECK(call("code.get_symbol_detail", params, &text) == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(has(text, "987654"));
    cc_search_string_free(text);
    snprintf(params, sizeof params, "{\"path\":\"%s\",\"query\":\"\"}", argv[2]);
    CHECK(call("code.search_symbols", params, &text) == CC_SEARCH_ERR_INVALID_REQUEST);
    cc_search_string_free(text);

    cc_search_engine_free(engine);
    return check_report();
}
