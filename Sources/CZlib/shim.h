#ifndef HEALTHFLOW_CZLIB_SHIM_H
#define HEALTHFLOW_CZLIB_SHIM_H
#include <zlib.h>
#endif
