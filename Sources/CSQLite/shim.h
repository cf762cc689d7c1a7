#ifndef POKESEARCH_CSQLITE_SHIM_H
#define POKESEARCH_CSQLITE_SHIM_H
#include <sqlite3.h>
#include <stdlib.h>
// SQLITE_TRANSIENT is a cast macro Swift cannot import; bind calls need it so SQLite
// copies the buffer before the Swift string it came from goes away.
static inline sqlite3_destructor_type pokesearch_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// FTS5's extension API of a connection (NULL when it has none), got as SQLite documents:
// the pointer the fts5() function writes through.
static inline fts5_api *pokesearch_fts5_api(sqlite3 *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    sqlite3_finalize(statement);
    return api;
}

// The auxiliary function pokesearch_instances(TABLE): how many times the query's phrases
// occur in the current row (bm25's f(q, D) for a query of one phrase). Unlike bm25() it
// reads neither the row's size nor the phrase's row count, each a lookup of its own.
static void pokesearch_fts5_instances(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                                      int count, sqlite3_value **values) {
    (void)count;
    (void)values;
    int instances = 0;
    int status = api->xInstCount(fts, &instances);
    if (status == SQLITE_OK) sqlite3_result_int(context, instances); else sqlite3_result_error_code(context, status);
}

static inline int pokesearch_fts5_register_instances(sqlite3 *db) {
    fts5_api *api = pokesearch_fts5_api(db);
    if (api == NULL) return SQLITE_ERROR;
    return api->xCreateFunction(api, "pokesearch_instances", NULL, pokesearch_fts5_instances, NULL);
}

// An FTS5 tokenizer of a connection, to count the tokens of a text as an FTS5 table using
// it does (its docsize): tokens FTS5_TOKEN_COLOCATED with the one before do not count.
typedef struct pokesearch_fts5_tokenizer {
    fts5_tokenizer methods;
    Fts5Tokenizer *instance;
} pokesearch_fts5_tokenizer;

static inline pokesearch_fts5_tokenizer *pokesearch_fts5_tokenizer_open(sqlite3 *db, const char *name,
                                                                        const char **arguments, int count) {
    fts5_api *api = pokesearch_fts5_api(db);
    if (api == NULL) return NULL;
    pokesearch_fts5_tokenizer *tokenizer = calloc(1, sizeof *tokenizer);
    if (tokenizer == NULL) return NULL;
    void *context = NULL;
    if (api->xFindTokenizer(api, name, &context, &tokenizer->methods) != SQLITE_OK
        || tokenizer->methods.xCreate(context, arguments, count, &tokenizer->instance) != SQLITE_OK) {
        free(tokenizer);
        return NULL;
    }
    return tokenizer;
}

static int pokesearch_fts5_count_token(void *count, int flags, const char *token, int length, int start, int end) {
    (void)token;
    (void)length;
    (void)start;
    (void)end;
    if ((flags & FTS5_TOKEN_COLOCATED) == 0) ++*(int *)count;
    return SQLITE_OK;
}

// The number of tokens in `text`, -1 if the tokenizer fails.
static inline int pokesearch_fts5_tokenizer_count(pokesearch_fts5_tokenizer *tokenizer, const char *text, int length) {
    int count = 0;
    int status = tokenizer->methods.xTokenize(tokenizer->instance, &count, FTS5_TOKENIZE_DOCUMENT, text, length,
                                              pokesearch_fts5_count_token);
    return status == SQLITE_OK ? count : -1;
}

static inline void pokesearch_fts5_tokenizer_close(pokesearch_fts5_tokenizer *tokenizer) {
    tokenizer->methods.xDelete(tokenizer->instance);
    free(tokenizer);
}
#endif
