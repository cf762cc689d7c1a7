#include "pokesearch_icu.h"
#include <stdlib.h>
#include <string.h>
#include <unicode/utypes.h>
#include <unicode/ustring.h>
#include <unicode/unorm2.h>
#include <unicode/uchar.h>
#include <unicode/utrans.h>

struct pokesearch_icu_transliterator { UTransliterator *handle; };

// Names are short; longer text falls back to the heap.
enum { STACK_UNITS = 256 };

typedef struct {
    UChar *units;
    int32_t length, capacity;
    UChar stack[STACK_UNITS];
} Buffer;

static void buffer_init(Buffer *b) { b->units = b->stack; b->length = 0; b->capacity = STACK_UNITS; }
static void buffer_free(Buffer *b) { if (b->units != b->stack) free(b->units); }
static int buffer_reserve(Buffer *b, int32_t capacity) {
    if (capacity <= b->capacity) return 1;
    UChar *grown = malloc(sizeof(UChar) * (size_t)capacity);
    if (!grown) return 0;
    memcpy(grown, b->units, sizeof(UChar) * (size_t)b->length);
    buffer_free(b);
    b->units = grown;
    b->capacity = capacity;
    return 1;
}

static int from_utf8(Buffer *b, const char *utf8, int32_t length, UErrorCode *status) {
    int32_t needed = 0;
    u_strFromUTF8WithSub(b->units, b->capacity, &needed, utf8, length, 0xFFFD, NULL, status);
    if (*status == U_BUFFER_OVERFLOW_ERROR) {
        *status = U_ZERO_ERROR;
        if (!buffer_reserve(b, needed + 1)) { *status = U_MEMORY_ALLOCATION_ERROR; return 0; }
        u_strFromUTF8WithSub(b->units, b->capacity, &needed, utf8, length, 0xFFFD, NULL, status);
    }
    b->length = needed;
    return U_SUCCESS(*status);
}

static int32_t to_utf8(const Buffer *b, char *out, int32_t capacity, UErrorCode *status) {
    int32_t needed = 0;
    u_strToUTF8WithSub(out, capacity, &needed, b->units, b->length, 0xFFFD, NULL, status);
    if (*status == U_BUFFER_OVERFLOW_ERROR || *status == U_STRING_NOT_TERMINATED_WARNING) *status = U_ZERO_ERROR;
    return U_SUCCESS(*status) ? needed : -1;
}

static int normalize(const UNormalizer2 *n, Buffer *src, Buffer *dst, UErrorCode *status) {
    int32_t needed = unorm2_normalize(n, src->units, src->length, dst->units, dst->capacity, status);
    if (*status == U_BUFFER_OVERFLOW_ERROR) {
        *status = U_ZERO_ERROR;
        if (!buffer_reserve(dst, needed + 1)) { *status = U_MEMORY_ALLOCATION_ERROR; return 0; }
        needed = unorm2_normalize(n, src->units, src->length, dst->units, dst->capacity, status);
    }
    dst->length = needed;
    return U_SUCCESS(*status);
}

static int fold_case(Buffer *src, Buffer *dst, UErrorCode *status) {
    int32_t needed = u_strFoldCase(dst->units, dst->capacity, src->units, src->length, U_FOLD_CASE_DEFAULT, status);
    if (*status == U_BUFFER_OVERFLOW_ERROR) {
        *status = U_ZERO_ERROR;
        if (!buffer_reserve(dst, needed + 1)) { *status = U_MEMORY_ALLOCATION_ERROR; return 0; }
        needed = u_strFoldCase(dst->units, dst->capacity, src->units, src->length, U_FOLD_CASE_DEFAULT, status);
    }
    dst->length = needed;
    return U_SUCCESS(*status);
}

// Letters that carry their "diacritic" in the base letter, so NFKD leaves them whole.
// Capitals and small letters alike: this runs before the case folding ("Œil" and "œil" both
// "oeil").
static const char *letter_replacement(UChar c) {
    switch (c) {
    case 0x00D8: case 0x00F8: return "o";  // Ø ø
    case 0x0141: case 0x0142: return "l";  // Ł ł
    case 0x00C6: case 0x00E6: return "ae"; // Æ æ
    case 0x0152: case 0x0153: return "oe"; // Œ œ
    case 0x0110: case 0x0111: return "d";  // Đ đ
    case 0x0131: return "i";               // ı (its capital is I)
    case 0x00DE: case 0x00FE: return "th"; // Þ þ
    case 0x00D0: case 0x00F0: return "d";  // Ð ð
    default: return NULL;
    }
}

// Drops nonspacing marks (diacritics in every script) but keeps the kana voicing marks,
// which change the kana (カ/ガ), and maps the letters above.
static int strip_marks(Buffer *src, Buffer *dst, UErrorCode *status) {
    if (!buffer_reserve(dst, src->length * 2 + 1)) { *status = U_MEMORY_ALLOCATION_ERROR; return 0; }
    int32_t out = 0;
    for (int32_t i = 0; i < src->length;) {
        UChar32 c;
        U16_NEXT(src->units, i, src->length, c);
        if (c != 0x3099 && c != 0x309A && u_charType(c) == U_NON_SPACING_MARK) continue;
        const char *replacement = c <= 0xFFFF ? letter_replacement((UChar)c) : NULL;
        if (replacement) {
            for (const char *r = replacement; *r; r++) dst->units[out++] = (UChar)*r;
            continue;
        }
        U16_APPEND_UNSAFE(dst->units, out, c);
    }
    dst->length = out;
    return 1;
}

int32_t pokesearch_icu_fold(const char *utf8, int32_t length, char *out, int32_t capacity, int32_t *status_out) {
    UErrorCode status = U_ZERO_ERROR;
    const UNormalizer2 *nfkd = unorm2_getNFKDInstance(&status);
    const UNormalizer2 *nfkc = unorm2_getNFKCInstance(&status);
    Buffer a, b;
    buffer_init(&a);
    buffer_init(&b);
    int32_t result = -1;
    if (U_SUCCESS(status)
        && from_utf8(&a, utf8, length, &status)
        && normalize(nfkd, &a, &b, &status)
        && strip_marks(&b, &a, &status)
        && fold_case(&a, &b, &status)
        && normalize(nfkc, &b, &a, &status)) {
        for (int32_t i = 0; i < a.length; i++) {
            UChar c = a.units[i];
            if (c >= 0x3041 && c <= 0x3096) a.units[i] = (UChar)(c + 0x60); // hiragana → katakana
        }
        result = to_utf8(&a, out, capacity, &status);
    }
    buffer_free(&a);
    buffer_free(&b);
    *status_out = (int32_t)status;
    return U_SUCCESS(status) ? result : -1;
}

pokesearch_icu_transliterator *pokesearch_icu_transliterator_open(const char *id, int32_t *status_out) {
    UErrorCode status = U_ZERO_ERROR;
    Buffer name;
    buffer_init(&name);
    pokesearch_icu_transliterator *t = NULL;
    if (from_utf8(&name, id, -1, &status)) {
        UTransliterator *handle = utrans_openU(name.units, name.length, UTRANS_FORWARD, NULL, 0, NULL, &status);
        if (U_SUCCESS(status)) {
            t = malloc(sizeof *t);
            if (t) t->handle = handle; else { utrans_close(handle); status = U_MEMORY_ALLOCATION_ERROR; }
        }
    }
    buffer_free(&name);
    *status_out = (int32_t)status;
    return t;
}

pokesearch_icu_transliterator *pokesearch_icu_transliterator_clone(const pokesearch_icu_transliterator *t, int32_t *status_out) {
    UErrorCode status = U_ZERO_ERROR;
    UTransliterator *handle = utrans_clone(t->handle, &status);
    pokesearch_icu_transliterator *copy = NULL;
    if (U_SUCCESS(status)) {
        copy = malloc(sizeof *copy);
        if (copy) copy->handle = handle; else { utrans_close(handle); status = U_MEMORY_ALLOCATION_ERROR; }
    }
    *status_out = (int32_t)status;
    return copy;
}

void pokesearch_icu_transliterator_close(pokesearch_icu_transliterator *t) {
    if (!t) return;
    utrans_close(t->handle);
    free(t);
}

int32_t pokesearch_icu_transliterate(pokesearch_icu_transliterator *t, const char *utf8, int32_t length,
                                     char *out, int32_t capacity, int32_t *status_out) {
    UErrorCode status = U_ZERO_ERROR;
    Buffer text;
    buffer_init(&text);
    int32_t result = -1;
    if (from_utf8(&text, utf8, length, &status)) {
        // Transliteration can lengthen text (one han → a pinyin syllable): leave room.
        if (buffer_reserve(&text, text.length * 8 + 16)) {
            int32_t textLength = text.length, limit = text.length;
            utrans_transUChars(t->handle, text.units, &textLength, text.capacity, 0, &limit, &status);
            if (U_SUCCESS(status)) {
                text.length = textLength;
                result = to_utf8(&text, out, capacity, &status);
            }
        } else {
            status = U_MEMORY_ALLOCATION_ERROR;
        }
    }
    buffer_free(&text);
    *status_out = (int32_t)status;
    return U_SUCCESS(status) ? result : -1;
}

const char *pokesearch_icu_error_name(int32_t status) { return u_errorName((UErrorCode)status); }
