/* The MCP server through the C ABI, compiled with gcc and run by ffi/tests/c_abi.rs.
 *
 *   mcp_test <home-dir> <project-dir>   cc_search_mcp_handle checks, run with the project
 *                                       as the current directory; prints "ok <n> checks"
 *   mcp_test serve <home-dir>           cc_search_mcp_serve_stdio on stdin/stdout; the
 *                                       exit status is the returned status */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_search.h"

#include "check.h"

static cc_search_engine *engine;

/* The reply to `message` contains `needle` (and the call succeeded). */
static int reply_has(const char *message, const char *needle) {
    char *reply = NULL;
    cc_search_status status = cc_search_mcp_handle(engine, message, &reply);
    int ok = status == CC_SEARCH_OK && reply != NULL && strstr(reply, needle) != NULL;
    if (!ok) fprintf(stderr, "  reply: %s (wanted %s)\n", reply ? reply : "(null)", needle);
    cc_search_string_free(reply);
    return ok;
}

/* Whether the reply to `message` is there and does not contain `needle`. */
static int reply_lacks(const char *message, const char *needle) {
    char *reply = NULL;
    cc_search_status status = cc_search_mcp_handle(engine, message, &reply);
    int ok = status == CC_SEARCH_OK && reply != NULL && strstr(reply, needle) == NULL;
    if (!ok) fprintf(stderr, "  reply: %s (did not want %s)\n", reply ? reply : "(null)", needle);
    cc_search_string_free(reply);
    return ok;
}

static int open_engine(const char *home) {
    char options[4096];
    snprintf(options, sizeof options, "{\"home\":\"%s\"}", home);
    return cc_search_engine_open(options, &engine) == CC_SEARCH_OK;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "serve") == 0) {
        if (!open_engine(argv[2])) return 100;
        fflush(stdout);
        cc_search_status status = cc_search_mcp_serve_stdio(engine);
        cc_search_engine_free(engine);
        return (int)status;
    }
    if (argc != 3) return 2;
    CHECK(open_engine(argv[1]));

    /* NULL arguments are statuses, never crashes. */
    char *reply = (char *)1;
    CHECK(cc_search_mcp_handle(NULL, "{}", &reply) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(reply == NULL);
    reply = (char *)1;
    CHECK(cc_search_mcp_handle(engine, NULL, &reply) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(reply == NULL);
    CHECK(cc_search_mcp_handle(engine, "{}", NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(cc_search_mcp_serve_stdio(NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(cc_search_mcp_handle(engine, "\xff\xfe", &reply) == CC_SEARCH_ERR_INVALID_UTF8);

    /* The handshake, then a notification: no reply. */
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                    "\"params\":{\"protocolVersion\":\"2025-06-18\"}}",
                    "\"protocolVersion\":\"2025-06-18\""));
    reply = (char *)1;
    CHECK(cc_search_mcp_handle(engine, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                               &reply) == CC_SEARCH_OK);
    CHECK(reply == NULL);

    /* Protocol errors are replies. */
    CHECK(reply_has("not json", "-32700"));
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"nope\"}", "-32601"));

    /* Tools: checkfor in the project (the current directory), structured from 2025-06-18. */
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}", "\"name\":\"checkfor\""));
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":"
                    "{\"name\":\"checkfor\",\"arguments\":{\"search\":\"Button\",\"dir\":\"src/components\"}}}",
                    "\\\"matches_found\\\":1"));
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":"
                    "{\"name\":\"files_suggest\",\"arguments\":{\"query\":\"modal\"}}}",
                    "\"text\":\"{\\\"paths\\\":[\\\"src/components/Modal.tsx\\\"]"));
    /* The default toolset: no index runs, no deletion. */
    CHECK(reply_lacks("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}", "code_delete_repos"));
    /* Outside the project: refused as a tool error. */
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":"
                    "{\"name\":\"checkfor\",\"arguments\":{\"search\":\"root\",\"dir\":\"/\"}}}",
                    "\"isError\":true"));

    /* cc_search_mcp_start: bad options are statuses and keep the running session. */
    CHECK(cc_search_mcp_start(NULL, NULL) == CC_SEARCH_ERR_NULL_ARGUMENT);
    CHECK(cc_search_mcp_start(engine, "{\"tools\":[\"nope\"]}") == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(cc_search_mcp_start(engine, "{\"colour\":1}") == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(cc_search_mcp_start(engine, "not json") == CC_SEARCH_ERR_INVALID_REQUEST);
    CHECK(cc_search_mcp_start(engine, "\xff") == CC_SEARCH_ERR_INVALID_UTF8);
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\"}", "\"name\":\"checkfor\""));
    /* Every tool, structured output, a small budget. */
    CHECK(cc_search_mcp_start(engine, "{\"tools\":[\"all\"],\"structured\":true,\"max_tokens\":500}") == CC_SEARCH_OK);
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"initialize\","
                    "\"params\":{\"protocolVersion\":\"2025-06-18\"}}",
                    "\"protocolVersion\":\"2025-06-18\""));
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\"}", "code_delete_repos"));
    CHECK(reply_has("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":"
                    "{\"name\":\"files_suggest\",\"arguments\":{\"query\":\"modal\"}}}",
                    "\"structuredContent\":{\"paths\":[\"src/components/Modal.tsx\"]"));

    cc_search_engine_free(engine);
    return check_report();
}
