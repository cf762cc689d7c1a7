#include <stddef.h>
#include <stdint.h>

// libFuzzer's entry point (linked in by -sanitize=fuzzer): parses libFuzzer's flags from
// argc/argv and fuzzes `callback`. SwiftPM renames an executable's `main` to
// `<module>_main`, so the fuzz targets call this from there instead of using libFuzzer's main.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
