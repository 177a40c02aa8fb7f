#ifndef HF_SHA1_H
#define HF_SHA1_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// Whether this processor has the instructions `hf_sha1_compress` uses: the x86-64 SHA extensions (with SSSE3 and
/// SSE4.1). Always false on other processors, where HealthExport's portable SHA-1 is used instead.
bool hf_sha1_hardware_available(void);

/// Compresses `blocks` 64-byte blocks starting at `data` into `state`, the five chaining words of FIPS 180-4
/// (H0…H4, in that order), with the SHA extensions. Padding is the caller's.
///
/// Precondition: `hf_sha1_hardware_available()` returned true (it is not asked again: on an x86-64 processor
/// without the extensions the call stops the process with an illegal instruction; elsewhere it does nothing).
void hf_sha1_compress(uint32_t state[5], const uint8_t *data, size_t blocks);

#endif
