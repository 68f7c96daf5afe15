/* The RRF reader's passes over bytes, in C (see biosem.terminology.rrf.kernels, whose numba kernels compute
 * the same and serve where this extension is not built).
 *
 * split_fields finds the fields of a block of whole lines; the other functions take a string column, either
 * as its two Arrow buffers, offsets (int32, n + 1, rebased to 0) and data (uint8), or as spans, the start and
 * end offsets (int32, n each) of its values in a block. Each reads every value once and writes into output
 * buffers the caller allocated. The loops run without the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Are the n bytes at a and b the same? (Inline: the values are a few bytes long, shorter than a call to memcmp.) */
static inline int same(const uint8_t *a, const uint8_t *b, Py_ssize_t n) {
    for (Py_ssize_t k = 0; k < n; k++)
        if (a[k] != b[k]) return 0;
    return 1;
}

typedef struct {
    Py_buffer view[8];
    int n;
} Views;

static void release(Views *v) {
    for (int i = 0; i < v->n; i++) PyBuffer_Release(&v->view[i]);
    v->n = 0;
}

/* *buf: a C-contiguous buffer of at least count items of itemsize bytes (writable if asked), kept in v; its
 * item count in *items. -1 with an exception set if there is none. */
static int get(Views *v, PyObject *obj, int writable, Py_ssize_t itemsize, Py_ssize_t count, const char *name,
               void *buf, Py_ssize_t *items) {
    Py_buffer *view = &v->view[v->n];
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0)) < 0) return -1;
    v->n++;
    if (view->len < count * itemsize || view->len % itemsize != 0) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items of %zd bytes, got %zd bytes", name, count, itemsize,
                     view->len);
        return -1;
    }
    *(void **)buf = view->buf;
    if (items) *items = view->len / itemsize;
    return 0;
}

/* A string column's two buffers: *off (int32, n + 1, from 0) and *data (at least off[n] bytes); n in *n. */
static int get_strings(Views *v, PyObject *o_off, PyObject *o_data, const int32_t **off, const uint8_t **data,
                       Py_ssize_t *n) {
    if (get(v, o_off, 0, 4, 1, "offsets", off, n) < 0) return -1;
    *n -= 1;
    return get(v, o_data, 0, 1, (*off)[*n], "data", data, NULL);
}

/* match_prefixed_class(offsets, data, prefix, in_class, min_count, max_count, optional, out): per value, is it
 * prefix, then min_count .. max_count (-1: any number) bytes b with in_class[b], and nothing else ("" too if
 * optional)? out: uint8 (bool), n. */
static PyObject *match_prefixed_class(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data, *o_prefix, *o_class, *o_out;
    long long min_count, max_count;
    int optional;
    if (!PyArg_ParseTuple(args, "OOOOLLpO", &o_off, &o_data, &o_prefix, &o_class, &min_count, &max_count, &optional,
                          &o_out))
        return NULL;
    Views v = {.n = 0};
    const int32_t *off;
    const uint8_t *data, *prefix, *in_class;
    uint8_t *out;
    Py_ssize_t n, p;
    if (get_strings(&v, o_off, o_data, &off, &data, &n) < 0 ||
        get(&v, o_prefix, 0, 1, 0, "prefix", &prefix, &p) < 0 ||
        get(&v, o_class, 0, 1, 256, "in_class", &in_class, NULL) < 0 || get(&v, o_out, 1, 1, n, "out", &out, NULL) < 0)
        goto fail;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t start = off[i], end = off[i + 1];
        long long count = (long long)(end - start) - p;
        int ok = count >= min_count && (max_count < 0 || count <= max_count);
        if (ok) ok = same(data + start, prefix, p);
        for (int32_t j = start + (int32_t)p; ok && j < end; j++) ok = in_class[data[j]];
        out[i] = ok || (optional && end == start);
    }
    Py_END_ALLOW_THREADS
    release(&v);
    Py_RETURN_NONE;
fail:
    release(&v);
    return NULL;
}

/* equals(offsets, data, text, out): per value, is it text? out: uint8 (bool), n. */
static PyObject *equals(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data, *o_text, *o_out;
    if (!PyArg_ParseTuple(args, "OOOO", &o_off, &o_data, &o_text, &o_out)) return NULL;
    Views v = {.n = 0};
    const int32_t *off;
    const uint8_t *data, *text;
    uint8_t *out;
    Py_ssize_t n, t;
    if (get_strings(&v, o_off, o_data, &off, &data, &n) < 0 ||
        get(&v, o_text, 0, 1, 0, "text", &text, &t) < 0 ||
        get(&v, o_out, 1, 1, n, "out", &out, NULL) < 0)
        goto fail;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++) out[i] = off[i + 1] - off[i] == t && same(data + off[i], text, t);
    Py_END_ALLOW_THREADS
    release(&v);
    Py_RETURN_NONE;
fail:
    release(&v);
    return NULL;
}

/* gather_strings(offsets, data, rows, base, out_offsets, out_data) -> bytes: appends the values at rows (int64,
 * ascending; empty: every value) to a string array being built: their bytes to out_data (from its start), their
 * end offsets plus base to out_offsets[1..] (out_offsets[0] is the start already written). Returns the bytes
 * written. */
static PyObject *gather_strings(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data, *o_rows, *o_out_off, *o_out_data;
    long long base;
    if (!PyArg_ParseTuple(args, "OOOLOO", &o_off, &o_data, &o_rows, &base, &o_out_off, &o_out_data)) return NULL;
    Views v = {.n = 0};
    const int32_t *off;
    const uint8_t *data;
    const int64_t *rows;
    int32_t *out_off;
    uint8_t *out_data;
    Py_ssize_t n, n_rows, n_out_off, n_out_data;
    if (get_strings(&v, o_off, o_data, &off, &data, &n) < 0 ||
        get(&v, o_rows, 0, 8, 0, "rows", &rows, &n_rows) < 0 ||
        get(&v, o_out_off, 1, 4, 1, "out_offsets", &out_off, &n_out_off) < 0 ||
        get(&v, o_out_data, 1, 1, 0, "out_data", &out_data, &n_out_data) < 0)
        goto fail;
    int every = n_rows == 0;
    Py_ssize_t m = every ? n : n_rows;
    if (n_out_off < m + 1) {
        PyErr_SetString(PyExc_ValueError, "out_offsets: too short");
        goto fail;
    }
    for (Py_ssize_t k = 0; k < n_rows; k++)
        if (rows[k] < 0 || rows[k] >= n) {
            PyErr_SetString(PyExc_IndexError, "rows: out of range");
            goto fail;
        }
    Py_ssize_t need = 0;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t i = every ? k : rows[k];
        need += off[i + 1] - off[i];
    }
    if (need > n_out_data || base + need > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "out_data: too short, or past 2**31 - 1 bytes");
        goto fail;
    }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < m; k++) {
        Py_ssize_t i = every ? k : rows[k];
        int32_t length = off[i + 1] - off[i];
        memcpy(out_data + at, data + off[i], length);
        at += length;
        out_off[k + 1] = (int32_t)(base + at);
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromSsize_t(need);
fail:
    release(&v);
    return NULL;
}

/* base11_keys(offsets, data, keep, skip, digits, out) -> bool: int64 keys (out, one per kept value: keep is
 * uint8 of n, or empty for all) ordered as the values, ASCII digits after skip leading bytes, read as base-11
 * numerals of `digits` places (digit + 1, right-padded with 0); False when a kept value has more digits. */
static PyObject *base11_keys(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data, *o_keep, *o_out;
    long long skip, digits;
    if (!PyArg_ParseTuple(args, "OOOLLO", &o_off, &o_data, &o_keep, &skip, &digits, &o_out)) return NULL;
    if (digits < 0 || digits > 18 || skip < 0) {
        PyErr_SetString(PyExc_ValueError, "digits must be in 0..18, skip >= 0");
        return NULL;
    }
    Views v = {.n = 0};
    const int32_t *off;
    const uint8_t *data, *keep;
    int64_t *out;
    Py_ssize_t n, n_keep;
    if (get_strings(&v, o_off, o_data, &off, &data, &n) < 0 ||
        get(&v, o_keep, 0, 1, 0, "keep", &keep, &n_keep) < 0)
        goto fail;
    int every = n_keep == 0;
    if (!every && n_keep != n) {
        PyErr_SetString(PyExc_ValueError, "keep: one flag per value, or none");
        goto fail;
    }
    Py_ssize_t m = every ? n : 0;
    for (Py_ssize_t i = 0; !every && i < n; i++) m += keep[i] != 0;
    if (get(&v, o_out, 1, 8, m, "out", &out, NULL) < 0) goto fail;
    int ok = 1;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t r = 0;
    for (Py_ssize_t i = 0; i < n && ok; i++) {
        if (!every && !keep[i]) continue;
        int64_t start = off[i] + skip, end = off[i + 1];
        if (end - start > digits) {
            ok = 0;
            break;
        }
        int64_t key = 0;
        for (int64_t j = start; j < start + digits; j++) key = key * 11 + (j < end ? (int64_t)data[j] - 47 : 0);
        out[r++] = key;
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyBool_FromLong(ok);
fail:
    release(&v);
    return NULL;
}

/* encode_spans(data, starts, ends, slots, store, bounds, n_codes, max_codes, out, wide) -> n_codes: dictionary codes
 * (out: uint16, or int32 if wide) of the values data[starts[i]:ends[i]] (int32, n each), continuing a dictionary
 * held in slots (int32,
 * a power of two > 2 * max_codes, -1 = free: an open-addressing table probed linearly from a multiplicative hash
 * of the bytes, 8 at a time), store and bounds (int64: code c's bytes are store[bounds[c]:bounds[c + 1]]), all
 * updated in place. New values get the next codes in order of first occurrence; store has room for all of data
 * after bounds[n_codes]. Returns the new n_codes, max_codes + 1 (out undefined) when more than max_codes codes are
 * needed. A string column's offsets are its spans: starts = offsets[:-1], ends = offsets[1:]. */
static PyObject *encode_spans(PyObject *self, PyObject *args) {
    PyObject *o_data, *o_starts, *o_ends, *o_slots, *o_store, *o_bounds, *o_out;
    long long n_codes, max_codes;
    int wide;
    if (!PyArg_ParseTuple(args, "OOOOOOLLOp", &o_data, &o_starts, &o_ends, &o_slots, &o_store, &o_bounds, &n_codes,
                          &max_codes, &o_out, &wide))
        return NULL;
    if (n_codes < 0 || max_codes < 1 || n_codes > max_codes || max_codes > (wide ? INT32_MAX - 1 : UINT16_MAX)) {
        PyErr_SetString(PyExc_ValueError, "n_codes or max_codes out of range");
        return NULL;
    }
    Views v = {.n = 0};
    const int32_t *starts, *ends;
    const uint8_t *data;
    int32_t *slots;
    int64_t *bounds;
    uint8_t *store;
    void *out;
    Py_ssize_t n, n_ends, n_data, n_slots;
    if (get(&v, o_data, 0, 1, 0, "data", &data, &n_data) < 0 || get(&v, o_starts, 0, 4, 0, "starts", &starts, &n) < 0 ||
        get(&v, o_ends, 0, 4, n, "ends", &ends, &n_ends) < 0 ||
        get(&v, o_slots, 1, 4, 2 * max_codes + 1, "slots", &slots, &n_slots) < 0 ||
        get(&v, o_bounds, 1, 8, max_codes + 2, "bounds", &bounds, NULL) < 0 ||
        get(&v, o_store, 1, 1, bounds[n_codes] + n_data, "store", &store, NULL) < 0 ||
        get(&v, o_out, 1, wide ? 4 : 2, n, "out", &out, NULL) < 0)
        goto fail;
    if (n_slots & (n_slots - 1)) {
        PyErr_SetString(PyExc_ValueError, "slots: a power of two");
        goto fail;
    }
    uint16_t *out16 = out;
    int32_t *out32 = out;
    for (Py_ssize_t i = 0; i < n; i++)
        if (starts[i] < 0 || starts[i] > ends[i] || ends[i] > n_data) {
            PyErr_SetString(PyExc_IndexError, "starts, ends: a span outside data");
            goto fail;
        }
    int bits = 0;
    while (((Py_ssize_t)1 << bits) < n_slots) bits++;
    int64_t codes = n_codes;
    Py_BEGIN_ALLOW_THREADS
    int64_t previous = -1;
    int32_t prev_start = 0, prev_end = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t start = starts[i], end = ends[i], length = end - start;
        if (previous >= 0 && length == prev_end - prev_start && same(data + start, data + prev_start, length)) {
            if (wide) /* runs of one value are common */
                out32[i] = (int32_t)previous;
            else
                out16[i] = (uint16_t)previous;
            continue;
        }
        uint64_t h = (uint64_t)length;
        for (int32_t j = start; j < end; j += 8) { /* the value 8 bytes at a time */
            uint64_t word = 0;
            for (int32_t k = j; k < end && k < j + 8; k++) word = (word << 8) | data[k];
            h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 29;
        }
        uint64_t slot = (h * 0x9E3779B97F4A7C15ULL) >> (64 - bits);
        int64_t code;
        for (;;) {
            code = slots[slot];
            if (code < 0) { /* a new value */
                if (codes == max_codes) {
                    codes = max_codes + 1;
                    break;
                }
                int64_t at = bounds[codes];
                memcpy(store + at, data + start, length);
                bounds[codes + 1] = at + length;
                slots[slot] = (int32_t)codes;
                code = codes++;
                break;
            }
            int64_t lo = bounds[code];
            if (bounds[code + 1] - lo == length && same(store + lo, data + start, length)) break;
            slot = (slot + 1) & (uint64_t)(n_slots - 1);
        }
        if (codes > max_codes) break;
        if (wide)
            out32[i] = (int32_t)code;
        else
            out16[i] = (uint16_t)code;
        previous = code, prev_start = start, prev_end = end;
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLongLong(codes);
fail:
    release(&v);
    return NULL;
}

/* count_lines(data) -> int: how many '\n' bytes data holds. */
static PyObject *count_lines(PyObject *self, PyObject *args) {
    PyObject *o_data;
    if (!PyArg_ParseTuple(args, "O", &o_data)) return NULL;
    Views v = {.n = 0};
    const uint8_t *data;
    Py_ssize_t n, lines = 0;
    if (get(&v, o_data, 0, 1, 0, "data", &data, &n) < 0) {
        release(&v);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t at = 0;
#if defined(__SSE2__)
    const __m128i lf = _mm_set1_epi8('\n');
    for (; at + 16 <= n; at += 16) /* 16 bytes at a time: a line is some 100 bytes, memchr per line costs more */
        lines += __builtin_popcount(
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(data + at)), lf)));
#endif
    for (; at < n; at++) lines += data[at] == '\n';
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromSsize_t(lines);
}

#if defined(__SSE2__)
/* Bit k set where bytes[k] (k < 64) is '|', '\n' or '\r'. */
static inline uint64_t specials64(const uint8_t *bytes) {
    const __m128i bar = _mm_set1_epi8('|'), lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r');
    uint64_t mask = 0;
    for (int q = 0; q < 4; q++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(bytes + 16 * q));
        __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, bar), _mm_cmpeq_epi8(x, lf)), _mm_cmpeq_epi8(x, cr));
        mask |= (uint64_t)(uint16_t)_mm_movemask_epi8(hit) << (16 * q);
    }
    return mask;
}
#endif

/* split_fields(data, n_fields, slot, starts, ends) -> rows: the fields of data, whole lines of an RRF file. A
 * regular line is n_fields fields, each ended by '|', then '\n': exactly n_fields '|', the last one right before
 * the '\n', and no '\r'. slot (int32, n_fields): the output row of field f, -1 for a field not wanted; starts and
 * ends (int32, (outputs, rows) C-contiguous, rows = count_lines(data)) receive the span of each wanted field of
 * each line. Returns the number of lines, or -1 - i when line i (0-based) is not regular (another field count, an
 * empty line, a '\r', or, the last, no final '\n'): the spans of the lines before it are written. */
static PyObject *split_fields(PyObject *self, PyObject *args) {
    PyObject *o_data, *o_slot, *o_starts, *o_ends;
    long long n_fields;
    if (!PyArg_ParseTuple(args, "OLOOO", &o_data, &n_fields, &o_slot, &o_starts, &o_ends)) return NULL;
    Views v = {.n = 0};
    const uint8_t *data;
    const int32_t *slot;
    int32_t *starts, *ends;
    Py_ssize_t n, n_slot, n_starts, n_ends;
    if (get(&v, o_data, 0, 1, 0, "data", &data, &n) < 0 || get(&v, o_slot, 0, 4, 0, "slot", &slot, &n_slot) < 0 ||
        get(&v, o_starts, 1, 4, 0, "starts", &starts, &n_starts) < 0 ||
        get(&v, o_ends, 1, 4, n_starts, "ends", &ends, &n_ends) < 0)
        goto fail;
    if (n_fields < 1 || n_slot != n_fields || n > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "slot: one entry per field; data: under 2**31 bytes");
        goto fail;
    }
    int32_t outputs = 0;
    for (Py_ssize_t f = 0; f < n_slot; f++) outputs = slot[f] + 1 > outputs ? slot[f] + 1 : outputs;
    Py_ssize_t rows = outputs ? n_starts / outputs : 0;
    if (outputs && n_starts != rows * outputs) {
        PyErr_SetString(PyExc_ValueError, "starts, ends: (outputs, rows) values");
        goto fail;
    }
    Py_ssize_t line = 0, bad = -1;
    Py_BEGIN_ALLOW_THREADS
    long long field = 0;    /* fields ended so far on this line */
    int32_t field_start = 0; /* where the current field starts */
    Py_ssize_t at = 0;
    /* One special byte ('|', '\n' or '\r') at i: end a field, end a line or give up. */
#define SPECIAL(i)                                                                       \
    do {                                                                                 \
        int32_t pos = (int32_t)(i);                                                      \
        uint8_t c = data[pos];                                                           \
        if (c == '|') {                                                                  \
            if (field == n_fields) goto irregular;                                       \
            int32_t s = slot[field];                                                     \
            if (s >= 0) {                                                                \
                if (line >= rows) goto irregular;                                        \
                starts[(Py_ssize_t)s * rows + line] = field_start;                       \
                ends[(Py_ssize_t)s * rows + line] = pos;                                 \
            }                                                                            \
            field++;                                                                     \
        } else if (c == '\n' && field == n_fields && field_start == pos) {               \
            line++;                                                                      \
            field = 0;                                                                   \
        } else {                                                                         \
            goto irregular;                                                              \
        }                                                                                \
        field_start = pos + 1;                                                           \
    } while (0)
#if defined(__SSE2__)
    for (; at + 64 <= n; at += 64) {
        uint64_t mask = specials64(data + at);
        while (mask) {
            SPECIAL(at + __builtin_ctzll(mask));
            mask &= mask - 1;
        }
    }
#endif
    for (; at < n; at++) {
        uint8_t c = data[at];
        if (c == '|' || c == '\n' || c == '\r') SPECIAL(at);
    }
#undef SPECIAL
    if (field_start != n || field) goto irregular; /* a last line without '\n' */
    goto done;
irregular:
    bad = line;
done:
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromSsize_t(bad >= 0 ? -1 - bad : line);
fail:
    release(&v);
    return NULL;
}

/* Is data[0:n) valid UTF-8 (Unicode 15, Table 3-7: no overlong forms, surrogates or values past U+10FFFF)? */
static int valid_utf8(const uint8_t *data, Py_ssize_t n) {
    Py_ssize_t i = 0;
    while (i < n) {
        if (i + 8 <= n) { /* ASCII, 8 bytes at a time */
            uint64_t word;
            memcpy(&word, data + i, 8);
            if (!(word & 0x8080808080808080ULL)) {
                i += 8;
                continue;
            }
        }
        uint8_t c = data[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int more;
        uint8_t lo = 0x80, hi = 0xBF; /* the range of the byte after the first */
        if (c >= 0xC2 && c <= 0xDF)
            more = 1;
        else if (c >= 0xE0 && c <= 0xEF) {
            more = 2;
            if (c == 0xE0) lo = 0xA0;
            if (c == 0xED) hi = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            more = 3;
            if (c == 0xF0) lo = 0x90;
            if (c == 0xF4) hi = 0x8F;
        } else
            return 0;
        if (i + more >= n) return 0; /* cut short */
        if (data[i + 1] < lo || data[i + 1] > hi) return 0;
        for (int k = 2; k <= more; k++)
            if (data[i + k] < 0x80 || data[i + k] > 0xBF) return 0;
        i += more + 1;
    }
    return 1;
}

/* is_utf8(data) -> bool: is all of data valid UTF-8? (Then so is every value between its '|'s, ASCII bytes.) */
static PyObject *is_utf8(PyObject *self, PyObject *args) {
    PyObject *o_data;
    if (!PyArg_ParseTuple(args, "O", &o_data)) return NULL;
    Views v = {.n = 0};
    const uint8_t *data;
    Py_ssize_t n;
    if (get(&v, o_data, 0, 1, 0, "data", &data, &n) < 0) {
        release(&v);
        return NULL;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = valid_utf8(data, n);
    Py_END_ALLOW_THREADS
    release(&v);
    return PyBool_FromLong(ok);
}

/* gather_spans(data, starts, ends, check, out_offsets, out_data) -> bytes: the values data[starts[i]:ends[i]]
 * (int32, n each) as a string column: their bytes end to end in out_data (uint8, exactly their total length),
 * their end offsets in out_offsets (int32, n + 1, out_offsets[0] = 0). With check, each value is checked to be
 * UTF-8. Returns the bytes written, or -1 - i when value i is not valid UTF-8 (the values before it are written). */
static PyObject *gather_spans(PyObject *self, PyObject *args) {
    PyObject *o_data, *o_starts, *o_ends, *o_out_off, *o_out_data;
    int check;
    if (!PyArg_ParseTuple(args, "OOOpOO", &o_data, &o_starts, &o_ends, &check, &o_out_off, &o_out_data)) return NULL;
    Views v = {.n = 0};
    const uint8_t *data;
    const int32_t *starts, *ends;
    int32_t *out_off;
    uint8_t *out_data;
    Py_ssize_t n_data, n, n_ends, n_out_data;
    if (get(&v, o_data, 0, 1, 0, "data", &data, &n_data) < 0 || get(&v, o_starts, 0, 4, 0, "starts", &starts, &n) < 0 ||
        get(&v, o_ends, 0, 4, n, "ends", &ends, &n_ends) < 0 ||
        get(&v, o_out_off, 1, 4, n + 1, "out_offsets", &out_off, NULL) < 0 ||
        get(&v, o_out_data, 1, 1, 0, "out_data", &out_data, &n_out_data) < 0)
        goto fail;
    Py_ssize_t need = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (starts[i] < 0 || starts[i] > ends[i] || ends[i] > n_data) {
            PyErr_SetString(PyExc_IndexError, "starts, ends: a span outside data");
            goto fail;
        }
        need += ends[i] - starts[i];
    }
    if (need != n_out_data || need > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "out_data: not the values' total length, or past 2**31 - 1 bytes");
        goto fail;
    }
    Py_ssize_t at = 0, bad = -1;
    Py_BEGIN_ALLOW_THREADS
    out_off[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t length = ends[i] - starts[i];
        const uint8_t *value = data + starts[i];
        if (check && !valid_utf8(value, length)) {
            bad = i;
            break;
        }
        memcpy(out_data + at, value, length);
        at += length;
        out_off[i + 1] = (int32_t)at;
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromSsize_t(bad >= 0 ? -1 - bad : at);
fail:
    release(&v);
    return NULL;
}

/* first_invalid_utf8(bounds, data, lo, hi) -> int: of the values data[bounds[i]:bounds[i + 1]] (bounds: int64),
 * the first i in lo .. hi - 1 that is not valid UTF-8, or -1 when all are (a dictionary's new values). */
static PyObject *first_invalid_utf8(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data;
    long long lo, hi;
    if (!PyArg_ParseTuple(args, "OOLL", &o_off, &o_data, &lo, &hi)) return NULL;
    Views v = {.n = 0};
    const int64_t *off;
    const uint8_t *data;
    Py_ssize_t n, n_data;
    if (get(&v, o_off, 0, 8, 1, "bounds", &off, &n) < 0 || get(&v, o_data, 0, 1, 0, "data", &data, &n_data) < 0)
        goto fail;
    if (lo < 0 || hi < lo || hi >= n || off[hi] > n_data) {
        PyErr_SetString(PyExc_ValueError, "lo, hi: out of range");
        goto fail;
    }
    long long bad = -1;
    for (long long i = lo; i < hi && bad < 0; i++)
        if (!valid_utf8(data + off[i], off[i + 1] - off[i])) bad = i;
    release(&v);
    return PyLong_FromLongLong(bad);
fail:
    release(&v);
    return NULL;
}

static PyMethodDef methods[] = {
    {"match_prefixed_class", match_prefixed_class, METH_VARARGS,
     "match_prefixed_class(offsets, data, prefix, in_class, min_count, max_count, optional, out) -> None"},
    {"equals", equals, METH_VARARGS, "equals(offsets, data, text, out) -> None"},
    {"gather_strings", gather_strings, METH_VARARGS,
     "gather_strings(offsets, data, rows, base, out_offsets, out_data) -> bytes written"},
    {"base11_keys", base11_keys, METH_VARARGS, "base11_keys(offsets, data, keep, skip, digits, out) -> bool"},
    {"encode_spans", encode_spans, METH_VARARGS,
     "encode_spans(data, starts, ends, slots, store, bounds, n_codes, max_codes, out, wide) -> n_codes"},
    {"count_lines", count_lines, METH_VARARGS, "count_lines(data) -> int"},
    {"split_fields", split_fields, METH_VARARGS, "split_fields(data, n_fields, slot, starts, ends) -> rows"},
    {"gather_spans", gather_spans, METH_VARARGS,
     "gather_spans(data, starts, ends, check, out_offsets, out_data) -> bytes"},
    {"is_utf8", is_utf8, METH_VARARGS, "is_utf8(data) -> bool"},
    {"first_invalid_utf8", first_invalid_utf8, METH_VARARGS, "first_invalid_utf8(bounds, data, lo, hi) -> int"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rrf",
                                    "RRF reader kernels (see biosem.terminology.rrf.kernels).", -1, methods};

PyMODINIT_FUNC PyInit__rrf(void) { return PyModule_Create(&module); }
