#ifndef POKESEARCH_CTRIE_H
#define POKESEARCH_CTRIE_H
#include <stdint.h>
#include <emmintrin.h>

// The position of `byte` among `count` distinct bytes from `base` in `first_bytes` (the
// first bytes of one trie node's children), or -1. Sixteen bytes are compared at once
// (SSE2, in every x86-64 processor): most nodes have fewer children, so one comparison
// answers, where a binary search made a chain of dependent loads (perf put most of a prefix
// lookup's time in that chain, even with conditional moves). A 16-byte load that would
// pass `total`, the array's length, is not made: the rest is compared a byte at a time.
// Inlined into Swift like a Swift function.
static inline long pokesearch_child_find(const uint8_t *first_bytes, long total, long base, long count, uint8_t byte) {
    const __m128i wanted = _mm_set1_epi8((char)byte);
    long i = 0;
    for (; i < count && base + i + 16 <= total; i += 16) {
        __m128i chunk = _mm_loadu_si128((const __m128i *)(first_bytes + base + i));
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(chunk, wanted));
        long remaining = count - i;
        if (remaining < 16) mask &= (1u << remaining) - 1u;
        if (mask != 0) return base + i + __builtin_ctz(mask);
    }
    for (; i < count; i++) {
        if (first_bytes[base + i] == byte) return base + i;
    }
    return -1;
}

// Asks for the cache line holding `address` ahead of its use: loads that do not depend on
// one another, issued together, wait for memory once instead of one after another.
static inline void pokesearch_prefetch(const void *address) {
    __builtin_prefetch(address);
}

#endif
