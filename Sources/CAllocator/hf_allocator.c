#include "hf_allocator.h"

// Any C library header defines __GLIBC__ on glibc (through <features.h>); the compiler does not.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>

bool hf_fix_mmap_threshold(int bytes) { return mallopt(M_MMAP_THRESHOLD, bytes) == 1; }

#else

bool hf_fix_mmap_threshold(int bytes) {
    (void)bytes;
    return false;
}

#endif
