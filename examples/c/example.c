/* Index a directory and ask the file picker, from C.
 *
 *   cc example.c -I include -L target/debug -lcc_search -o example
 *   ./example <project-dir> <query>
 *
 * The data root is $CC_SEARCH_HOME (else the XDG data directory). Prints the paths
 * suggested for <query>, one per line, best first, as the `@` picker shows them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"

/* Append `s` to `buf` as a JSON string literal. */
static void json_string(char *buf, size_t cap, const char *s) {
    size_t n = strlen(buf);
    if (n + 1 < cap) buf[n++] = '"';
    for (; *s && n + 3 < cap; s++) {
        if (*s == '"' || *s == '\\') buf[n++] = '\\';
        buf[n++] = *s;
    }
    if (n + 1 < cap) buf[n++] = '"';
    buf[n] = '\0';
}

static int fail(cc_search_engine *engine, cc_search_status status) {
    char *message = cc_search_last_error(engine);
    fprintf(stderr, "error %s: %s\n", cc_search_status_name(status), message ? message : "?");
    cc_search_string_free(message);
    cc_search_engine_free(engine);
    return 1;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s <project-dir> <query>\n", argv[0]);
        return 2;
    }
    cc_search_engine *engine = NULL;
    cc_search_status status = cc_search_engine_open(NULL, &engine);
    if (status != CC_SEARCH_OK) return fail(NULL, status);

    char params[8192] = "{\"root\":";
    json_string(params, sizeof params, argv[1]);
    strcat(params, "}");
    char *json = NULL;
    status = cc_search_call(engine, "files.refresh", params, &json);
    if (status != CC_SEARCH_OK) return fail(engine, status);
    fprintf(stderr, "refreshed: %s\n", json);
    cc_search_string_free(json);

    strcpy(params, "{\"project_dir\":");
    json_string(params, sizeof params, argv[1]);
    strcat(params, ",\"query\":");
    json_string(params, sizeof params, argv[2]);
    strcat(params, "}");
    status = cc_search_call(engine, "files.suggest", params, &json);
    if (status != CC_SEARCH_OK) return fail(engine, status);
    printf("%s\n", json);
    cc_search_string_free(json);

    cc_search_engine_free(engine);
    return 0;
}
