#ifndef POKESEARCH_CSQLITE_SHIM_H
#define POKESEARCH_CSQLITE_SHIM_H
#include <sqlite3.h>
// SQLITE_TRANSIENT is a cast macro Swift cannot import; bind calls need it so SQLite
// copies the buffer before the Swift string it came from goes away.
static inline sqlite3_destructor_type pokesearch_sqlite_transient(void) { return SQLITE_TRANSIENT; }
#endif
