#ifndef HF_ALLOCATOR_H
#define HF_ALLOCATOR_H

#include <stdbool.h>

/// Fixes glibc's mmap threshold at `bytes`: every block of at least that size is mapped on its own and unmapped
/// when freed, and glibc stops raising the threshold as such blocks are freed (`mallopt(M_MMAP_THRESHOLD, …)`).
/// Returns false where the C library is not glibc (nothing is changed) or when glibc refuses the value.
bool hf_fix_mmap_threshold(int bytes);

#endif
