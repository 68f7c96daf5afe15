/* Per-row passes of the RRF reader over Arrow string buffers, in C (see biosem.terminology.rrf.kernels,
 * whose numba kernels compute the same and serve where this extension is not built).
 *
 * Every function takes a string column as its two buffers, offsets (int32, n + 1, rebased to 0) and data
 * (uint8), reads each value once and writes into output buffers the caller allocated. The loops run
 * without the GIL. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

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

/* encode_strings(offsets, data, slots, store, bounds, n_codes, max_codes, out) -> n_codes: uint16 dictionary
 * codes (out) of the values, continuing a dictionary held in slots (int32, a power of two > 2 * max_codes, -1 =
 * free: an open-addressing table probed linearly from a multiplicative hash of the bytes, 8 at a time), store
 * and bounds (int64: code c's bytes are store[bounds[c]:bounds[c + 1]]), all updated in place. New values get
 * the next codes in order of first occurrence; store has room for all of data after bounds[n_codes]. Returns
 * the new n_codes, max_codes + 1 (out undefined) when more than max_codes codes are needed. */
static PyObject *encode_strings(PyObject *self, PyObject *args) {
    PyObject *o_off, *o_data, *o_slots, *o_store, *o_bounds, *o_out;
    long long n_codes, max_codes;
    if (!PyArg_ParseTuple(args, "OOOOOLLO", &o_off, &o_data, &o_slots, &o_store, &o_bounds, &n_codes, &max_codes,
                          &o_out))
        return NULL;
    if (n_codes < 0 || max_codes < 1 || n_codes > max_codes) {
        PyErr_SetString(PyExc_ValueError, "n_codes or max_codes out of range");
        return NULL;
    }
    Views v = {.n = 0};
    const int32_t *off;
    const uint8_t *data;
    int32_t *slots;
    int64_t *bounds;
    uint8_t *store;
    uint16_t *out;
    Py_ssize_t n, n_slots;
    if (get_strings(&v, o_off, o_data, &off, &data, &n) < 0 ||
        get(&v, o_slots, 1, 4, 2 * max_codes + 1, "slots", &slots, &n_slots) < 0 ||
        get(&v, o_bounds, 1, 8, max_codes + 2, "bounds", &bounds, NULL) < 0 ||
        get(&v, o_store, 1, 1, bounds[n_codes] + off[n], "store", &store, NULL) < 0 ||
        get(&v, o_out, 1, 2, n, "out", &out, NULL) < 0)
        goto fail;
    if (n_slots & (n_slots - 1)) {
        PyErr_SetString(PyExc_ValueError, "slots: a power of two");
        goto fail;
    }
    int bits = 0;
    while (((Py_ssize_t)1 << bits) < n_slots) bits++;
    int64_t codes = n_codes;
    Py_BEGIN_ALLOW_THREADS
    int64_t previous = -1;
    int32_t prev_start = 0, prev_end = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int32_t start = off[i], end = off[i + 1], length = end - start;
        if (previous >= 0 && length == prev_end - prev_start && same(data + start, data + prev_start, length)) {
            out[i] = (uint16_t)previous; /* runs of one value are common */
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
        out[i] = (uint16_t)code;
        previous = code, prev_start = start, prev_end = end;
    }
    Py_END_ALLOW_THREADS
    release(&v);
    return PyLong_FromLongLong(codes);
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
    {"encode_strings", encode_strings, METH_VARARGS,
     "encode_strings(offsets, data, slots, store, bounds, n_codes, max_codes, out) -> n_codes"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_rrf",
                                    "RRF reader kernels (see biosem.terminology.rrf.kernels).", -1, methods};

PyMODINIT_FUNC PyInit__rrf(void) { return PyModule_Create(&module); }
