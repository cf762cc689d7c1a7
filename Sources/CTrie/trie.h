#ifndef POKESEARCH_CTRIE_H
#define POKESEARCH_CTRIE_H
#include <stdint.h>

// Where the binary search for `byte` among `count` sorted, distinct bytes from `base` in
// `first_bytes` ends (the trie's children of one node): the last position whose byte is not
// above it. Each step is a conditional move: the compared bytes are what a processor cannot
// predict, and Swift's compiler turned the same select, however written, into a branch
// (perf put a third of a prefix lookup's time there). Inlined into Swift like a Swift
// function.
static inline long pokesearch_child_search(const uint8_t *first_bytes, long base, long count, uint8_t byte) {
    while (count > 1) {
        long half = count >> 1;
        base = __builtin_unpredictable(first_bytes[base + half] <= byte) ? base + half : base;
        count -= half;
    }
    return base;
}

#endif
