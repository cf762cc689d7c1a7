#ifndef POKESEARCH_ICU_H
#define POKESEARCH_ICU_H
// A plain C face for the few ICU services pokesearch needs. No ICU type appears here:
// ICU's headers clash with the ICU that Foundation bundles inside any Swift module that
// imports Foundation, so only pokesearch_icu.c includes them.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Folds UTF-8 text for matching: NFKD, nonspacing marks removed (kana voicing marks
/// kept), full case folding, a few letters without decomposition mapped (ø→o, ł→l,
/// æ→ae, œ→oe, đ→d, ı→i, þ→th), NFKC, hiragana mapped to katakana.
/// Writes at most `capacity` bytes to `out` (not NUL-terminated) and returns the length
/// the result needs; on error returns -1 and sets *status to the ICU error code.
int32_t pokesearch_icu_fold(const char *utf8, int32_t length, char *out, int32_t capacity, int32_t *status);

/// An opaque ICU transliterator. Not thread-safe: one per thread, or guarded.
typedef struct pokesearch_icu_transliterator pokesearch_icu_transliterator;

/// Opens a transliterator by ICU id (e.g. "Any-Latin"); NULL with *status on error.
pokesearch_icu_transliterator *pokesearch_icu_transliterator_open(const char *id, int32_t *status);
pokesearch_icu_transliterator *pokesearch_icu_transliterator_clone(const pokesearch_icu_transliterator *t, int32_t *status);
void pokesearch_icu_transliterator_close(pokesearch_icu_transliterator *t);

/// Transliterates UTF-8 text; same output convention as pokesearch_icu_fold.
int32_t pokesearch_icu_transliterate(pokesearch_icu_transliterator *t, const char *utf8, int32_t length,
                                     char *out, int32_t capacity, int32_t *status);

/// The ICU error name for a status code, for error messages.
const char *pokesearch_icu_error_name(int32_t status);

#ifdef __cplusplus
}
#endif
#endif
