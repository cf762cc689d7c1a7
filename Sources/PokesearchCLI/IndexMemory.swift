import CLinux
import Glibc

/// Memory for the index a process loads first: a one-shot command's (a search, a
/// completion, `show`, ...) and the one a server starts with.
///
/// Loading copies the whole index, some 13 MB of arrays, out of the database into fresh
/// memory, and the first touch of each fresh 4 KB page was a third of a one-shot search's
/// time (thousands of page faults). Transparent huge pages
/// take that to a handful of 2 MB faults, but only in memory advised for them before
/// anything touches it, and the arrays are Swift arrays from malloc. So glibc is told to
/// serve arrays of up to 32 MB from its heap (rather than a mapping each) and never to
/// hand the heap's top back; the heap is grown by the index's size at once (a block
/// allocated and freed, which rejoins the free top of the heap untouched), that stretch is
/// advised for huge pages, and the arrays then fill it: `pokesearch "fire dragon"` takes
/// far fewer page faults and less time (docs/PERFORMANCE.md has the figures). A server
/// answers from such an index faster too: round trips a little shorter than the same
/// server's without (fewer TLB misses, presumably: this machine counts none).
///
/// Only the first load of the process, on its main thread: a server's RELOAD loads on a
/// thread of its own, into 4 KB pages, after `Server.serve` has set glibc back to a mapping
/// per large array and trimming (the first index's pages go back when it is replaced).
/// Where huge pages are off or glibc declines, this changes nothing but the speed.
enum IndexMemory {
    private static let hugePageSize = 2 << 20

    static func prepare(forIndexBytes bytes: Int) {
        // Room for the arrays' headers and the process's other allocations, and for the
        // stretch's two unaligned ends.
        let size = bytes + 2 * hugePageSize
        guard mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1, mallopt(M_TRIM_THRESHOLD, Int32.max) == 1,
              let block = malloc(size) else { return }
        free(block)
        let mask = UInt(hugePageSize - 1)
        let start = (UInt(bitPattern: block) + mask) & ~mask
        let end = (UInt(bitPattern: block) + UInt(size)) & ~mask
        guard end > start, let first = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(first, Int(end - start), MADV_HUGEPAGE)
    }
}
