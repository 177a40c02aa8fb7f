#include "hf_sha1.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

#include <cpuid.h>
#include <immintrin.h>

bool hf_sha1_hardware_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
    const bool ssse3 = (ecx & (1u << 9)) != 0;
    const bool sse41 = (ecx & (1u << 19)) != 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    const bool sha = (ebx & (1u << 29)) != 0;
    return ssse3 && sse41 && sha;
}

// Four rounds: `group` (0…19) is the rounds' quarter of 4·group…4·group+3. A group's E operand is the rotated A of
// the state two groups back plus its four schedule words (`sha1nexte`); the two E registers alternate so that
// each keeps the state from before the group it follows. From group 4 on, the schedule words are made from the
// sixteen before them: W[t] = rol1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), four at a time (`sha1msg1`, the W[t-8]
// xor, `sha1msg2`).
#define HF_SHA1_GROUP(group, function, e_next, e_keep, current, plus1, plus2, plus3)                              \
    do {                                                                                                           \
        if ((group) >= 4) {                                                                                        \
            current = _mm_sha1msg2_epu32(                                                                          \
                _mm_xor_si128(_mm_sha1msg1_epu32(current, plus1), plus2), plus3);                                  \
        }                                                                                                          \
        e_next = _mm_sha1nexte_epu32(e_next, current);                                                             \
        e_keep = abcd;                                                                                             \
        abcd = _mm_sha1rnds4_epu32(abcd, e_next, function);                                                        \
    } while (0)

__attribute__((target("sha,sse4.1,ssse3")))
static void hf_sha1_compress_sha_ni(uint32_t state[5], const uint8_t *data, size_t blocks) {
    // Each word's bytes reversed (big-endian words) and the four words in reverse order: W0 in the high lane.
    const __m128i reverse = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0x1B);
    __m128i e0 = _mm_set_epi32((int)state[4], 0, 0, 0);
    for (size_t block = 0; block < blocks; block++, data += 64) {
        const __m128i abcd_before = abcd;
        const __m128i e_before = e0;
        __m128i m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 0)), reverse);
        __m128i m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16)), reverse);
        __m128i m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 32)), reverse);
        __m128i m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 48)), reverse);
        __m128i e1;

        // Group 0: E itself, not a rotated A, goes into the first four rounds.
        e0 = _mm_add_epi32(e0, m0);
        e1 = abcd;
        abcd = _mm_sha1rnds4_epu32(abcd, e0, 0);

        HF_SHA1_GROUP(1, 0, e1, e0, m1, m2, m3, m0);
        HF_SHA1_GROUP(2, 0, e0, e1, m2, m3, m0, m1);
        HF_SHA1_GROUP(3, 0, e1, e0, m3, m0, m1, m2);
        HF_SHA1_GROUP(4, 0, e0, e1, m0, m1, m2, m3);
        HF_SHA1_GROUP(5, 1, e1, e0, m1, m2, m3, m0);
        HF_SHA1_GROUP(6, 1, e0, e1, m2, m3, m0, m1);
        HF_SHA1_GROUP(7, 1, e1, e0, m3, m0, m1, m2);
        HF_SHA1_GROUP(8, 1, e0, e1, m0, m1, m2, m3);
        HF_SHA1_GROUP(9, 1, e1, e0, m1, m2, m3, m0);
        HF_SHA1_GROUP(10, 2, e0, e1, m2, m3, m0, m1);
        HF_SHA1_GROUP(11, 2, e1, e0, m3, m0, m1, m2);
        HF_SHA1_GROUP(12, 2, e0, e1, m0, m1, m2, m3);
        HF_SHA1_GROUP(13, 2, e1, e0, m1, m2, m3, m0);
        HF_SHA1_GROUP(14, 2, e0, e1, m2, m3, m0, m1);
        HF_SHA1_GROUP(15, 3, e1, e0, m3, m0, m1, m2);
        HF_SHA1_GROUP(16, 3, e0, e1, m0, m1, m2, m3);
        HF_SHA1_GROUP(17, 3, e1, e0, m1, m2, m3, m0);
        HF_SHA1_GROUP(18, 3, e0, e1, m2, m3, m0, m1);
        HF_SHA1_GROUP(19, 3, e1, e0, m3, m0, m1, m2);

        // E after the 80 rounds is the A of four rounds before, rotated; then both add to the block's input.
        e0 = _mm_sha1nexte_epu32(e0, e_before);
        abcd = _mm_add_epi32(abcd, abcd_before);
    }
    _mm_storeu_si128((__m128i *)state, _mm_shuffle_epi32(abcd, 0x1B));
    state[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}

void hf_sha1_compress(uint32_t state[5], const uint8_t *data, size_t blocks) {
    // Not checked here: `cpuid` costs a virtual machine an exit to its host. The caller asked once.
    hf_sha1_compress_sha_ni(state, data, blocks);
}

#else

bool hf_sha1_hardware_available(void) { return false; }

void hf_sha1_compress(uint32_t state[5], const uint8_t *data, size_t blocks) {
    (void)state;
    (void)data;
    (void)blocks;
}

#endif
