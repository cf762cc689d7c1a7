// zlib (Debian's zlib1g-dev): PNG image data is a zlib stream, inflated here, not by hand.
#include <zlib.h>

// inflateInit is a macro Swift does not import.
static inline int pokesearch_inflate_init(z_stream *stream) { return inflateInit(stream); }
