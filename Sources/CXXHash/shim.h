#ifndef PUSHDECK_CXXHASH_SHIM_H
#define PUSHDECK_CXXHASH_SHIM_H

#include <xxhash.h>

#endif
