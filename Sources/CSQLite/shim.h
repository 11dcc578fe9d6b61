#ifndef PUSHDECK_CSQLITE_SHIM_H
#define PUSHDECK_CSQLITE_SHIM_H

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer: Swift cannot import it.
static inline sqlite3_destructor_type pd_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// Extended result codes are macros built with | and <<: Swift does not import them.
static inline int pd_sqlite_readonly_dbmoved(void) { return SQLITE_READONLY_DBMOVED; }

// sqlite3_config is variadic: Swift cannot call it. Memory statistics (on by default) take a
// library-wide mutex around every allocation and free; nothing here reads them.
static inline int pd_sqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

#endif
